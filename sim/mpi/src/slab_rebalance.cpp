// SlabSimulation: the rebalancing event (rank times and per-slab estimates to
// rank 0, the policy's decision broadcast) and the migration of cells to the
// owners of their slabs, charged to both clocks.
#include "cellshift/sim/slab_simulation.hpp"

#include "cellshift/controller/partition.hpp"
#include "cellshift/controller/registry.hpp"
#include "cellshift/sim/mpi_helpers.hpp"
#include "cellshift/sim/slab_decomposition.hpp"
#include "cellshift/sim/slab_workload.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>

namespace cellshift::sim {

namespace {

using clock_type = std::chrono::steady_clock;

double seconds_since(clock_type::time_point t0) {
    return std::chrono::duration<double>(clock_type::now() - t0).count();
}

// The host's migration cost mu at this event (docs/design.md 8.1): what moving an element
// costs, in units of one element's compute time over the interval that just ended
// (the cost model's per-migrated-element seconds over sum_p T_p / N). It is what
// `cellshift-sim calibrate` reports for the grown tissue, measured live, so a
// cost-aware controller sees the real mu of this run's tissue and rebalance interval.
double migration_cost_now(const CostModel& cost, const std::vector<double>& rank_time,
                          const std::vector<std::int64_t>& elements) {
    const double busy = std::accumulate(rank_time.begin(), rank_time.end(), 0.0);
    const double owned =
        static_cast<double>(std::accumulate(elements.begin(), elements.end(), std::int64_t{0}));
    if (!(busy > 0.0) || !(owned > 0.0))
        return controller::kDefaultMigrationCost;
    return cost.per_migrated_element * owned / busy;
}

} // namespace

std::int64_t SlabSimulation::migrate() {
    const auto t0 = clock_type::now();
    struct AddElapsed { // every return path, the collective error included
        double& total;
        clock_type::time_point start;
        ~AddElapsed() { total += seconds_since(start); }
    } timed{phases_.migration, t0};
    const std::size_t before = tissue_.elements.size();
    std::vector<std::vector<char>> out =
        pack_cells(tissue_, cell_owners(tissue_, params_, boundaries_), rank_, size_);
    const std::size_t kept = tissue_.elements.size();
    const std::vector<char> in = mpi::all_to_all_bytes(comm_, out);
    unpack_cells(tissue_, in.data(), in.size());
    if (recording_trace_)
        assign_cell_slabs(); // the centroids that just decided the owners
    const auto moved =
        static_cast<std::int64_t>((before - kept) + (tissue_.elements.size() - kept));
    // The slowest rank's migration holds everyone up.
    const double local[2] = {balance_.cost.per_migrated_element * static_cast<double>(moved),
                             seconds_since(t0)};
    double slowest[2] = {0.0, 0.0};
    MPI_Allreduce(local, slowest, 2, MPI_DOUBLE, MPI_MAX, comm_);
    totals_.model.runtime += slowest[0];
    totals_.model.migration += slowest[0];
    totals_.measured.runtime += slowest[1];
    totals_.measured.migration += slowest[1];
    return moved;
}

bool SlabSimulation::slab_estimate_read() const {
    return controller::policy_style(balance_.policy).needs_slice_workload ||
           policy_->reads_slice_workload() || recording_trace_;
}

void SlabSimulation::rebalance() {
    const auto P = static_cast<std::size_t>(size_);
    const auto S = static_cast<std::size_t>(balance_.slabs);
    std::vector<double> rank_time(P);
    MPI_Gather(&interval_time_, 1, MPI_DOUBLE, rank_time.data(), 1, MPI_DOUBLE, 0, comm_);
    const auto owned = static_cast<std::int64_t>(tissue_.elements.size());
    std::vector<std::int64_t> elements(P);
    MPI_Gather(&owned, 1, MPI_INT64_T, elements.data(), 1, MPI_INT64_T, 0, comm_);
    std::vector<double> growth(S, 0.0);
    MPI_Reduce(growth_events_.data(), growth.data(), static_cast<int>(S), MPI_DOUBLE, MPI_SUM, 0,
               comm_);
    std::vector<double> workload;
    if (slab_estimate_read()) {
        if (balance_.slab_estimate == SlabEstimate::cost) {
            // The interval's last step, costed per slab on every rank (step_once).
            workload.assign(rank_ == 0 ? S : 0, 0.0);
            MPI_Reduce(cost_estimate_.data(), workload.data(), static_cast<int>(S), MPI_DOUBLE,
                       MPI_SUM, 0, comm_);
        } else {
            // The interval's last step: the whole tissue's elements per bin on rank 0
            // (each rank counts its own), so the estimate does not depend on where the
            // boundaries are.
            const std::vector<double> mine = element_count_per_bin(tissue_.elements, params_);
            std::vector<double> all(rank_ == 0 ? mine.size() : 0);
            MPI_Reduce(mine.data(), all.data(), static_cast<int>(mine.size()), MPI_DOUBLE, MPI_SUM,
                       0, comm_);
            if (rank_ == 0)
                workload = interaction_estimate_per_slab(all, params_, balance_.slabs);
        }
    }

    const double cycle = params_.cycle_time;
    const double phase = 6.283185307179586 * std::fmod(tissue_.time, cycle) / cycle;
    if (recording_trace_) {
        // Model clock: the slabs' cost, with the estimate the policy saw beside it;
        // measured clock: the estimate is the row.
        std::vector<double> row = workload;
        const bool model = balance_.clock == Clock::model;
        if (model) {
            row.assign(S, 0.0);
            MPI_Reduce(slab_cost_.data(), row.data(), static_cast<int>(S), MPI_DOUBLE, MPI_SUM, 0,
                       comm_);
            std::fill(slab_cost_.begin(), slab_cost_.end(), 0.0);
        }
        if (rank_ == 0) {
            if (model)
                trace_estimate_.push_back(workload);
            trace_workload_.push_back(std::move(row));
            trace_growth_.push_back(growth);
            trace_phase_.push_back(phase);
        }
    }

    controller::Boundaries next = boundaries_;
    BalanceEvent ev;
    int failed = 0;
    std::string problem;
    if (rank_ == 0) {
        try {
            controller::Observation o;
            o.rank_times = rank_time;
            o.slice_workload = workload;
            o.growth_events = growth;
            o.cycle_phase = phase;
            o.migration_cost = migration_cost_now(balance_.cost, rank_time, elements);
            o.intervals_left =
                rebalance_intervals_left(tissue_.step, last_step_, balance_.rebalance_every);
            next = policy_->decide(o);
        } catch (const std::exception& error) {
            failed = 1;
            problem = error.what();
        }
        const double mean =
            std::accumulate(rank_time.begin(), rank_time.end(), 0.0) / static_cast<double>(P);
        const double slowest = *std::max_element(rank_time.begin(), rank_time.end());
        ev.step = tissue_.step;
        ev.rank_time = rank_time;
        ev.boundaries = boundaries_;
        ev.elements = elements;
        ev.imbalance = mean > 0.0 ? slowest / mean - 1.0 : 0.0;
        ev.migrated_slices = controller::migrated_slices(boundaries_, next);
        ev.limited = policy_->last_limited();
    }
    MPI_Bcast(&failed, 1, MPI_INT, 0, comm_);
    if (failed != 0)
        throw CollectiveError(mpi::broadcast_string(comm_, problem, 0));
    MPI_Bcast(next.data(), static_cast<int>(next.size()), MPI_INT64_T, 0, comm_);
    boundaries_ = next;
    const std::int64_t moved = migrate();
    std::int64_t total_moved = 0;
    MPI_Reduce(&moved, &total_moved, 1, MPI_INT64_T, MPI_SUM, 0, comm_);
    if (rank_ == 0) {
        ev.migrated_elements = total_moved / 2; // each counted by sender and receiver
        events_.push_back(std::move(ev));
    }
    interval_time_ = 0.0;
    std::fill(growth_events_.begin(), growth_events_.end(), 0.0);
}

} // namespace cellshift::sim
