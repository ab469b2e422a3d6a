#pragma once
// The residual GRU policy (`rnn`): one shared GRU cell keeps a hidden state per
// interior boundary. What its head corrects is the file's base:
//   reactive: the residual r corrects the reactive proposal,
//             ds = ds_max tanh(atanh(ds_r / ds_max) + r), and all moves go through
//             the joint feasible update (the paper's controller);
//   forecast: a gain and a correction on the move to holt's equal-load split
//             (forecast_base.hpp), then the monotone projection;
//   blend:    the same, aimed at a per-boundary blend of that split and a faster
//             forecaster's (a third output).
// alpha, tau, ds_max_fraction and the forecaster's constants come from the file, so
// deployment uses exactly the constants the controller was trained with.

#include "cellshift/controller/features.hpp"
#include "cellshift/controller/policy.hpp"
#include "cellshift/controller/reactive.hpp"
#include "cellshift/data/controller_file.hpp"

#include <cstdint>
#include <memory>

namespace cellshift::controller {

// How a gated controller's cost gate (forecast_base.hpp) reads the host and its data;
// deployment settings, not file attributes (`rnn.end_aware`, `rnn.noise_margin`,
// `rnn.median_judge`, `rnn.shift_judge`, `rnn.steady_judge`, `rnn.persistence`,
// `rnn.last_judge`, `rnn.jump_reset`, `rnn.trend_judge`).
struct RnnGateOptions {
    // The horizon ends with the run where the host says how many intervals are left
    // (Observation::intervals_left).
    bool end_aware = true;
    // z of gate_noise_margin: a move must gain more than noisy observations could
    // fake (0: any gain). Read with the blend base, whose gate tracks forecast errors.
    double noise_margin = 4.0;
    // The gate may judge under the median of the last five observations (three at first)
    // (median_forecast.hpp) when it has been more accurate than both Holt forecasts:
    // transient bursts then do not look like lasting load. Blend base.
    bool median_judge = true;
    // The gate may judge under the forecast that follows the workload's motion
    // (shift_forecast.hpp) when it has been the most accurate: moves that anticipate a
    // travelling front are then not vetoed by a lagging forecast. Blend base.
    bool shift_judge = true;
    // The gate may judge under a steady forecast (exponential smoothing, no trend,
    // level weight 0.3) when it has been the most accurate: where a profile stands still
    // under noisy observations, a split balanced under it chases less noise. Blend base.
    bool steady_judge = true;
    // The gate follows the moves it would make and weighs moves over one interval where
    // their saving has not lasted half of an 8-interval window (split_persistence.hpp):
    // a profile that switches back and forth is then not chased at a high mu. Blend base.
    bool persistence = true;
    // The gate may judge under the last observation itself when its averaged error is
    // below 0.9 of the best other forecast's and the host's migration cost mu is at most
    // this (0: never).
    // Where a move repays its migration within an interval or two, the forecast that is
    // right for the next interval is the one to judge by: a load that jumps (phases
    // taking turns, a regime switch) is then followed at once, not over the two or
    // three events a smoothed forecast lags. Where moves are dear they must last
    // several intervals, and the last observation's one-step accuracy says too little
    // about that (it cost the training traces at mu = 1; docs/research_log.md, issue 22
    // session 24). It acts through the minimax refinement (the file's refine_split), which
    // moves to the judge's own best split; without it the gate's aims are holt's and the
    // fast split, which lag a jump, and judging them under the last observation only
    // churns, so there it never judges. Blend base.
    double last_judge = 0.1;
    // Where the steady forecast's error on the ranks' loads jumps far above its usual
    // size (load_jump.hpp), the smoothed forecasts (holt's, the fast, steady and trend ones)
    // restart from the observation: a profile that switches at once is followed at the
    // next event, not over the several a smoother lags it. Blend base.
    bool jump_reset = true;
    // The gate may judge under a trend forecast (Holt, level weight 1, trend weight 0.6)
    // when it has been the most accurate: where a load travels fast across many narrow
    // ranks, its extrapolated motion says where the load will be, which the blend's
    // own forecasts (trend weight 0 and 0.3) lag. Blend base.
    bool trend_judge = true;
};

// Throws std::invalid_argument if the controller's features are not the first 12
// (rank-time set), 16 (forecast set) or all 18 of this build's features (names,
// order, clamp ranges), or a forecast base reads fewer than 18. A controller with
// forecast features or a forecast base reads Observation::slice_workload.
std::unique_ptr<Policy> make_rnn_policy(const data::Controller& weights,
                                        const RnnGateOptions& gate = {});

// An untrained controller: GRU weights drawn like PyTorch's default
// (uniform in +-1/sqrt(H), seeded), head zero. It reproduces `reactive` exactly.
data::Controller untrained_controller(const ReactiveParams& params, std::size_t hidden = 24,
                                      std::uint64_t seed = 0,
                                      std::size_t features = kForecastFeatureCount);

// An untrained forecast-base controller (random GRU, zero 2-output head): it
// reproduces `holt` with these constants exactly.
data::Controller untrained_forecast_controller(double level_alpha, double trend_beta,
                                               std::size_t hidden = 24, std::uint64_t seed = 0);

// An untrained blend-base controller (zero 3-output head): `holt` with the first
// constants exactly; the head's third output aims at the fast forecaster's split.
data::Controller untrained_blend_controller(double level_alpha, double trend_beta,
                                            double fast_level_alpha, double fast_trend_beta,
                                            std::size_t hidden = 24, std::uint64_t seed = 0);

} // namespace cellshift::controller
