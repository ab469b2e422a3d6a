#pragma once
// The joint feasible update of DESIGN section 3: all interior boundaries move in
// one sweep; each real proposal is truncated toward zero to whole slices, then
// moves are shortened (never reversed, never lengthened) until every rank keeps
// at least w_min slices.

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
