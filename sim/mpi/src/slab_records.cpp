// SlabSimulation: what a run leaves behind besides its tissue: the run record
// of its events and totals, and the per-slab workload trace (--trace-out).
#include "cellshift/sim/slab_simulation.hpp"

#include "cellshift/sim/slab_decomposition.hpp"
#include "cellshift/sim/slab_workload.hpp"

#include <algorithm>
#include <sstream>

namespace cellshift::sim {

void SlabSimulation::record_trace() {
    if (tissue_.step != 0 || initial_load_.empty())
        throw std::invalid_argument("a trace records a fresh run from its first step (not "
                                    "a restart)");
    recording_trace_ = true;
    slab_cost_.assign(static_cast<std::size_t>(balance_.slabs), 0.0);
    assign_cell_slabs();
}

void SlabSimulation::assign_cell_slabs() {
    const std::vector<double> cx = centroid_x(tissue_);
    cell_slab_.resize(cx.size());
    for (std::size_t c = 0; c < cx.size(); ++c)
        cell_slab_[c] = slab_of(cx[c], params_.Lx, balance_.slabs);
}

void SlabSimulation::add_step_cost_per_slab() {
    add_step_cost(cell_slab_, slab_cost_);
}

void SlabSimulation::add_step_cost(const std::vector<std::int64_t>& cell_slab,
                                   std::vector<double>& into) const {
    const std::vector<std::int32_t> partners =
        partners_within_cutoff(view_.elements, view_.active, params_);
    const Elements& own = tissue_.elements;
    for (std::size_t k = 0; k < view_.elements.size(); ++k) {
        if (view_.active[k] == 0)
            continue;
        const std::size_t i = view_.own_index[k];
        const auto cell = static_cast<std::size_t>(tissue_.find_cell(own.cell[i]));
        const auto slab = static_cast<std::size_t>(cell_slab[cell]);
        into[slab] +=
            balance_.cost.per_pair * static_cast<double>(partners[k]) + balance_.cost.per_element;
    }
}

void SlabSimulation::estimate_step_cost() {
    const std::vector<double> cx = centroid_x(tissue_);
    std::vector<std::int64_t> slab(cx.size());
    for (std::size_t c = 0; c < cx.size(); ++c)
        slab[c] = slab_of(cx[c], params_.Lx, balance_.slabs);
    cost_estimate_.assign(static_cast<std::size_t>(balance_.slabs), 0.0);
    add_step_cost(slab, cost_estimate_);
}

data::Trace SlabSimulation::trace(const std::string& source) const {
    data::Trace t;
    const std::size_t E = trace_workload_.size();
    const auto S = static_cast<std::size_t>(balance_.slabs);
    t.workload = data::Matrix(E, S);
    data::Matrix growth(E, S);
    for (std::size_t e = 0; e < E; ++e) {
        std::copy(trace_workload_[e].begin(), trace_workload_[e].end(), t.workload.row(e));
        std::copy(trace_growth_[e].begin(), trace_growth_[e].end(), growth.row(e));
    }
    t.growth_events = std::move(growth);
    if (!trace_estimate_.empty()) {
        data::Matrix estimate(E, S);
        for (std::size_t e = 0; e < E; ++e)
            std::copy(trace_estimate_[e].begin(), trace_estimate_[e].end(), estimate.row(e));
        t.estimate = std::move(estimate);
    }
    t.cycle_phase = trace_phase_;
    t.initial_load = initial_load_;
    t.slice_width = params_.Lx / static_cast<double>(balance_.slabs);
    // Only what does not depend on the policy: traces of one tissue under
    // different policies are the same trace.
    std::ostringstream text;
    text << source << ": domain " << params_.Lx << " x " << params_.Ly << " x " << params_.Lz
         << ", " << balance_.slabs << " slabs, rebalance every " << balance_.rebalance_every
         << " steps, seed " << params_.seed << ", clock " << clock_name(balance_.clock)
         << (balance_.clock == Clock::model ? " (modelled seconds per slab and interval; "
                                              "the estimate the policy saw beside them)"
                                            : " (per-slab estimate, last step)")
         << ", slab estimate " << slab_estimate_name(balance_.slab_estimate);
    t.source = text.str();
    return t;
}

data::RunRecord SlabSimulation::run_record(const std::string& source, double wall) const {
    data::RunRecord r;
    const std::size_t E = events_.size();
    const auto P = static_cast<std::size_t>(size_);
    r.rank_time = data::Matrix(E, P);
    r.boundaries = data::IntMatrix(E, P + 1);
    data::IntMatrix elements(E, P);
    for (std::size_t k = 0; k < E; ++k) {
        const BalanceEvent& ev = events_[k];
        for (std::size_t p = 0; p < P; ++p) {
            r.rank_time(k, p) = ev.rank_time[p];
            elements(k, p) = ev.elements[p];
        }
        for (std::size_t p = 0; p <= P; ++p)
            r.boundaries(k, p) = ev.boundaries[p];
        r.migrated_slices.push_back(ev.migrated_slices);
        r.imbalance.push_back(ev.imbalance);
    }
    r.elements = elements;
    r.clock = clock_name(balance_.clock);
    r.policy = balance_.policy;
    r.slices = balance_.slabs;
    r.w_min = balance_.w_min;
    r.configuration = configuration_;
    r.source = source;
    data::RunTotals t;
    t.steps = totals_.steps;
    t.model_runtime = totals_.model.runtime;
    t.model_migration = totals_.model.migration;
    t.model_mean = totals_.model.mean;
    t.measured_runtime = totals_.measured.runtime;
    t.wall_seconds = wall;
    t.ghosts = totals_.ghosts;
    r.totals = t;
    return r;
}

} // namespace cellshift::sim
