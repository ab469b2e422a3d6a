#pragma once
// Growth, division and differentiation of cells (host side, every
// `lifecycle_every` steps). Every random choice is a counter draw keyed by
// (seed, cell id, step), and dividing cells are handled in id order, so the
// outcome never depends on element order or, with MPI, on the decomposition.

#include "cellshift/sim/sem_params.hpp"
#include "cellshift/sim/tissue.hpp"

#include <cstdint>
#include <functional>
#include <vector>

namespace cellshift::sim {

struct LifecycleEvents {
    std::int64_t elements_added = 0;
    std::int64_t divisions = 0;
    std::int64_t differentiations = 0; // cells that became suprabasal
    LifecycleEvents& operator+=(const LifecycleEvents& o) {
        elements_added += o.elements_added;
        divisions += o.divisions;
        differentiations += o.differentiations;
        return *this;
    }
};

// The stem basal patch the tissue grows from (docs/design.md section 5; issue: starts over part
// of the domain along x so that the tissue spreads and the workload moves).
Tissue make_basal_patch(const SemParams& params);

// Daughter ids: the dividing cells of the whole tissue, in id order, take the
// ids next_cell_id, next_cell_id + 1, ... two each. With one process the tissue
// is the whole tissue; with MPI each rank holds only its cells, so the caller
// supplies the global numbering. Given this process's dividing cell ids (sorted),
// it returns the first daughter id of each and the global number of divisions.
struct DaughterIds {
    std::vector<std::int64_t> first; // per local dividing cell
    std::int64_t total_divisions = 0;
};
using DaughterNumbering = std::function<DaughterIds(const std::vector<std::int64_t>& dividing,
                                                    std::int64_t next_cell_id)>;

// The one-process numbering: next_cell_id + 2 k for the k-th dividing cell.
DaughterIds number_daughters_locally(const std::vector<std::int64_t>& dividing,
                                     std::int64_t next_cell_id);

// One lifecycle update covering `elapsed` time: growth, then divisions, then
// differentiation of cells that lost the membrane. Keeps the Tissue invariants
// (elements sorted by id, cells sorted by id, element counts per cell).
LifecycleEvents update_lifecycle(Tissue& tissue, const SemParams& params, double elapsed,
                                 const DaughterNumbering& numbering = number_daughters_locally);

// A cell's cycle time, drawn once at birth from its id and birth position x
// (the parent's centroid; see SemParams::growth_gradient).
double draw_cycle_time(const SemParams& params, std::int64_t cell_id, double x_birth);

} // namespace cellshift::sim
