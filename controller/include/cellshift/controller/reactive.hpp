#pragma once
// The reactive boundary-shift rule of docs/design.md section 3 (the paper's baseline and
// the residual controller's starting point).
//
// For the boundary between the left rank (time t_left, n_left slices) and the
// right rank (t_right, n_right): I = (t_right - t_left) / ((t_right + t_left) / 2).
// If |I| > tau, the boundary moves toward the slower rank by
//     |ds| = alpha * N_slow * |t_right - t_left| / (2 * T_slow),
// positive (to higher slice index) when the right rank is slower, and the result
// is clipped to +-ds_max (at least one slice).

#include "cellshift/controller/layout.hpp"

#include <vector>

namespace cellshift::controller {

// Defaults: the best point of the runtime search on training seeds of every
// scenario family at mu = 0.0075, 0.1 and 1 (docs/baselines.md), the same values
// the registry's `reactive` uses. The paper's rule moves at most 0.05 S/P a step
// (alpha 0.6, tau 0.15): kPaperReactive, what paper-faithful controllers store.
struct ReactiveParams {
    double alpha = 0.45;          // gain: the fraction of the estimated excess to move
    double tau = 0.02;            // dead band on |I|: smaller imbalances move nothing
    double ds_max_fraction = 1.0; // largest move of one boundary per event, x S/P
};
inline constexpr ReactiveParams kPaperReactive{0.6, 0.15, 0.05};

// Local imbalance I of one boundary (0 when both times are 0).
double local_imbalance(double t_left, double t_right);

// The reactive proposal for one boundary, clipped to +-ds_max.
double reactive_proposal(double t_left, double t_right, double n_left, double n_right,
                         const ReactiveParams& params, double ds_max);

// ds_max in slices for a layout: ds_max_fraction * S / P, and at least one slice
// (so that a non-zero proposal can move a boundary at any S / P).
double ds_max_slices(const Layout& layout, const ReactiveParams& params);

// Proposals for all P-1 interior boundaries.
std::vector<double> reactive_proposals(const std::vector<double>& rank_times,
                                       const Boundaries& boundaries, const ReactiveParams& params,
                                       double ds_max);

} // namespace cellshift::controller
