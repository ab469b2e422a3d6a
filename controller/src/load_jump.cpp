#include "cellshift/controller/load_jump.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace cellshift::controller {

double rank_load_error(const std::vector<double>& forecast, const std::vector<double>& actual,
                       const Boundaries& boundaries) {
    double total = 0.0;
    for (const double w : actual) {
        total += w;
    }
    double error = 0.0;
    for (std::size_t k = 0; k + 1 < boundaries.size(); ++k) {
        double difference = 0.0;
        for (auto s = boundaries[k]; s < boundaries[k + 1]; ++s) {
            const auto i = static_cast<std::size_t>(s);
            difference += forecast[i] - actual[i];
        }
        error += std::abs(difference);
    }
    return total > 0.0 ? error / total : 0.0;
}

bool LoadJump::observe(double r) {
    if (!std::isfinite(r)) {
        return false; // a non-finite error says nothing
    }
    const bool jump = seen_ >= kJumpWarmup && r > mean_ + kJumpDeviations * deviation_;
    if (seen_ == 0.0) {
        mean_ = r;
        deviation_ = 0.0;
    } else {
        deviation_ = kJumpKeep * deviation_ + (1.0 - kJumpKeep) * std::abs(r - mean_);
        mean_ = kJumpKeep * mean_ + (1.0 - kJumpKeep) * r;
    }
    seen_ += 1.0;
    return jump;
}

void LoadJump::restore(const std::vector<double>& state) {
    const bool valid = state.size() == 3 &&
                       std::all_of(state.begin(), state.end(),
                                   [](double x) { return std::isfinite(x) && x >= 0.0; }) &&
                       state[2] == std::floor(state[2]);
    if (!valid) {
        throw std::invalid_argument("policy state 'rnn/jump/state' must hold three finite "
                                    "values >= 0 (mean, deviation, a whole count)");
    }
    mean_ = state[0];
    deviation_ = state[1];
    seen_ = state[2];
}

} // namespace cellshift::controller
