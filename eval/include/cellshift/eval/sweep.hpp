#pragma once
// A grid sweep of one policy's parameters on the same scenarios: the whole
// imbalance-vs-migration curve of a baseline, and the point that minimises the
// modelled runtime relative to static (or the training objective): how the
// baselines' defaults are chosen, on training seeds.

#include "cellshift/eval/comparison.hpp"

#include <map>
#include <string>
#include <vector>

namespace cellshift::eval {

struct SweepAxis {
    std::string name;
    std::vector<double> values;
};

struct SweepPoint {
    std::map<std::string, double> parameters;
    std::string label;               // policy[name=value,...]
    std::vector<ComparisonRow> rows; // one per rank count
    double runtime_vs_static = 0.0;  // mean over rank counts
    double imbalance_pct = 0.0;      // mean over rank counts
    double migrated_slices = 0.0;    // mean over rank counts
    double objective = 0.0;          // mean over rank counts
};

// Every combination of the axes' values (row-major: the last axis varies fastest).
std::vector<SweepPoint> sweep_policy(const std::string& policy, const std::vector<SweepAxis>& grid,
                                     const controller::PolicySettings& base,
                                     const ScenarioComparison& options);

// The same sweep on each family in turn: each point's averages are the mean over
// families (rows keep every family's rows, in family order).
std::vector<SweepPoint> sweep_over_families(const std::string& policy,
                                            const std::vector<SweepAxis>& grid,
                                            const controller::PolicySettings& base,
                                            const ScenarioComparison& options,
                                            const std::vector<std::string>& families);

// What a sweep minimises: the runtime relative to static (the yardstick) or the
// training objective of docs/design.md section 4 (imbalance + spread + lambda x migration).
enum class SweepCriterion { Runtime, Objective };

// Index of the point with the smallest criterion (first of equals).
std::size_t best_point(const std::vector<SweepPoint>& points,
                       SweepCriterion criterion = SweepCriterion::Runtime);

std::string format_sweep(const std::vector<SweepPoint>& points, const std::string& caption,
                         SweepCriterion criterion = SweepCriterion::Runtime);
std::string sweep_to_csv(const std::vector<SweepPoint>& points);

} // namespace cellshift::eval
