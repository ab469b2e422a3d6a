#pragma once
// How little imbalance any policy can have when it may migrate at most B slices:
// a lower bound that holds for every policy, clairvoyant ones included.
//
// Why it holds: a policy that migrates M = sum_t |b_t - b_{t-1}|_1 slices keeps
// every boundary vector within L1 distance M of the initial partition b_0
// (triangle inequality). So in interval t its global imbalance is at least
//     g_t(M) = min { G_t(b) : b feasible, |b - b_0|_1 <= M },
// and its time-averaged imbalance at least f(M) = mean_t g_t(M). g_t is found by
// bisection on the bottleneck load, each step an exact dynamic programme for the
// least displacement that keeps every part under the candidate load; the
// bisection returns the lower end of its bracket, so rounding never raises the
// bound. Over many scenarios with a budget on the *mean* migration, the curves
// are pooled by Lagrangian duality (pooled_bound), again a valid lower bound.

#include "cellshift/controller/layout.hpp"
#include "cellshift/data/array2d.hpp"
#include "cellshift/eval/comparison.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace cellshift::eval {

// Least total displacement sum_k |b_k - anchor_k| over partitions into
// layout.ranks contiguous parts of >= w_min slices whose every part load (a
// difference of `prefix`, the S+1 prefix sums of the load) is <= cap; -1 when
// no such partition lies within displacement `limit`. O(P * limit).
std::int64_t min_displacement(const std::vector<double>& prefix, const controller::Layout& layout,
                              const controller::Boundaries& anchor, double cap, std::int64_t limit);

// g(B) for every budget B (ascending, >= 0): the least global imbalance
// max/mean - 1 of `load` over partitions within displacement B of `anchor`, to
// within `tolerance` (in units of imbalance) and never above the true value.
std::vector<double> least_imbalance(const std::vector<double>& load,
                                    const controller::Layout& layout,
                                    const controller::Boundaries& anchor,
                                    const std::vector<std::int64_t>& budgets, double tolerance);

// f(B) = mean over the intervals t = 1..E of g_t(B), anchored at the equal-load
// split of row 0 (the initial partition every policy starts from, rollout.hpp).
std::vector<double> migration_bound_curve(const data::Matrix& workload,
                                          const controller::Layout& layout,
                                          const std::vector<std::int64_t>& budgets,
                                          double tolerance);

// Lower bound on the mean over scenarios of the time-averaged imbalance of any
// policy whose mean migration over the scenarios is <= mean_budget. curves[i][j]
// is scenario i's f at budgets[j]; the last budget should be large enough for
// the unconstrained optimum (any larger migration is charged budgets.back()'s
// value). A migration M between two budgets is credited with the larger one's f.
double pooled_bound(const std::vector<std::vector<double>>& curves,
                    const std::vector<std::int64_t>& budgets, double mean_budget);

// One row of `cellshift-eval bound`: at one rank count, the reference policy's
// own figures and the least mean imbalance any policy can reach with a mean
// migration of at most `fraction` x the reference's.
struct BoundRow {
    std::int64_t ranks = 0;
    std::string reference;
    double reference_imbalance_pct = 0.0;
    double reference_migrated = 0.0;
    double fraction = 0.0;
    double budget = 0.0;              // fraction x reference_migrated, slices per rollout
    double least_imbalance_pct = 0.0; // the lower bound, %
    double floor_imbalance_pct = 0.0; // unlimited migration (the oracle's floor), %
    std::int64_t scenarios = 0;
};

// The reference policy and the bound curves on the same held-out scenarios as
// compare_on_scenarios (options.seed_base, first_index, count, events, ranks).
std::vector<BoundRow> bound_on_scenarios(const PolicySpec& reference,
                                         const std::vector<double>& fractions,
                                         const ScenarioComparison& options, double tolerance);

// The rows as a Markdown table (one line per rank count and fraction) and as CSV.
std::string bound_to_markdown(const std::vector<BoundRow>& rows);
std::string bound_to_csv(const std::vector<BoundRow>& rows);

} // namespace cellshift::eval
