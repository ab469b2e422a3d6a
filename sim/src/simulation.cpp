#include "cellshift/sim/simulation.hpp"

#include <algorithm>
#include <chrono>

namespace cellshift::sim {

TissueCensus census(const Tissue& t) {
    TissueCensus c;
    c.elements = static_cast<std::int64_t>(t.elements.size());
    for (const Cell& cell : t.cells)
        ++c.cells[static_cast<std::size_t>(cell.type)];
    if (!t.elements.x.empty()) {
        const auto [lo, hi] = std::minmax_element(t.elements.x.begin(), t.elements.x.end());
        c.x_min = *lo;
        c.x_max = *hi;
        c.z_max = *std::max_element(t.elements.z.begin(), t.elements.z.end());
    }
    return c;
}

Simulation::Simulation(const SemParams& params, std::unique_ptr<ForceBackend> backend)
    : Simulation(params, make_basal_patch(params), std::move(backend)) {}

Simulation::Simulation(SemParams params, Tissue tissue, std::unique_ptr<ForceBackend> backend)
    : params_(std::move(params)), tissue_(std::move(tissue)), backend_(std::move(backend)) {
    validate(params_);
}

RunStats Simulation::run(std::int64_t steps) {
    using clock = std::chrono::steady_clock;
    RunStats stats;
    const std::int64_t K = params_.lifecycle_every;
    std::int64_t left = steps;
    while (left > 0) {
        // Up to the next lifecycle boundary.
        const std::int64_t to_boundary = K - tissue_.step % K;
        const auto chunk = static_cast<int>(std::min(left, to_boundary));
        const auto t0 = clock::now();
        stats.forces += backend_->advance(tissue_.elements, tissue_.step, chunk);
        const auto t1 = clock::now();
        tissue_.step += chunk;
        tissue_.time = static_cast<double>(tissue_.step) * params_.dt;
        left -= chunk;
        stats.steps += chunk;
        stats.force_seconds += std::chrono::duration<double>(t1 - t0).count();
        if (tissue_.step % K == 0) {
            stats.lifecycle +=
                update_lifecycle(tissue_, params_, static_cast<double>(K) * params_.dt);
            stats.lifecycle_seconds += std::chrono::duration<double>(clock::now() - t1).count();
        }
    }
    return stats;
}

} // namespace cellshift::sim
