#pragma once
// A forecast that follows the workload's own motion. Per-slice smoothers (the Holt
// forecasts, the median) cannot represent a load that travels: a front or a blob
// crossing a slice looks to them like a jump and then a trend, and their forecast lags
// it by about as many slices as it moves per event. This one measures, at each event,
// the shift (slices per event, fractional) that best carries its profile onto the new
// observation, keeps the profile in that moving frame (an exponential smoothing of the
// observations, each carried along), and forecasts the profile carried one shift
// further. A profile that does not travel as a whole (a tissue growing in place, two
// blobs crossing) gives a shift of 0 and an exponentially smoothed forecast.
//
// The cost gate judges under it when it has been the most accurate of its forecasts
// (rnn_policy.cpp): then moves that anticipate a moving front are not vetoed for
// disagreeing with a lagging forecast. Chosen on the stress workloads, the training
// traces under observation noise and the training seeds (docs/research_log.md, issue 22
// session 21): the profile's weight 0.3, shifts matched against the profile rather than
// the last observation, a best whole shift of 0 kept at exactly 0.

#include <cstddef>
#include <vector>

namespace cellshift::controller {

class ShiftForecaster {
public:
    // Weight of the newest observation in the moving-frame profile.
    static constexpr double kProfileWeight = 0.3;
    // The largest shift searched, in slices per event: S / 8, from 1 to 32.
    static std::size_t max_shift(std::size_t slices);

    void reset();
    void observe(const std::vector<double>& workload);
    // The profile carried one shift further; empty before the first observation.
    std::vector<double> forecast() const;
    // Slices per event, positive towards higher slice indices (0 until measured).
    double shift() const { return shift_; }
    // Whether a shift has been measured (at least two observations seen).
    bool measured() const { return measured_; }

    // The profile's S values, then the shift and 1 if measured (empty: nothing observed).
    std::vector<double> state() const;
    // Continues from state() of a run with `slices` slices; throws
    // std::invalid_argument if it holds neither nothing nor S + 2 values.
    void restore(const std::vector<double>& state, std::size_t slices);

private:
    std::vector<double> profile_;
    double shift_ = 0.0;
    bool measured_ = false;
};

// `x` carried `shift` slices towards higher indices: linear interpolation between
// slices, the end values extended beyond the domain.
std::vector<double> shifted(const std::vector<double>& x, double shift);

// The shift of least squared mismatch between `to` and `from` carried along: whole
// shifts in [-reach, reach], ties to the smaller |shift|; then, unless that is 0, a
// parabola through its neighbours' mismatches for the fraction (within +-0.5).
double best_shift(const std::vector<double>& from, const std::vector<double>& to,
                  std::size_t reach);

} // namespace cellshift::controller
