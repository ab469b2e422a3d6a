#pragma once
// How unsteady the total workload is, for the cost gate's horizon (issue 22,
// forecast_base.hpp). With g_t = W_t / W_{t-1} - 1 the relative change of the summed
// per-slice workload between events, the volatility is a moving average of
// |g_t - g_{t-1}|: steady growth, at any rate, reads near 0; transient bursts, which
// come and go within a few events, read high. A split made now stays right for
// longer on a steady workload, so the gate weighs a move over a longer horizon there
// (stretched_horizon). Chosen on training and validation data (docs/research_log.md,
// issue 22 session 8): the simulator traces read 0.002-0.005, the generator's
// families, which have bursts, 0.006-0.03.

#include <vector>

namespace cellshift::controller {

// The volatility below which the gate's horizon is stretched: H x kSteadyVolatility / v,
// at most kMaxHorizonStretch x H.
inline constexpr double kSteadyVolatility = 0.006;
inline constexpr double kMaxHorizonStretch = 3.0;
// Memory of the moving average, per event (as the gate's forecast-error averages).
inline constexpr double kVolatilityKeep = 0.9;

class TotalVolatility {
public:
    void reset() { *this = TotalVolatility{}; }
    // The total workload of the interval that just ended (a sum of slice costs, >= 0).
    void observe(double total);
    // Known once two changes of a positive total have been seen.
    bool known() const { return changes_ > 0; }
    double value() const { return value_; }
    // For checkpoints: {previous total, the one before, value, changes seen, totals seen}.
    std::vector<double> state() const;
    // The inverse of state(); throws std::invalid_argument on a wrong size.
    void restore(const std::vector<double>& state);

private:
    double previous_ = 0.0, before_ = 0.0, value_ = 0.0;
    double changes_ = 0.0, totals_ = 0.0;
};

// The cost gate's horizon for this event: `horizon` x clamp(kSteadyVolatility / v, 1,
// kMaxHorizonStretch), or `horizon` while the volatility is not known yet.
double stretched_horizon(double horizon, const TotalVolatility& volatility);

} // namespace cellshift::controller
