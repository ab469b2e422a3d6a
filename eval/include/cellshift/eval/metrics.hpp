#pragma once
// The per-event metrics of docs/design.md section 3, and the modelled runtime of
// section 8.1 (docs/design.md: "Modelled runtime").

#include "cellshift/controller/interval_cost.hpp"

#include <vector>

namespace cellshift::eval {

// Global imbalance G = max_p T_p / mean_p T_p - 1 (0 when every rank is idle).
double global_imbalance(const std::vector<double>& rank_times);
// Normalised spread std_p T_p / mean_p T_p (population std; 0 when idle).
double normalised_spread(const std::vector<double>& rank_times);

// The runtime model lives beside the controller, whose cost gate predicts it.
using controller::interval_runtime;
using controller::migration_traffic;
using controller::MigrationCost;

// Throws std::invalid_argument unless mu and kappa are finite and >= 0.
void validate(const MigrationCost& cost);

} // namespace cellshift::eval
