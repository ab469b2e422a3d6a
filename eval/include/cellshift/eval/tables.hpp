#pragma once
// The comparison table in the forms people read (terminal, Markdown) and the
// forms programs read (CSV, JSON).

#include "cellshift/eval/comparison.hpp"

#include <string>
#include <vector>

namespace cellshift::eval {

// One block per rank count, aligned columns; `caption` is printed above each block.
std::string format_table(const std::vector<ComparisonRow>& rows, const std::string& caption);
std::string to_markdown(const std::vector<ComparisonRow>& rows, const std::string& caption);
std::string to_csv(const std::vector<ComparisonRow>& rows);
// An array of objects with the keys ranks, policy, runtime_vs_static, runtime, imbalance_pct,
// spread, migrated_slices, limited_events, objective, scenarios, events.
std::string to_json(const std::vector<ComparisonRow>& rows);

} // namespace cellshift::eval
