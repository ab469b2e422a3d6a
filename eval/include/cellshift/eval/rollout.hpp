#pragma once
// One policy over one workload history: the hard loop of docs/design.md section 3.
//
// Row 0 of the workload (or `initial_load` when given) sets the workload-aware
// initial partition (equal-load split) and is the first interval the policy observes. At event t
// = 1..E the policy sees interval t-1 (jittered rank times, jittered per-slice estimates, growth
// events, cycle phase; the oracle also sees row t) and sets the boundaries that govern interval t,
// whose imbalance is computed from the noise-free row t. Migration is summed over the E decisions.
// The modelled runtime (metrics.hpp) charges the slices moved at event t at their cost in interval
// t, and static's runtime (the initial partition kept) is measured on the same rows, so every
// rollout carries its own reference.

#include "cellshift/controller/policy.hpp"
#include "cellshift/data/array2d.hpp"
#include "cellshift/data/run_record.hpp"
#include "cellshift/eval/metrics.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace cellshift::eval {

struct WorkloadHistory {
    const data::Matrix* workload = nullptr;            // [E+1, S], required
    const data::Matrix* growth_events = nullptr;       // [E+1, S] or null
    const std::vector<double>* cycle_phase = nullptr;  // [E+1] or null
    const std::vector<double>* initial_load = nullptr; // [S]: sets the initial partition
                                                       // instead of row 0, or null
    // [E+1, S] or null: what the policy observes per slice instead of the workload
    // (a simulator trace's live estimate); the runtime is charged with the workload.
    const data::Matrix* estimate = nullptr;
    // Multiplicative noise on observation `index` (rank, or slice for the
    // per-slice estimates: stream 1) at `event`; null for noise-free observations.
    std::function<double(std::int64_t event, std::int64_t index, std::uint64_t stream)> jitter;
    std::string source; // for run records
};

struct RolloutSummary {
    double mean_imbalance = 0.0; // time average of G over the E governed intervals
    double mean_spread = 0.0;
    std::int64_t migrated = 0; // total over the E decisions
    std::int64_t limited = 0;  // decisions in which w_min shortened a move
    std::int64_t events = 0;
    double runtime = 0.0;        // sum of the modelled interval durations (workload units)
    double static_runtime = 0.0; // the same with the initial partition kept (static)
    // runtime / static_runtime (1 when static's runtime is 0).
    double runtime_vs_static() const {
        return static_runtime > 0.0 ? runtime / static_runtime : 1.0;
    }
};

struct Rollout {
    RolloutSummary summary;
    std::optional<data::RunRecord> record; // when asked for
};

// `w_min` and P come from `layout`; S must match the workload's columns.
Rollout run_rollout(controller::Policy& policy, const std::string& policy_name,
                    const controller::Layout& layout, const WorkloadHistory& history,
                    bool keep_record, const MigrationCost& cost = {});

} // namespace cellshift::eval
