#pragma once
// The forecast base of the learned controller (issue 22, docs/design.md 8.2). The base
// proposal of boundary k is the equal-load split of Holt's per-slice forecast
// (the `holt` baseline's target) minus the current boundary, d_k = target_k - b_k.
// The GRU's two head outputs (o_gain, o_corr) shape it per boundary:
//     move_k = g(o_gain) d_k + c(o_corr)
//     g(o) = kGainMax / 2 (1 + tanh(o + atanh(2 / kGainMax - 1)))   in (0, kGainMax)
//     c(o) = kCorrectionSlices tanh(o)
// g(0) = 1 and c(0) = 0: a zero head is the holt baseline exactly. g -> 0 holds the
// boundary (the controller's fallback when a move is not worth its migration), g > 1
// leads a moving front, c shifts the cut by at most one slice. Both bounds are tight on
// purpose: a wider gain (up to 1.5) and a correction of a quarter of ds_max won 1.3% on
// the generator's validation seeds and lost 3-5% on the validation simulator traces,
// where the extra moves turned into oscillation (docs/controller.md).
// The blend base (a third output) aims the same move at a per-boundary blend of two
// equal-load splits instead of one: the base forecaster's target_k and a faster
// forecaster's fast_k (level 1, trend 0.3 by default: what cheap migration rewards),
//     aim_k = target_k + w(o_blend) (fast_k - target_k),
//     w(o) = tanh(o) for o >= 0, kBlendLeak tanh(o) below: in (-0.1, 1),
// so w = 0 (a zero head) is the base, w -> 1 the fast split.
// The head decides per boundary and per event which forecast to trust, from the
// features (migration cost included).
// The move is rounded half away from zero (the hard loop's llround), then the
// boundaries are made feasible by the monotone projection below. The LibTorch
// surrogate (surrogate/soft_loop.cpp) computes the same formulas on tensors.
// A file with a hold horizon H > 0 then passes the move through the cost gate
// (gate_move below), which the surrogate does not model: it is the deployed
// loop's guard against moves that cannot pay for their migration, and its choice,
// per event, of how far to go and towards which split, judged under the forecast
// that has been the most accurate (holt's, the fast one, the median of the last five
// observations, median_forecast.hpp, or the shift forecast, shift_forecast.hpp), over H
// intervals stretched up to 3H while the total workload grows steadily
// (total_volatility.hpp).

#include "cellshift/controller/interval_cost.hpp"
#include "cellshift/controller/layout.hpp"

#include <cstdint>
#include <vector>

