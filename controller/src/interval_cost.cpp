#include "cellshift/controller/interval_cost.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace cellshift::controller {

std::vector<double> migration_traffic(const std::vector<double>& slice_cost,
                                      const Boundaries& before, const Boundaries& after) {
    if (before.size() != after.size() || before.empty() ||
        static_cast<std::size_t>(after.back()) != slice_cost.size()) {
        throw std::invalid_argument("migration_traffic: boundaries and slice costs do not fit");
    }
    std::vector<double> traffic(after.size() - 1, 0.0);
    // Walk both partitions together: slice s belongs to rank `from` before and
    // rank `to` after.
    std::size_t from = 0;
    std::size_t to = 0;
    for (std::size_t s = 0; s < slice_cost.size(); ++s) {
        const auto x = static_cast<std::int64_t>(s);
        while (before[from + 1] <= x) {
            ++from;
        }
        while (after[to + 1] <= x) {
            ++to;
        }
        if (from != to) {
            traffic[from] += slice_cost[s];
            traffic[to] += slice_cost[s];
        }
    }
    return traffic;
}

double interval_runtime(const std::vector<double>& slice_cost, const Boundaries& before,
                        const Boundaries& after, const MigrationCost& cost) {
    const std::vector<double> compute = rank_sums(slice_cost, after);
    if (before == after) {
        return *std::max_element(compute.begin(), compute.end());
    }
    const std::vector<double> traffic = migration_traffic(slice_cost, before, after);
    const double mean =
        std::accumulate(compute.begin(), compute.end(), 0.0) / static_cast<double>(compute.size());
    double slowest = 0.0;
    for (std::size_t p = 0; p < compute.size(); ++p) {
        slowest = std::max(slowest, compute[p] + cost.mu * traffic[p]);
    }
    return slowest + cost.kappa * mean;
}

} // namespace cellshift::controller
