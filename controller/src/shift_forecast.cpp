#include "cellshift/controller/shift_forecast.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <stdexcept>

namespace cellshift::controller {
namespace {

// Squared mismatch between `to` and `from` carried a whole `shift` along.
double mismatch(const std::vector<double>& from, const std::vector<double>& to, long shift) {
    const long n = static_cast<long>(to.size());
    double sum = 0.0;
    for (long i = 0; i < n; ++i) {
        const long j = std::clamp(i - shift, 0L, n - 1);
        const double d = to[static_cast<std::size_t>(i)] - from[static_cast<std::size_t>(j)];
        sum += d * d;
    }
    return sum;
}

} // namespace

std::size_t ShiftForecaster::max_shift(std::size_t slices) {
    return std::clamp<std::size_t>(slices / 8, 1, 32);
}

double best_shift(const std::vector<double>& from, const std::vector<double>& to,
                  std::size_t reach) {
    const long r = static_cast<long>(reach);
    std::vector<double> e(2 * reach + 1);
    const auto at = [&](long s) -> double& { return e[static_cast<std::size_t>(s + r)]; };
    for (long s = -r; s <= r; ++s)
        at(s) = mismatch(from, to, s);
    long best = 0;
    for (long s = -r; s <= r; ++s) {
        if (at(s) < at(best) || (at(s) == at(best) && std::labs(s) < std::labs(best)))
            best = s;
    }
    // A best whole shift of 0 stays 0: on a profile that does not travel, the fraction
    // would fit the noise and smear the forecast.
    double fraction = 0.0;
    if (best != 0 && best > -r && best < r) {
        const double curvature = at(best - 1) - 2.0 * at(best) + at(best + 1);
        if (curvature > 0.0)
            fraction = std::clamp(0.5 * (at(best - 1) - at(best + 1)) / curvature, -0.5, 0.5);
    }
    return static_cast<double>(best) + fraction;
}

std::vector<double> shifted(const std::vector<double>& x, double shift) {
    const std::size_t n = x.size();
    std::vector<double> y(n);
    for (std::size_t i = 0; i < n; ++i) {
        const double at =
            std::clamp(static_cast<double>(i) - shift, 0.0, static_cast<double>(n) - 1.0);
        const auto lo = static_cast<std::size_t>(at);
        const std::size_t hi = std::min(lo + 1, n - 1);
        const double t = at - static_cast<double>(lo);
        y[i] = (1.0 - t) * x[lo] + t * x[hi];
    }
    return y;
}

void ShiftForecaster::reset() {
    profile_.clear();
    shift_ = 0.0;
    measured_ = false;
}

void ShiftForecaster::observe(const std::vector<double>& workload) {
    if (profile_.size() != workload.size()) {
        profile_ = workload;
        return;
    }
    shift_ = best_shift(profile_, workload, max_shift(workload.size()));
    measured_ = true;
    profile_ = shifted(profile_, shift_);
    for (std::size_t i = 0; i < profile_.size(); ++i)
        profile_[i] = kProfileWeight * workload[i] + (1.0 - kProfileWeight) * profile_[i];
}

std::vector<double> ShiftForecaster::forecast() const {
    return shifted(profile_, shift_);
}

std::vector<double> ShiftForecaster::state() const {
    if (profile_.empty())
        return {};
    std::vector<double> s = profile_;
    s.push_back(shift_);
    s.push_back(measured_ ? 1.0 : 0.0);
    return s;
}

void ShiftForecaster::restore(const std::vector<double>& state, std::size_t slices) {
    if (!state.empty() && (slices == 0 || state.size() != slices + 2))
        throw std::invalid_argument(
            "policy state 'rnn/shift/state' does not hold S + 2 values (profile, shift, "
            "measured)");
    reset();
    if (state.empty())
        return;
    profile_.assign(state.begin(), state.end() - 2);
    shift_ = state[slices];
    measured_ = state[slices + 1] != 0.0;
}

} // namespace cellshift::controller
