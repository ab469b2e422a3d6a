#pragma once
// Whether the load has jumped to a new profile (issue 22, session 26). The controller's
// smoothed forecasts (holt's level 0.6, the fast one, the steady one at 0.3) take several
// events to follow a profile that switches at once (a code changing phase, a regime
// switch): the gate then judges
// moves under a forecast still half in the old profile, and under noisy observations
// the steady forecast, the quietest and so the most often judged, lags the most. A jump
// is read at the ranks, where measurement noise averages over each rank's slices and a
// switch does not: the steady forecast's error on each rank's load under the current
// boundaries, summed and relative to the total (r). A jump is an r above its moving
// average by kJumpDeviations of its moving mean absolute deviation (both keeping
// kJumpKeep per event), once kJumpWarmup values are known. At a jump the controller
// restarts its smoothed forecasts from the observation (rnn_policy.cpp). 12 deviations,
// chosen on selection data: at 5 the noise of the training traces at 30% observation
// noise set it off and cost them 0.6% at mu = 1, at 20 the stress set under 30% noise kept
// less than half of the gain (docs/research_log.md, issue 22 session 26). Profiles that take
// turns every few events are no jump: the deviation grows with the turns.

#include "cellshift/controller/layout.hpp"

#include <cstddef>
#include <vector>

namespace cellshift::controller {

inline constexpr double kJumpDeviations = 12.0;
inline constexpr double kJumpKeep = 0.9;
inline constexpr double kJumpWarmup = 5.0;

// The steady forecast's error on the ranks' loads: sum over ranks of |sum over the
// rank's slices (forecast - actual)| over the total of `actual` (0 when it is 0).
double rank_load_error(const std::vector<double>& forecast, const std::vector<double>& actual,
                       const Boundaries& boundaries);

class LoadJump {
public:
    void reset() { *this = LoadJump{}; }
    // Reads one event's rank-load error r: returns whether it is a jump (tested against
    // the averages before r enters them), then updates them (the first r starts the
    // mean, the deviation at 0).
    bool observe(double r);
    double mean() const { return mean_; }
    double deviation() const { return deviation_; }

    // For checkpoints: {mean, deviation, values seen}.
    std::vector<double> state() const { return {mean_, deviation_, seen_}; }
    // The inverse of state(); throws std::invalid_argument, naming the checkpoint key
    // 'rnn/jump/state', unless it holds three finite values >= 0, the last a whole count.
    void restore(const std::vector<double>& state);

private:
    double mean_ = 0.0, deviation_ = 0.0, seen_ = 0.0;
};

} // namespace cellshift::controller
