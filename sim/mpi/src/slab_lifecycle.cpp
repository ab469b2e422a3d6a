// SlabSimulation: growth, division and differentiation of each rank's cells,
// with daughter ids that do not depend on the rank count, then migration of the
// cells whose centroid left the rank's slabs.
#include "cellshift/sim/slab_simulation.hpp"

#include "cellshift/sim/mpi_helpers.hpp"
#include "cellshift/sim/slab_decomposition.hpp"
#include "cellshift/sim/slab_workload.hpp"

#include <algorithm>

namespace cellshift::sim {

DaughterIds SlabSimulation::number_daughters(const std::vector<std::int64_t>& dividing,
                                             std::int64_t next_cell_id) const {
    // The dividing cells of every rank, in id order, number the daughters.
    const std::vector<std::int64_t> all = mpi::all_gather_sorted(comm_, dividing);
    DaughterIds ids;
    ids.total_divisions = static_cast<std::int64_t>(all.size());
    for (std::int64_t id : dividing) {
        const auto position = std::lower_bound(all.begin(), all.end(), id) - all.begin();
        ids.first.push_back(next_cell_id + 2 * static_cast<std::int64_t>(position));
    }
    return ids;
}

void SlabSimulation::lifecycle() {
    const std::int64_t first_new = tissue_.next_cell_id;
    const LifecycleEvents ev = update_lifecycle(
        tissue_, params_, static_cast<double>(params_.lifecycle_every) * params_.dt,
        [this](const std::vector<std::int64_t>& dividing, std::int64_t next) {
            return number_daughters(dividing, next);
        });
    // Divisions per slab (half a division per daughter), for the policies' features.
    if (ev.divisions > 0) {
        const std::vector<double> cx = centroid_x(tissue_);
        for (std::size_t c = 0; c < tissue_.cells.size(); ++c) {
            if (tissue_.cells[c].id >= first_new)
                growth_events_[static_cast<std::size_t>(
                    slab_of(cx[c], params_.Lx, balance_.slabs))] += 0.5;
        }
    }
    std::int64_t local[3] = {ev.divisions, ev.elements_added, ev.differentiations};
    std::int64_t global[3];
    MPI_Allreduce(local, global, 3, MPI_INT64_T, MPI_SUM, comm_);
    totals_.divisions += global[0];
    totals_.elements_added += global[1];
    totals_.differentiations += global[2];
    migrate();
}

} // namespace cellshift::sim