namespace cellshift::controller {

inline constexpr double kGainMax = 1.2;
inline constexpr double kCorrectionSlices = 1.0;
inline constexpr double kBlendLeak = 0.1;

// The bias that makes g(0) = 1: atanh(2 / kGainMax - 1).
double gain_offset();
double forecast_gain(double output);
double forecast_correction(double output);
double forecast_blend(double output);

// The nearest feasible boundaries to `interior` (P-1 whole-slice cuts, any order)
// in the sense of a running maximum: u_k = b_k - k w_min is clamped to
// [0, S - P w_min] and made non-decreasing, so every rank keeps >= w_min slices.
// A feasible input is returned unchanged. `limited`, if given, counts the cuts
// that changed.
Boundaries project_feasible(const std::vector<std::int64_t>& interior, const Layout& layout,
                            std::int64_t* limited = nullptr);

// The cost gate: the move kept is the candidate with the lowest predicted time over
// the next `horizon` intervals if the per-slice workload is `load` (a forecast). The
// candidates are holding (`current`) and, for each of the `aims` (feasible boundaries:
// the head's proposal, then the forecasts' own splits), a quarter, half, three quarters
// and all of the way there (each cut rounded half away from zero, then made feasible).
// A candidate r is judged by
//     J(r) = interval_runtime(load, current, r, cost) + (horizon - 1) bottleneck(load, r),
// the first interval charged the migration and the event's fixed cost, so part of a
// move is made when the rest would not pay for its migration. Candidates are tried from
// the smallest fraction up and ties keep the earlier one, so a move the forecast sees no
// gain in is not made. A move is made only if J(r) < J(current) - horizon x `margin`:
// `margin` is the gain per interval that the forecast's noise could fake
// (gate_noise_margin below; 0: any gain).
Boundaries gate_move(const std::vector<double>& load, const Boundaries& current,
                     const std::vector<Boundaries>& aims, const Layout& layout, double horizon,
                     const MigrationCost& cost, double margin = 0.0);

// The gain per interval below which the gate holds, because noisy observations could
// fake it: z e^2 (sum of `load`) / sqrt(P S), with e the judge forecast's averaged
// relative per-slice error (kForecastErrorKeep). Why this form: a rank's forecast load
// (S/P slices whose errors are independent where they are measurement noise) is off by
// about e x its load / sqrt(S/P), and the gate picks the best of a dozen candidates by
// those loads, so a split that only balances the noise looks like a gain of that size.
// The margin asks for z e such standard errors: where the forecasts are good (e = 0.03
// to 0.09 on every training workload) it is a small fraction of one and changes next to
// nothing; where the observations are noisy (e = 0.3) it is about one, and the gate no
// longer chases the noise. z = 4 (`rnn.noise_margin`) was chosen on the training traces
// replayed with 2, 10 and 30% observation noise and on the selection figures
// (docs/research_log.md, issue 22 session 19). z is checked by check_noise_margin.
double gate_noise_margin(double z, double forecast_error, const std::vector<double>& load,
                         const Layout& layout);
// Throws std::invalid_argument (one line) unless z is finite and >= 0.
void check_noise_margin(double z);

// The gate's horizon at an event: `horizon`, but no more intervals than the run has
// left (Observation::intervals_left; 0: the host does not say). A move that cannot
// repay its migration before the run ends does not pay: without the cap the last
// 8-24 events of a run make moves whose payback the run never sees (at mu = 1 on
// training seeds and traces: docs/research_log.md, issue 22 session 18).
double horizon_within_run(double horizon, std::int64_t intervals_left);

// The gate's minimax refinement (a controller file's `refine_split`, or `--param
// rnn.refine=1|2`). Every split the gate weighs rounds each cut to the nearer slice on
// its own; the whole-slice split with the lowest bottleneck under `load`
// (optimal_partition, the oracle's algorithm, among its optima the one nearest to
// `chosen`) can be up to a slice's load lighter on the heaviest rank. The gate's choice
// is replaced by it if the refined split's first interval (interval_runtime from
// `current`), its extra migration included, is shorter than the chosen split's: a move
// the gate has made (`chosen` != `current`) always, a hold only with `holds` (refine_split
// 2) and by more than the gate's noise `margin`. A hold is a choice as well: where every rounded
// candidate is a slice too coarse to pay, the minimax split often pays within the interval (on the
// selection data, sessions 13 and 17 of docs/research_log.md). Judged over one interval, not the
// gate's horizon: the gain is a fraction of a slice, which the next event's forecast rounds afresh,
// so it cannot be banked for longer (over the horizon it paid on paper for moves that did not pay
// at a GPU's mu; docs/research_log.md, sessions 10 and 12).
Boundaries refine_move(const std::vector<double>& load, const Boundaries& current,
                       const Boundaries& chosen, const Layout& layout, const MigrationCost& cost,
                       bool holds = false, double margin = 0.0);

// The blend base's gate judges under whichever of its forecasts (the two Holt
// forecasters, the median of the last observations and the shift forecast) has been the
// most accurate lately: each forecast's relative error (holt.hpp) in a moving average that
// keeps this much of the old value per event (a memory of about ten events).
inline constexpr double kForecastErrorKeep = 0.9;

} // namespace cellshift::controller
