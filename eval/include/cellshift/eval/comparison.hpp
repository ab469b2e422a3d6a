#pragma once
// Every policy on the same workloads: held-out scenarios (many seeds, several
// rank counts) or one user trace. Results are aggregated in scenario order, so
// they do not depend on the thread count.

#include "cellshift/controller/registry.hpp"
#include "cellshift/data/run_record.hpp"
#include "cellshift/data/trace.hpp"
#include "cellshift/eval/metrics.hpp"
#include "cellshift/eval/rollout.hpp"
#include "cellshift/scenarios/scenario.hpp"
#include "cellshift/scenarios/seeds.hpp"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace cellshift::eval {

struct PolicySpec {
    std::string label; // the row name in tables (the registry name unless swept)
    std::string name;  // registry name
    controller::PolicySettings settings;
};

// One row of the paper-style table: one policy at one rank count.
struct ComparisonRow {
    std::int64_t ranks = 0;
    std::string policy;
    // The yardstick (docs/design.md 8.1): modelled runtime of the rollout, migration
    // included, mean over scenarios (workload units), and its ratio to static's
    // runtime on the same scenario, mean over scenarios.
    double runtime = 0.0;
    double runtime_vs_static = 1.0;
    double imbalance_pct = 0.0;   // time-averaged global imbalance, mean over scenarios, in %
    double spread = 0.0;          // time-averaged normalised spread, mean over scenarios
    double migrated_slices = 0.0; // total over the rollout, mean over scenarios
    double limited_events = 0.0;  // decisions shortened by w_min, mean over scenarios
    // The training objective, mean over scenarios of
    //   mean_t (G_t + spread_t + lambda * migrated_t)
    // i.e. the loss the residual GRU is trained on, with lambda per moved slice.
    double objective = 0.0;
    std::int64_t scenarios = 0;
    std::int64_t events = 0;
};

struct ScenarioComparison {
    std::vector<std::int64_t> ranks{2, 4, 8, 16, 32};
    std::int64_t events = 100;
    std::int64_t count = 20;                                  // scenarios per rank count
    std::uint64_t seed_base = scenarios::kEvaluationSeedBase; // which seed range
    std::uint64_t first_index = 0; // scenario i uses seed seed_base + first_index + i
    double lambda = 5e-4;          // migration weight of the objective column
    MigrationCost cost;            // what migration costs in the runtime column
    int threads = 1;
    scenarios::ScenarioConfig base; // ranks and events are overwritten per run
    bool keep_records = false;      // keep the run records of scenario 0
    // Called after each finished scenario: (ranks, done, total), from any thread
    // but never concurrently.
    std::function<void(std::int64_t, std::int64_t, std::int64_t)> progress;
};

struct ComparisonResult {
    std::vector<ComparisonRow> rows;
    std::vector<data::RunRecord> records; // scenario 0 of each (ranks, policy), when kept
};

// A generated scenario (or trace window) as the hard loop's input: its workload,
// growth events, cycle phase and its own measurement jitter. `scenario` must
// outlive the history.
WorkloadHistory scenario_history(const scenarios::Scenario& scenario);

ComparisonResult compare_on_scenarios(const std::vector<PolicySpec>& policies,
                                      const ScenarioComparison& options);

// What the policies observe per slice of a trace that stores an estimate beside its
// cost (a simulator trace: the live run's per-slab estimate).
enum class TraceObservation {
    estimate, // the stored estimate, as the live run's policy saw it (without one: the cost)
    cost,     // the cost of the interval that just ended, as a per-slice timer would
              // measure it: how much a host gains by timing its slices instead of
              // estimating them
};

// The per-slice table the policies observe on `trace`: its stored estimate when it has
// one and `observe` asks for it, otherwise nullptr (they see the workload itself).
// compare_on_trace and the trace command's caption both read it, so they cannot disagree.
const data::Matrix* observed_estimate(const data::Trace& trace, TraceObservation observe);

// The same table on a user trace: the initial partition is the equal-load split
// of the trace's first event; observations are noise-free unless jitter > 0.
ComparisonResult compare_on_trace(const std::vector<PolicySpec>& policies, const data::Trace& trace,
                                  const std::vector<std::int64_t>& ranks, std::int64_t w_min,
                                  double jitter, bool keep_records, const std::string& source,
                                  double lambda = 5e-4, const MigrationCost& cost = {},
                                  TraceObservation observe = TraceObservation::estimate);

} // namespace cellshift::eval
