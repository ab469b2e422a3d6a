#include "cellshift/sim/slab_simulation.hpp"

#include "cellshift/controller/partition.hpp"
#include "cellshift/controller/registry.hpp"
#include "cellshift/sim/mpi_helpers.hpp"
#include "cellshift/sim/sem_physics.hpp"
#include "cellshift/sim/slab_decomposition.hpp"
#include "cellshift/sim/slab_workload.hpp"

#include <algorithm>
#include <chrono>
#include <climits>
#include <cmath>
#include <map>
#include <numeric>
#include <sstream>

namespace cellshift::sim {

namespace {

using clock_type = std::chrono::steady_clock;

double seconds_since(clock_type::time_point t0) {
    return std::chrono::duration<double>(clock_type::now() - t0).count();
}

controller::Layout layout_of(const BalanceOptions& b, int ranks) {
    return controller::Layout{b.slabs, ranks, b.w_min};
}

void check_cost(const char* name, double v) {
    if (!std::isfinite(v) || v < 0.0)
        throw std::invalid_argument(std::string(name) + " must be finite and >= 0");
}

// Tissue of the cells a checkpoint assigns to `rank`.
Tissue tissue_from_checkpoint(const data::Checkpoint& c, int rank) {
    Tissue t;
    t.step = c.step;
    t.time = c.time;
    t.next_cell_id = c.next_cell_id;
    std::vector<std::uint8_t> mine(c.cell_id.size(), 0);
    for (std::size_t k = 0; k < c.cell_id.size(); ++k) {
        if (c.cell_owner[k] != rank)
            continue;
        mine[k] = 1;
        Cell cell;
        cell.id = c.cell_id[k];
        cell.type = static_cast<CellType>(c.cell_type[k]);
        cell.generation = static_cast<std::int32_t>(c.cell_generation[k]);
        cell.age = c.cell_age[k];
        cell.cycle_time = c.cell_cycle_time[k];
        cell.growth_credit = c.cell_growth_credit[k];
        cell.next_serial = c.cell_next_serial[k];
        cell.elements = static_cast<std::int32_t>(c.cell_elements[k]);
        t.cells.push_back(cell);
    }
    for (std::size_t i = 0; i < c.element_id.size(); ++i) {
        const auto k = static_cast<std::size_t>(
            std::lower_bound(c.cell_id.begin(), c.cell_id.end(), c.element_cell[i]) -
            c.cell_id.begin());
        if (mine[k])
            t.elements.push_back(c.positions(i, 0), c.positions(i, 1), c.positions(i, 2),
                                 c.element_id[i], c.element_cell[i], c.element_adhesive[i] != 0);
    }
    return t;
}

const std::vector<double>& state_of(const data::NamedArrays& arrays, const std::string& name,
                                    std::size_t size) {
    const auto it = arrays.find(name);
    if (it == arrays.end() || it->second.size() != size)
        throw std::invalid_argument("checkpoint: balancer state '" + name +
                                    "' is missing or has the wrong size");
    return it->second;
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

constexpr int kTagCount = 11;
constexpr int kTagGhosts = 12;

} // namespace

BalanceOptions with_resolved_slabs(BalanceOptions balance, const SemParams& params) {
    const double columns = params.Lx / params.effective_bin_edge();
    // Invalid geometry keeps 0 here; validate() then names the bad parameter.
    if (balance.slabs == 0 && std::isfinite(columns) && columns >= 1.0 && columns < 1e15)
        balance.slabs = static_cast<std::int64_t>(std::floor(columns + 1e-9));
    return balance;
}

std::unique_ptr<controller::Policy> make_checked_policy(const SemParams& params,
                                                        const BalanceOptions& balance, int ranks) {
    const controller::Layout layout = layout_of(balance, ranks);
    validate(params);
    if (balance.slabs < 0)
        throw std::invalid_argument("slabs must be >= 0 (0: one per bin column)");
    validate_slabs(params, balance.slabs);
    if (balance.w_min < 1)
        throw std::invalid_argument("w-min must be >= 1");
    if (ranks < 1 || balance.w_min > balance.slabs / ranks) { // P * w_min > S, no overflow
        throw std::invalid_argument(
            std::to_string(ranks) + " ranks need P * w_min <= S slabs, got " +
            std::to_string(ranks) + " * " + std::to_string(balance.w_min) + " > " +
            std::to_string(balance.slabs) + " (use fewer ranks, more slabs or a lower w-min)");
    }
    controller::validate(layout);
    if (balance.rebalance_every < 0)
        throw std::invalid_argument("rebalance-every must be >= 0");
    if (balance.clock != "model" && balance.clock != "measured")
        throw std::invalid_argument("clock must be model or measured, got '" + balance.clock + "'");
    check_cost("cost-pair", balance.cost.per_pair);
    check_cost("cost-element", balance.cost.per_element);
    check_cost("cost-ghost", balance.cost.per_ghost);
    check_cost("cost-migrated", balance.cost.per_migrated_element);
    const controller::PolicyStyle& style = controller::policy_style(balance.policy);
    if (style.clairvoyant)
        throw std::invalid_argument("policy '" + balance.policy +
                                    "' reads the future workload, which a simulation cannot "
                                    "know (use it in cellshift-eval)");
    controller::PolicySettings settings;
    settings.controller_file = balance.controller_file;
    for (const std::string& text : balance.params) {
        if (text.empty())
            continue; // an empty `param` key of a written config file
        const controller::ParameterOverride param = controller::parse_parameter_override(text);
        if (param.policy != balance.policy)
            throw std::invalid_argument("param '" + text + "' sets a parameter of '" +
                                        param.policy + "', but the policy is '" + balance.policy +
                                        "'");
        settings.overrides[param.name] = param.value;
    }
    return controller::make_policy(balance.policy, settings);
}

SlabSimulation::SlabSimulation(MPI_Comm comm, SemParams params, BalanceOptions balance,
                               const std::string& backend, std::string configuration,
                               const data::Checkpoint* restart)
    : comm_(comm), params_(std::move(params)), balance_(std::move(balance)),
      configuration_(std::move(configuration)) {
    MPI_Comm_rank(comm_, &rank_);
    MPI_Comm_size(comm_, &size_);
    balance_ = with_resolved_slabs(balance_, params_);
    const controller::Layout layout = layout_of(balance_, size_);
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
    mpi::agree(comm_, [&] {
        const data::Checkpoint& c = *restart;
        tissue_ = tissue_from_checkpoint(c, rank_);
        const auto& b = state_of(c.policy_state, "boundaries", static_cast<std::size_t>(size_) + 1);
        boundaries_.assign(b.begin(), b.end());
        policy_->reset(layout, boundaries_);
        policy_->restore_state(c.policy_state);
        interval_time_ =
            state_of(c.balancer_state, "interval_time", static_cast<std::size_t>(size_))[rank_];
        if (rank_ == 0) {
            growth_events_ = state_of(c.balancer_state, "growth_events", growth_events_.size());
            const auto& t = state_of(c.balancer_state, "totals", 12);
            totals_.model = {t[0], t[1], t[2]};
            totals_.measured = {t[3], t[4], t[5]};
            totals_.steps = static_cast<std::int64_t>(t[6]);
            totals_.ghosts = static_cast<std::int64_t>(t[7]);
            totals_.divisions = static_cast<std::int64_t>(t[8]);
            totals_.elements_added = static_cast<std::int64_t>(t[9]);
            totals_.differentiations = static_cast<std::int64_t>(t[10]);
            totals_.interactions = static_cast<std::int64_t>(t[11]);
            const auto& steps = c.balancer_state.count("history/step")
                                    ? c.balancer_state.at("history/step")
                                    : std::vector<double>{};
            const std::size_t E = steps.size();
            const std::size_t P = static_cast<std::size_t>(size_);
            const auto& rt = state_of(c.balancer_state, "history/rank_time", E * P);
            const auto& bd = state_of(c.balancer_state, "history/boundaries", E * (P + 1));
            const auto& el = state_of(c.balancer_state, "history/elements", E * P);
            const auto& sc = state_of(c.balancer_state, "history/scalars", E * 4);
            for (std::size_t e = 0; e < E; ++e) {
                BalanceEvent ev;
                ev.step = static_cast<std::int64_t>(steps[e]);
                ev.rank_time.assign(rt.begin() + static_cast<std::ptrdiff_t>(e * P),
                                    rt.begin() + static_cast<std::ptrdiff_t>((e + 1) * P));
                for (std::size_t k = 0; k <= P; ++k)
                    ev.boundaries.push_back(static_cast<std::int64_t>(bd[e * (P + 1) + k]));
                for (std::size_t k = 0; k < P; ++k)
                    ev.elements.push_back(static_cast<std::int64_t>(el[e * P + k]));
                ev.imbalance = sc[e * 4];
                ev.migrated_slices = static_cast<std::int64_t>(sc[e * 4 + 1]);
                ev.migrated_elements = static_cast<std::int64_t>(sc[e * 4 + 2]);
                ev.limited = static_cast<std::int64_t>(sc[e * 4 + 3]);
                events_.push_back(std::move(ev));
            }
        }
    });
}

const char* PhaseSeconds::name(int k) {
    static const char* const names[kCount] = {"ghost exchange",   "forces",    "integration",
                                              "wait (step sync)", "lifecycle", "migration",
                                              "decision"};
    return names[k];
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
    const double rc = params_.cutoff;
    const auto P = static_cast<std::size_t>(size_);
    // Where every rank's elements lie: the ghost windows, and the check that
    // neighbours are enough.
    const Extent mine = extent_of(tissue_.elements);
    const double mine2[2] = {mine.lo, mine.hi};
    std::vector<double> all(2 * P);
    MPI_Allgather(mine2, 2, MPI_DOUBLE, all.data(), 2, MPI_DOUBLE, comm_);
    std::vector<Extent> extents(P);
    for (std::size_t p = 0; p < P; ++p)
        extents[p] = {all[2 * p], all[2 * p + 1]};
    if (std::string problem = ghost_reach_problem(extents, rc); !problem.empty())
        throw CollectiveError("step " + std::to_string(tissue_.step) + ": " + problem);

    const auto t0 = clock_type::now();
    const Elements& e = tissue_.elements;
    std::vector<ElementRecord> to_left, to_right;
    for (std::size_t i = 0; i < e.size(); ++i) {
        if (rank_ > 0 && in_ghost_window(e.x[i], extents[static_cast<std::size_t>(rank_ - 1)], rc))
            append_element(to_left, e, i);
        if (rank_ + 1 < size_ &&
            in_ghost_window(e.x[i], extents[static_cast<std::size_t>(rank_) + 1], rc))
            append_element(to_right, e, i);
    }
    double busy = seconds_since(t0);
    std::vector<ElementRecord> from_left, from_right;
    mpi::exchange_with_neighbours(comm_, rank_, size_, to_left, to_right, from_left, from_right,
                                  kTagCount, kTagGhosts);

    const auto t1 = clock_type::now();
    std::vector<ElementRecord> ghosts = std::move(from_left);
    ghosts.insert(ghosts.end(), from_right.begin(), from_right.end());
    std::sort(ghosts.begin(), ghosts.end(),
              [](const ElementRecord& a, const ElementRecord& b) { return a.id < b.id; });
    merge_with_ghosts(tissue_.elements, ghosts, view_);
    const auto forces_start = clock_type::now();
    phases_.ghost_exchange += std::chrono::duration<double>(forces_start - step_start).count();
    backend_->set_active(&view_.active);
    const ForceStats stats = backend_->compute_forces(view_.elements, forces_);
    backend_->set_active(nullptr);
    const auto integration_start = clock_type::now();
    phases_.forces += std::chrono::duration<double>(integration_start - forces_start).count();
    // The same update, element by element, as CpuBackend::advance: bitwise the
    // one-rank trajectory.
    const EulerIntegrator integrator(params_);
    Elements& own = tissue_.elements;
    const std::int64_t step = tissue_.step;
    const auto n = static_cast<std::ptrdiff_t>(view_.elements.size());
#pragma omp parallel for schedule(static)
    for (std::ptrdiff_t k = 0; k < n; ++k) {
        if (view_.active[static_cast<std::size_t>(k)] == 0)
            continue;
        const std::size_t i = view_.own_index[static_cast<std::size_t>(k)];
        integrator.update(own.x[i], own.y[i], own.z[i], forces_.x[static_cast<std::size_t>(k)],
                          forces_.y[static_cast<std::size_t>(k)],
                          forces_.z[static_cast<std::size_t>(k)], own.id[i], step);
    }
    busy += seconds_since(t1);
    const auto sync_start = clock_type::now();
    phases_.integration += std::chrono::duration<double>(sync_start - integration_start).count();

    const double modelled =
        balance_.cost.step_seconds(stats.interactions, static_cast<std::int64_t>(own.size()),
                                   static_cast<std::int64_t>(ghosts.size()));
    interval_time_ += balance_.clock == "model" ? modelled : busy;
    if (recording_trace_ && balance_.clock == "model")
        add_step_cost_per_slab();
    interactions_since_report_ += stats.interactions;
    // Every rank's cost of this step under both clocks: the slowest sets the pace.
    constexpr std::size_t kFields = 4;
    const double local[kFields] = {modelled, busy, static_cast<double>(ghosts.size()),
                                   static_cast<double>(stats.interactions)};
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

void SlabSimulation::rebalance() {
    const auto P = static_cast<std::size_t>(size_);
    const auto S = static_cast<std::size_t>(balance_.slabs);
    const controller::PolicyStyle& style = controller::policy_style(balance_.policy);
    std::vector<double> rank_time(P);
    MPI_Gather(&interval_time_, 1, MPI_DOUBLE, rank_time.data(), 1, MPI_DOUBLE, 0, comm_);
    const auto owned = static_cast<std::int64_t>(tissue_.elements.size());
    std::vector<std::int64_t> elements(P);
    MPI_Gather(&owned, 1, MPI_INT64_T, elements.data(), 1, MPI_INT64_T, 0, comm_);
    std::vector<double> growth(S, 0.0);
    MPI_Reduce(growth_events_.data(), growth.data(), static_cast<int>(S), MPI_DOUBLE, MPI_SUM, 0,
               comm_);
    std::vector<double> workload;
    const bool trace_estimate = recording_trace_ && balance_.clock != "model";
    if (style.needs_slice_workload || policy_->reads_slice_workload() || trace_estimate) {
        // The interval's last step: each rank counts its own elements, with
        // its ghosts as partners.
        const std::vector<double> mine =
            interaction_estimate_per_slab(view_.elements, view_.active, params_, balance_.slabs);
        workload.assign(S, 0.0);
        MPI_Reduce(mine.data(), workload.data(), static_cast<int>(S), MPI_DOUBLE, MPI_SUM, 0,
                   comm_);
    }

    const double cycle = params_.cycle_time;
    const double phase = 6.283185307179586 * std::fmod(tissue_.time, cycle) / cycle;
    if (recording_trace_) {
        std::vector<double> row = workload;
        if (!trace_estimate) {
            row.assign(S, 0.0);
            MPI_Reduce(slab_cost_.data(), row.data(), static_cast<int>(S), MPI_DOUBLE, MPI_SUM, 0,
                       comm_);
            std::fill(slab_cost_.begin(), slab_cost_.end(), 0.0);
        }
        if (rank_ == 0) {
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
    const std::vector<std::int32_t> partners =
        partners_within_cutoff(view_.elements, view_.active, params_);
    const Elements& own = tissue_.elements;
    for (std::size_t k = 0; k < view_.elements.size(); ++k) {
        if (view_.active[k] == 0)
            continue;
        const std::size_t i = view_.own_index[k];
        const auto cell = static_cast<std::size_t>(tissue_.find_cell(own.cell[i]));
        const auto slab = static_cast<std::size_t>(cell_slab_[cell]);
        slab_cost_[slab] +=
            balance_.cost.per_pair * static_cast<double>(partners[k]) + balance_.cost.per_element;
    }
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
    t.cycle_phase = trace_phase_;
    t.initial_load = initial_load_;
    t.slice_width = params_.Lx / static_cast<double>(balance_.slabs);
    // Only what does not depend on the policy: traces of one tissue under
    // different policies are the same trace.
    std::ostringstream text;
    text << source << ": domain " << params_.Lx << " x " << params_.Ly << " x " << params_.Lz
         << ", " << balance_.slabs << " slabs, rebalance every " << balance_.rebalance_every
         << " steps, seed " << params_.seed << ", clock " << balance_.clock
         << (balance_.clock == "model" ? " (modelled seconds per slab and interval)"
                                       : " (per-slab interaction estimate, last step)");
    t.source = text.str();
    return t;
}

Tissue SlabSimulation::gather(std::vector<int>* owners) const {
    const std::vector<std::vector<char>> parts =
        mpi::gather_bytes(comm_, pack_all_cells(tissue_), 0);
    Tissue whole;
    whole.step = tissue_.step;
    whole.time = tissue_.time;
    whole.next_cell_id = tissue_.next_cell_id;
    if (rank_ != 0)
        return whole;
    std::map<std::int64_t, int> owner_of;
    for (std::size_t p = 0; p < parts.size(); ++p) {
        Tissue part;
        unpack_cells(part, parts[p].data(), parts[p].size());
        for (const Cell& c : part.cells)
            owner_of[c.id] = static_cast<int>(p);
        unpack_cells(whole, parts[p].data(), parts[p].size());
    }
    if (owners != nullptr) {
        owners->clear();
        for (const Cell& c : whole.cells)
            owners->push_back(owner_of.at(c.id));
    }
    return whole;
}

data::Checkpoint SlabSimulation::checkpoint() const {
    std::vector<int> owners;
    const Tissue whole = gather(&owners);
    const auto P = static_cast<std::size_t>(size_);
    std::vector<double> interval(P);
    MPI_Gather(&interval_time_, 1, MPI_DOUBLE, interval.data(), 1, MPI_DOUBLE, 0, comm_);
    std::vector<double> growth(growth_events_.size(), 0.0);
    MPI_Reduce(growth_events_.data(), growth.data(), static_cast<int>(growth.size()), MPI_DOUBLE,
               MPI_SUM, 0, comm_);
    data::Checkpoint c;
    if (rank_ != 0)
        return c;
    c.step = whole.step;
    c.time = whole.time;
    c.next_cell_id = whole.next_cell_id;
    const Elements& e = whole.elements;
    c.positions = data::Matrix(e.size(), 3);
    for (std::size_t i = 0; i < e.size(); ++i) {
        c.positions(i, 0) = e.x[i];
        c.positions(i, 1) = e.y[i];
        c.positions(i, 2) = e.z[i];
        c.element_adhesive.push_back(e.adhesive[i]);
    }
    c.element_id = e.id;
    c.element_cell = e.cell;
    for (std::size_t k = 0; k < whole.cells.size(); ++k) {
        const Cell& cell = whole.cells[k];
        c.cell_id.push_back(cell.id);
        c.cell_type.push_back(static_cast<std::int64_t>(cell.type));
        c.cell_generation.push_back(cell.generation);
        c.cell_next_serial.push_back(cell.next_serial);
        c.cell_elements.push_back(cell.elements);
        c.cell_owner.push_back(owners[k]);
        c.cell_age.push_back(cell.age);
        c.cell_cycle_time.push_back(cell.cycle_time);
        c.cell_growth_credit.push_back(cell.growth_credit);
    }
    c.ranks = size_;
    c.slices = balance_.slabs;
    c.policy = balance_.policy;
    c.configuration = configuration_;
    c.policy_state = policy_->save_state();
    auto& b = c.balancer_state;
    b["interval_time"] = interval;
    b["growth_events"] = growth;
    const BalanceTotals& t = totals_;
    b["totals"] = {t.model.runtime,
                   t.model.mean,
                   t.model.migration,
                   t.measured.runtime,
                   t.measured.mean,
                   t.measured.migration,
                   static_cast<double>(t.steps),
                   static_cast<double>(t.ghosts),
                   static_cast<double>(t.divisions),
                   static_cast<double>(t.elements_added),
                   static_cast<double>(t.differentiations),
                   static_cast<double>(t.interactions)};
    auto& steps = b["history/step"];
    auto& rt = b["history/rank_time"];
    auto& bd = b["history/boundaries"];
    auto& el = b["history/elements"];
    auto& sc = b["history/scalars"];
    for (const BalanceEvent& ev : events_) {
        steps.push_back(static_cast<double>(ev.step));
        rt.insert(rt.end(), ev.rank_time.begin(), ev.rank_time.end());
        bd.insert(bd.end(), ev.boundaries.begin(), ev.boundaries.end());
        el.insert(el.end(), ev.elements.begin(), ev.elements.end());
        sc.insert(sc.end(),
                  {ev.imbalance, static_cast<double>(ev.migrated_slices),
                   static_cast<double>(ev.migrated_elements), static_cast<double>(ev.limited)});
    }
    return c;
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
    r.clock = balance_.clock;
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
