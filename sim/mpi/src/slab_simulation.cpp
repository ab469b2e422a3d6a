// SlabSimulation: setup (fresh or from a checkpoint) and the step: ghosts,
// forces, the Euler update of owned elements, the clocks, then lifecycle and
// rebalancing when due.
#include "cellshift/sim/slab_simulation.hpp"

#include "cellshift/controller/partition.hpp"
#include "cellshift/sim/integrate_owned.hpp"
#include "cellshift/sim/mpi_helpers.hpp"
#include "cellshift/sim/sem_physics.hpp"
#include "cellshift/sim/slab_decomposition.hpp"
#include "cellshift/sim/slab_workload.hpp"
#include "ghost_exchange.hpp"

#include <algorithm>
#include <chrono>

namespace cellshift::sim {

namespace {

using clock_type = std::chrono::steady_clock;

double seconds_since(clock_type::time_point t0) {
    return std::chrono::duration<double>(clock_type::now() - t0).count();
}

} // namespace

SlabSimulation::SlabSimulation(MPI_Comm comm, SemParams params, BalanceOptions balance,
                               const std::string& backend, std::string configuration,
                               const data::Checkpoint* restart)
    : comm_(comm), params_(std::move(params)), balance_(std::move(balance)),
      configuration_(std::move(configuration)) {
    MPI_Comm_rank(comm_, &rank_);
    MPI_Comm_size(comm_, &size_);
    balance_ = with_resolved_slabs(balance_, params_);
    const controller::Layout layout{balance_.slabs, size_, balance_.w_min};
    mpi::agree(comm_, [&] {
        policy_ = make_checked_policy(params_, balance_, size_);
        backend_ = make_backend(backend, params_);
        if (restart != nullptr) {
            if (restart->ranks != size_)
                throw std::invalid_argument(
                    "the checkpoint was written by " + std::to_string(restart->ranks) +
                    " ranks; restart it with mpirun -n " + std::to_string(restart->ranks));
            if (restart->policy != balance_.policy)
                throw std::invalid_argument("the checkpoint was written under policy '" +
                                            restart->policy + "', not '" + balance_.policy + "'");
            if (restart->configuration != configuration_)
                throw std::invalid_argument(
                    "the checkpoint's configuration differs from this run's (model, "
                    "decomposition or balancing options changed)");
        }
    });

    growth_events_.assign(static_cast<std::size_t>(balance_.slabs), 0.0);
    cost_estimate_.assign(static_cast<std::size_t>(balance_.slabs), 0.0);
    if (restart == nullptr) {
        Tissue whole = make_basal_patch(params_);
        controller::validate(layout);
        initial_load_ = cell_workload_per_slab(whole, params_, balance_.slabs);
        boundaries_ = controller::split_equal_load(initial_load_, layout);
        pack_cells(whole, cell_owners(whole, params_, boundaries_), rank_, size_);
        tissue_ = std::move(whole);
        policy_->reset(layout, boundaries_);
        return;
    }
    restore(*restart);
}

void SlabSimulation::use_policy(std::unique_ptr<controller::Policy> policy) {
    if (!policy)
        throw std::invalid_argument("use_policy needs a policy");
    policy->reset(controller::Layout{balance_.slabs, size_, balance_.w_min}, boundaries_);
    policy_ = std::move(policy);
}

SlabSimulation::~SlabSimulation() = default;

std::int64_t SlabSimulation::take_interactions() {
    const std::int64_t n = interactions_since_report_;
    interactions_since_report_ = 0;
    return n;
}

void SlabSimulation::run(std::int64_t steps) {
    for (std::int64_t k = 0; k < steps; ++k)
        step_once();
}

void SlabSimulation::step_once() {
    const auto step_start = clock_type::now();
    const GhostExchange exchange =
        exchange_ghosts(comm_, rank_, size_, tissue_.elements, params_.cutoff, tissue_.step, view_);
    const auto forces_start = clock_type::now();
    phases_.ghost_exchange += std::chrono::duration<double>(forces_start - step_start).count();
    backend_->set_active(&view_.active);
    const ForceStats stats = backend_->compute_forces(view_.elements, forces_);
    backend_->set_active(nullptr);
    const auto integration_start = clock_type::now();
    phases_.forces += std::chrono::duration<double>(integration_start - forces_start).count();
    integrate_owned(EulerIntegrator(params_), tissue_.elements, forces_, tissue_.step,
                    view_.elements.size(), RowMap{&view_.active, &view_.own_index});
    const auto sync_start = clock_type::now();
    phases_.integration += std::chrono::duration<double>(sync_start - integration_start).count();
    const double busy =
        exchange.busy_seconds + std::chrono::duration<double>(sync_start - forces_start).count();

    const double modelled = balance_.cost.step_seconds(
        stats.interactions, static_cast<std::int64_t>(tissue_.elements.size()),
        static_cast<std::int64_t>(exchange.ghosts));
    interval_time_ += balance_.clock == Clock::model ? modelled : busy;
    if (recording_trace_ && balance_.clock == Clock::model)
        add_step_cost_per_slab();
    // The last step before an event: what --slab-estimate cost shows the policy
    // (one more neighbour pass, so only where something reads it).
    if (balance_.slab_estimate == SlabEstimate::cost && balance_.rebalance_every > 0 &&
        (tissue_.step + 1) % balance_.rebalance_every == 0 && slab_estimate_read())
        estimate_step_cost();
    interactions_since_report_ += stats.interactions;
    add_step_totals(modelled, busy, exchange.ghosts, stats.interactions);
    phases_.step_sync += seconds_since(sync_start);

    tissue_.step += 1;
    tissue_.time = static_cast<double>(tissue_.step) * params_.dt;
    // Lifecycle and decision exclude the migration they end with (timed in migrate()).
    if (tissue_.step % params_.lifecycle_every == 0) {
        const auto t = clock_type::now();
        const double migration_before = phases_.migration;
        lifecycle();
        phases_.lifecycle += seconds_since(t) - (phases_.migration - migration_before);
    }
    if (balance_.rebalance_every > 0 && tissue_.step % balance_.rebalance_every == 0) {
        const auto t = clock_type::now();
        const double migration_before = phases_.migration;
        rebalance();
        phases_.decision += seconds_since(t) - (phases_.migration - migration_before);
    }
}

void SlabSimulation::add_step_totals(double modelled, double busy, std::size_t ghosts,
                                     std::int64_t interactions) {
    // Every rank's cost of this step under both clocks: the slowest sets the pace.
    const auto P = static_cast<std::size_t>(size_);
    constexpr std::size_t kFields = 4;
    const double local[kFields] = {modelled, busy, static_cast<double>(ghosts),
                                   static_cast<double>(interactions)};
    std::vector<double> costs(kFields * P);
    MPI_Allgather(local, kFields, MPI_DOUBLE, costs.data(), kFields, MPI_DOUBLE, comm_);
    double slowest[2] = {0.0, 0.0}, sum[2] = {0.0, 0.0};
    for (std::size_t p = 0; p < P; ++p) {
        for (std::size_t c = 0; c < 2; ++c) {
            slowest[c] = std::max(slowest[c], costs[kFields * p + c]);
            sum[c] += costs[kFields * p + c];
        }
        totals_.ghosts += static_cast<std::int64_t>(costs[kFields * p + 2]);
        totals_.interactions += static_cast<std::int64_t>(costs[kFields * p + 3]);
    }
    totals_.model.runtime += slowest[0];
    totals_.model.mean += sum[0] / static_cast<double>(P);
    totals_.measured.runtime += slowest[1];
    totals_.measured.mean += sum[1] / static_cast<double>(P);
    ++totals_.steps;
}

} // namespace cellshift::sim
