#pragma once
// Holt's double exponential smoothing, per slice (the `holt` baseline):
//   level_t = a w_t + (1 - a)(level_{t-1} + trend_{t-1})
//   trend_t = b (level_t - level_{t-1}) + (1 - b) trend_{t-1}
//   forecast_{t+1} = max(0, level_t + trend_t)
// The first observation sets level = w and trend = 0.

#include <utility>
#include <vector>

namespace cellshift::controller {

class HoltForecaster {
public:
    HoltForecaster(double level_alpha, double trend_beta) : a_(level_alpha), b_(trend_beta) {}

    void reset() {
        level_.clear();
        trend_.clear();
    }
    void observe(const std::vector<double>& workload);
    std::vector<double> forecast() const;

    const std::vector<double>& level() const { return level_; }
    const std::vector<double>& trend() const { return trend_; }
    // Continues from a saved level and trend (both empty: nothing observed yet).
    void restore(std::vector<double> level, std::vector<double> trend) {
        level_ = std::move(level);
        trend_ = std::move(trend);
    }

private:
    double a_, b_;
    std::vector<double> level_, trend_;
};

// How far a per-slice forecast was from the workload that came: the summed absolute
// error relative to the total workload (0 for a perfect forecast, 0 when nothing came).
double relative_forecast_error(const std::vector<double>& forecast,
                               const std::vector<double>& actual);

} // namespace cellshift::controller
