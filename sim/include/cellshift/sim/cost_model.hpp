#pragma once
// The model clock (docs/design.md section 5): a rank's time for one step from what it
// computed. The defaults are `OMP_NUM_THREADS=1 cellshift-sim calibrate` on the
// development machine (docs/simulator.md gives the fit); rerun it on yours and
// pass its --cost-* line. It makes balancing results reproducible on machines
// with fewer cores than ranks.

#include <cstdint>

namespace cellshift::sim {

struct CostModel {
    // Seconds per pair interaction within the cutoff, counted from both sides
    // (the gather evaluates each pair once per element).
    double per_pair = 1.6e-8;
    // Seconds per owned element per step: bin sort, external force, integration.
    double per_element = 3.6e-7;
    // Seconds per ghost element per step: packing, message, merge.
    double per_ghost = 1.4e-8;
    // Seconds per element moved at a rebalancing event (pack, message, unpack).
    double per_migrated_element = 6.4e-7;

    double step_seconds(std::int64_t interactions, std::int64_t owned, std::int64_t ghosts) const {
        return per_pair * static_cast<double>(interactions) +
               per_element * static_cast<double>(owned) + per_ghost * static_cast<double>(ghosts);
    }
};

} // namespace cellshift::sim
