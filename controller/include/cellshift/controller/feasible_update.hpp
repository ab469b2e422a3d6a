#pragma once
// The joint feasible update of docs/design.md section 3: all interior boundaries move in
// one sweep; each real proposal is rounded to the nearest whole slice (halves away
// from zero: the deployed loop has integer boundaries), then the moves are
// shortened (never reversed, never lengthened) until every rank keeps at least
// w_min slices. Rounding rather than truncating matters: with truncation a
// proposal below one slice never moves, and the reactive rule cannot correct the
// small imbalances of narrow ranks.

#include "cellshift/controller/layout.hpp"

#include <vector>

namespace cellshift::controller {

struct FeasibleUpdate {
    Boundaries boundaries;    // the new boundaries
    std::int64_t limited = 0; // interior boundaries whose move w_min shortened
};

// `proposals[k]` is the desired move of interior boundary k+1, in slices
// (positive: toward higher slice index). `current` must be feasible.
FeasibleUpdate feasible_update(const Boundaries& current, const std::vector<double>& proposals,
                               std::int64_t w_min);

} // namespace cellshift::controller
