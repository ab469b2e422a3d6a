#include "cellshift/controller/total_volatility.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace cellshift::controller {

void TotalVolatility::observe(double total) {
    if (totals_ >= 2.0 && previous_ > 0.0 && before_ > 0.0 && total > 0.0) {
        const double change = total / previous_ - 1.0;
        const double last_change = previous_ / before_ - 1.0;
        const double jolt = std::abs(change - last_change);
        value_ = changes_ == 0.0 ? jolt : kVolatilityKeep * value_ + (1.0 - kVolatilityKeep) * jolt;
        changes_ += 1.0;
    }
    before_ = previous_;
    previous_ = total;
    totals_ += 1.0;
}

std::vector<double> TotalVolatility::state() const {
    return {previous_, before_, value_, changes_, totals_};
}

void TotalVolatility::restore(const std::vector<double>& state) {
    if (state.size() != 5) {
        throw std::invalid_argument("total volatility state holds " + std::to_string(state.size()) +
                                    " values, expected 5");
    }
    previous_ = state[0];
    before_ = state[1];
    value_ = state[2];
    changes_ = state[3];
    totals_ = state[4];
}

double stretched_horizon(double horizon, const TotalVolatility& volatility) {
    if (!volatility.known()) {
        return horizon;
    }
    const double v = std::max(volatility.value(), std::numeric_limits<double>::min());
    return horizon * std::clamp(kSteadyVolatility / v, 1.0, kMaxHorizonStretch);
}

} // namespace cellshift::controller
