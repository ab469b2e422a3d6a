#include "cellshift/eval/metrics.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace cellshift::eval {

double global_imbalance(const std::vector<double>& t) {
    double mean = std::accumulate(t.begin(), t.end(), 0.0) / static_cast<double>(t.size());
    return mean > 0.0 ? *std::max_element(t.begin(), t.end()) / mean - 1.0 : 0.0;
}

double normalised_spread(const std::vector<double>& t) {
    double mean = std::accumulate(t.begin(), t.end(), 0.0) / static_cast<double>(t.size());
    if (!(mean > 0.0)) {
        return 0.0;
    }
    double ss = 0.0;
    for (double x : t) {
        ss += (x - mean) * (x - mean);
    }
    return std::sqrt(ss / static_cast<double>(t.size())) / mean;
}

void validate(const MigrationCost& cost) {
    if (!(std::isfinite(cost.mu) && cost.mu >= 0.0)) {
        throw std::invalid_argument("--migration-cost must be finite and >= 0");
    }
    if (!(std::isfinite(cost.kappa) && cost.kappa >= 0.0)) {
        throw std::invalid_argument("--rebalance-cost must be finite and >= 0");
    }
}

} // namespace cellshift::eval
