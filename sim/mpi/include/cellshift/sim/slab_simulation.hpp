#pragma once
// The multi-rank SEM simulation (issue 6, docs/design.md sections 3 and 5): every rank
// owns the cells whose centroid lies in its contiguous run of slabs, receives
// ghosts from its two neighbours every step (non-blocking point-to-point), and
// at every rebalancing event sends its time to rank 0, where a registry policy
// chooses new boundaries that are broadcast; cells then migrate to their new
// owners. With a CPU backend that gathers in canonical order (cpu-binned,
// cpu-allpairs) the trajectory is bitwise that of one rank.
//
// One class, one file per concept: slab_simulation.cpp (setup and the step),
// ghost_exchange.cpp, slab_lifecycle.cpp (growth, division and the daughters'
// ids), slab_rebalance.cpp (the decision and migration), slab_checkpoint.cpp
// (gather, checkpoint, restart), slab_records.cpp (run record and trace).

#include "cellshift/controller/policy.hpp"
#include "cellshift/data/checkpoint.hpp"
#include "cellshift/data/run_record.hpp"
#include "cellshift/data/trace.hpp"
#include "cellshift/sim/balance_options.hpp"
#include "cellshift/sim/balance_records.hpp"
#include "cellshift/sim/collective_error.hpp"
#include "cellshift/sim/element_parcel.hpp"
#include "cellshift/sim/force_backend.hpp"
#include "cellshift/sim/lifecycle.hpp"
#include "cellshift/sim/sem_params.hpp"
#include "cellshift/sim/tissue.hpp"

#include <mpi.h>

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace cellshift::sim {

class SlabSimulation {
public:
    // Collective. Starts from the basal patch (every rank builds it and keeps its
    // own cells) or, with `restart`, from a checkpoint written by a run with the
    // same configuration and rank count. Throws std::invalid_argument with one
    // line, on every rank alike, for an invalid setup.
    SlabSimulation(MPI_Comm comm, SemParams params, BalanceOptions balance,
                   const std::string& backend, std::string configuration,
                   const data::Checkpoint* restart = nullptr);
    ~SlabSimulation();

    // Collective: advances `steps` steps (lifecycle and rebalancing included).
    void run(std::int64_t steps);
    // The step at which this run will stop (0, the default: not known). The policy is
    // told at every event how many rebalancing intervals are left
    // (Observation::intervals_left), so that the learned controller's cost gate does
    // not make moves that cannot repay their migration before the end.
    void set_last_step(std::int64_t step) { last_step_ = step; }
    // Decides with `policy` instead of the registry's from the next event on (a host's
    // own rule, or a test's that records what it is told); it starts from the current
    // boundaries. Call it on every rank, as the constructor makes the policy on every
    // rank. A checkpoint still names the configured policy and saves this one's state.
    void use_policy(std::unique_ptr<controller::Policy> policy);

    // Collective: the whole tissue and each cell's owner on rank 0 (empty elsewhere).
    Tissue gather(std::vector<int>* owners) const;
    // Collective: the checkpoint of the current state (complete on rank 0).
    data::Checkpoint checkpoint() const;
    // Rank 0: the run record of every event so far, with the totals.
    data::RunRecord run_record(const std::string& source, double wall_seconds) const;

    int rank() const { return rank_; }
    int ranks() const { return size_; }
    const Tissue& local() const { return tissue_; }
    const SemParams& params() const { return params_; }
    const BalanceOptions& balance() const { return balance_; }
    const controller::Boundaries& boundaries() const { return boundaries_; }
    const std::vector<BalanceEvent>& events() const { return events_; } // rank 0
    const BalanceTotals& totals() const { return totals_; }             // rank 0
    const PhaseSeconds& phase_seconds() const { return phases_; }       // this rank's
    std::string backend_name() const { return backend_->name(); }
    std::string take_backend_report() { return backend_->take_report(); }
    // Interactions computed by this rank since the last call (for progress lines).
    std::int64_t take_interactions();

    // Collective, before the first step of a fresh run: from now on record the
    // per-slab workload of every interval (cellshift-sim run --trace-out). On the
    // model clock a slab's cost is what the clock charges its elements (pairs
    // within the cutoff and the per-element term, each element on the slab of its
    // cell's centroid); on the measured clock it is the per-slab interaction
    // estimate the forecast policies see. The ghost term stays with the ranks.
    // A model-clock trace also keeps that estimate (Trace::estimate), so that a
    // replay shows a policy what it saw live.
    void record_trace();
    // Rank 0: the recorded trace (one row per finished interval, the growth
    // events and cycle phase the policy saw, the initial partition's load).
    data::Trace trace(const std::string& source) const;

private:
    void restore(const data::Checkpoint& c); // the constructor's restart path
    void step_once();
    // Every rank's cost of one step under both clocks into the totals (collective).
    void add_step_totals(double modelled, double busy, std::size_t ghosts,
                         std::int64_t interactions);
    void lifecycle();
    void rebalance();
    // Moves every cell to the owner of its centroid's slab; returns the elements
    // this rank sent plus received.
    std::int64_t migrate();
    DaughterIds number_daughters(const std::vector<std::int64_t>& dividing,
                                 std::int64_t next_cell_id) const;

    MPI_Comm comm_;
    int rank_ = 0, size_ = 1;
    SemParams params_;
    BalanceOptions balance_;
    std::string configuration_;
    std::unique_ptr<ForceBackend> backend_;
    std::unique_ptr<controller::Policy> policy_; // used on rank 0
    Tissue tissue_;                              // this rank's cells and their elements
    controller::Boundaries boundaries_;
    LocalView view_;
    ForceField forces_;
    double interval_time_ = 0.0;        // this rank's time since the last event
    std::int64_t last_step_ = 0;        // where the run stops (0: not known)
    std::vector<double> growth_events_; // [S] divisions since the last event (this rank's)
    std::int64_t interactions_since_report_ = 0;
    std::vector<BalanceEvent> events_;
    BalanceTotals totals_;
    PhaseSeconds phases_;
    // --trace-out: this rank's per-slab cost in the current interval, and rank 0's
    // rows of the finished ones.
    bool recording_trace_ = false;
    std::vector<double> slab_cost_;
    // Slab of each owned cell (tissue_.cells order) as of the last migration: the
    // slab that decided its owner, so that per-slab costs sum to rank costs.
    std::vector<std::int64_t> cell_slab_;
    void assign_cell_slabs();
    std::vector<double> initial_load_; // the workload score of the initial partition
    std::vector<std::vector<double>> trace_workload_, trace_growth_, trace_estimate_;
    std::vector<double> trace_phase_;
    void add_step_cost_per_slab();
    // This rank's model-clock cost of the step just computed (pairs within the cutoff
    // and the per-element term, not the ghosts), each element on the slab
    // `cell_slab` gives its cell, added to `into`.
    void add_step_cost(const std::vector<std::int64_t>& cell_slab, std::vector<double>& into) const;
    // --slab-estimate cost: this rank's share of the estimate, the cost of the
    // interval's last step with each cell on the slab of its centroid then.
    std::vector<double> cost_estimate_;
    void estimate_step_cost();
    // Whether the policy or the trace being recorded reads the per-slab estimate.
    bool slab_estimate_read() const;
};

} // namespace cellshift::sim
