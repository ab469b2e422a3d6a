#include "cellshift/controller/holt.hpp"

#include <algorithm>

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

} // namespace cellshift::controller
