#pragma once
// The slab decomposition of docs/design.md section 5, without MPI: the x axis is cut into
// S slabs (the balancer's slices), rank p owns slabs [b_p, b_{p+1}), a cell
// belongs to the rank owning the slab of its centroid, and each rank receives as
// ghosts every element within the cutoff of its own elements. The MPI driver
// (slab_simulation.hpp) moves the data; everything it decides is computed here,
// so it is testable in one process.

#include "cellshift/controller/layout.hpp"
#include "cellshift/sim/sem_params.hpp"
#include "cellshift/sim/tissue.hpp"

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace cellshift::sim {

// Slab width Lx / S must be a whole number of bins (>= 1), so that a slab
// boundary is a bin boundary. Throws std::invalid_argument naming the problem.
void validate_slabs(const SemParams& params, std::int64_t slabs);

// The rank owning slab s under the boundaries.
int owner_of_slab(std::int64_t slab, const controller::Boundaries& boundaries);

// x of every cell's centroid (in tissue.cells order), summed in element order.
std::vector<double> centroid_x(const Tissue& tissue);

// The owning rank of every cell of `tissue` (in tissue.cells order).
std::vector<int> cell_owners(const Tissue& tissue, const SemParams& params,
                             const controller::Boundaries& boundaries);

// The x range of one rank's elements; empty when lo > hi.
struct Extent {
    double lo = std::numeric_limits<double>::infinity();
    double hi = -std::numeric_limits<double>::infinity();
    bool empty() const { return lo > hi; }
};
Extent extent_of(const Elements& elements);

// Does x lie in the ghost window of `e`, [lo - cutoff, hi + cutoff]?
inline bool in_ghost_window(double x, const Extent& e, double cutoff) {
    return !e.empty() && x >= e.lo - cutoff && x <= e.hi + cutoff;
}

// Ghosts come from the two neighbours only. That is complete when no rank's
// elements reach into the ghost window of a rank two or more away; otherwise
// this returns a one-line description (empty string: complete). The width it
// needs is the cutoff plus twice the largest cell extent beyond its slabs.
std::string ghost_reach_problem(const std::vector<Extent>& extents, double cutoff);

} // namespace cellshift::sim
