#include "cellshift/controller/holt.hpp"

#include <algorithm>
#include <cmath>

namespace cellshift::controller {

void HoltForecaster::observe(const std::vector<double>& w) {
    if (level_.empty()) {
        level_ = w;
        trend_.assign(w.size(), 0.0);
        return;
    }
    for (std::size_t s = 0; s < w.size(); ++s) {
        double previous = level_[s];
        level_[s] = a_ * w[s] + (1.0 - a_) * (previous + trend_[s]);
        trend_[s] = b_ * (level_[s] - previous) + (1.0 - b_) * trend_[s];
    }
}

std::vector<double> HoltForecaster::forecast() const {
    std::vector<double> f(level_.size());
    for (std::size_t s = 0; s < f.size(); ++s) {
        f[s] = std::max(0.0, level_[s] + trend_[s]);
    }
    return f;
}

double relative_forecast_error(const std::vector<double>& forecast,
                               const std::vector<double>& actual) {
    double error = 0.0, total = 0.0;
    for (std::size_t s = 0; s < actual.size(); ++s) {
        error += std::abs(forecast[s] - actual[s]);
        total += actual[s];
    }
    return total > 0.0 ? error / total : 0.0;
}

} // namespace cellshift::controller
