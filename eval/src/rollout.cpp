#include "cellshift/eval/rollout.hpp"

#include "cellshift/controller/partition.hpp"
#include "cellshift/eval/metrics.hpp"

#include <stdexcept>

namespace cellshift::eval {
namespace {

std::vector<double> row_of(const data::Matrix& m, std::int64_t t) {
    const double* r = m.row(static_cast<std::size_t>(t));
    return {r, r + m.cols};
}

} // namespace

Rollout run_rollout(controller::Policy& policy, const std::string& policy_name,
                    const controller::Layout& layout, const WorkloadHistory& h, bool keep_record,
                    const MigrationCost& cost) {
    validate(cost);
    const data::Matrix& w = *h.workload;
    if (static_cast<std::int64_t>(w.cols) != layout.slices) {
        throw std::invalid_argument("workload has " + std::to_string(w.cols) +
                                    " slices, layout says S = " + std::to_string(layout.slices));
    }
    if (h.estimate != nullptr && (h.estimate->rows != w.rows || h.estimate->cols != w.cols)) {
        throw std::invalid_argument("the per-slice estimate's shape differs from the workload's");
    }
    if (w.rows < 2) {
        throw std::invalid_argument("a rollout needs at least 2 workload rows (got " +
                                    std::to_string(w.rows) + ")");
    }
    const std::int64_t events = static_cast<std::int64_t>(w.rows) - 1;
    const std::size_t ranks = static_cast<std::size_t>(layout.ranks);

    controller::Boundaries b = controller::split_equal_load(
        h.initial_load != nullptr ? *h.initial_load : row_of(w, 0), layout);
    const controller::Boundaries initial = b;
    policy.reset(layout, b);

    Rollout out;
    RolloutSummary& s = out.summary;
    s.events = events;
    data::RunRecord rec;
    if (keep_record) {
        rec.rank_time = data::Matrix(static_cast<std::size_t>(events), ranks);
        rec.boundaries = data::IntMatrix(static_cast<std::size_t>(events), ranks + 1);
    }
    for (std::int64_t t = 1; t <= events; ++t) {
        // What the policy observes: the interval that just ended, t-1.
        std::vector<double> seen = row_of(w, t - 1);
        controller::Observation o;
        o.rank_times = controller::rank_sums(seen, b);
        if (h.estimate != nullptr) {
            seen = row_of(*h.estimate, t - 1);
        }
        if (h.jitter) {
            for (std::size_t p = 0; p < ranks; ++p) {
                o.rank_times[p] *= h.jitter(t - 1, static_cast<std::int64_t>(p), 0);
            }
            for (std::size_t k = 0; k < seen.size(); ++k) {
                seen[k] *= h.jitter(t - 1, static_cast<std::int64_t>(k), 1);
            }
        }
        o.slice_workload = std::move(seen);
        if (h.cycle_phase != nullptr) {
            o.cycle_phase = (*h.cycle_phase)[static_cast<std::size_t>(t - 1)];
        }
        if (h.growth_events != nullptr) {
            o.growth_events = row_of(*h.growth_events, t - 1);
        }
        std::vector<double> truth = row_of(w, t);
        o.next_workload = truth;           // read by the clairvoyant oracle only
        o.migration_cost = cost.mu;        // the host's costs, which the runtime charges and
        o.rebalance_cost = cost.kappa;     // a cost-aware controller reads
        o.intervals_left = events - t + 1; // the run's length is known, not its workload

        controller::Boundaries before = b;
        b = policy.decide(o);
        const std::int64_t moved = controller::migrated_slices(before, b);
        s.migrated += moved;
        s.limited += policy.last_limited() > 0 ? 1 : 0;

        s.runtime += interval_runtime(truth, before, b, cost);
        s.static_runtime += interval_runtime(truth, initial, initial, cost);
        std::vector<double> times = controller::rank_sums(truth, b); // noise-free objective
        const double g = global_imbalance(times);
        s.mean_imbalance += g;
        s.mean_spread += normalised_spread(times);
        if (keep_record) {
            const auto row = static_cast<std::size_t>(t - 1);
            std::copy(times.begin(), times.end(), rec.rank_time.row(row));
            std::copy(b.begin(), b.end(), rec.boundaries.row(row));
            rec.migrated_slices.push_back(moved);
            rec.imbalance.push_back(g);
        }
    }
    s.mean_imbalance /= static_cast<double>(events);
    s.mean_spread /= static_cast<double>(events);
    if (keep_record) {
        rec.clock = "workload";
        rec.policy = policy_name;
        rec.slices = layout.slices;
        rec.w_min = layout.w_min;
        rec.source = h.source;
        rec.configuration = "controller-level rollout: P = " + std::to_string(layout.ranks) +
                            ", S = " + std::to_string(layout.slices) +
                            ", w_min = " + std::to_string(layout.w_min) +
                            ", events = " + std::to_string(events);
        out.record = std::move(rec);
    }
    return out;
}

} // namespace cellshift::eval
