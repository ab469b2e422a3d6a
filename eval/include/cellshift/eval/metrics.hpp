#pragma once
// The per-event metrics of DESIGN section 3.

#include <vector>

namespace cellshift::eval {

// Global imbalance G = max_p T_p / mean_p T_p - 1 (0 when every rank is idle).
double global_imbalance(const std::vector<double>& rank_times);
// Normalised spread std_p T_p / mean_p T_p (population std; 0 when idle).
double normalised_spread(const std::vector<double>& rank_times);

} // namespace cellshift::eval
