#include "cpu_backend.hpp"

#include "cellshift/sim/integrate_owned.hpp"

namespace cellshift::sim {

ForceStats CpuBackend::advance(Elements& e, std::int64_t first_step, int steps) {
    ForceStats stats;
    for (int k = 0; k < steps; ++k) {
        stats += compute_forces(e, forces_);
        integrate_owned(integrator_, e, forces_, first_step + k, e.size());
    }
    return stats;
}

ForceStats CpuAllPairsBackend::compute_forces(const Elements& e, ForceField& f) {
    const std::size_t n = e.size();
    f.assign_zero(n);
    ForceStats stats;
    for (std::size_t i = 0; i < n; ++i) {
        if (!is_active(i))
            continue;
        double fx = 0.0, fy = 0.0, fz = 0.0;
        for (std::size_t j = 0; j < n; ++j) {
            if (j == i)
                continue;
            if (pair_.accumulate(e.x[i], e.y[i], e.z[i], e.cell[i], e.x[j], e.y[j], e.z[j],
                                 e.cell[j], fx, fy, fz)) {
                ++stats.interactions;
            }
        }
        stats.candidates += static_cast<std::int64_t>(n) - 1;
        store_total_force(e, i, e.x[i], e.y[i], e.z[i], fx, fy, fz, f);
    }
    return stats;
}

double total_energy(const Elements& e, const SemParams& params) {
    const SemPairEvaluator pair(params);
    const ExternalEvaluator external(params);
    double energy = 0.0;
    for (std::size_t i = 0; i < e.size(); ++i) {
        for (std::size_t j = i + 1; j < e.size(); ++j) {
            const double dx = e.x[i] - e.x[j];
            const double dy = e.y[i] - e.y[j];
            const double dz = e.z[i] - e.z[j];
            double f_over_r = 0.0, v = 0.0;
            if (pair.evaluate(dx * dx + dy * dy + dz * dz, e.cell[i] == e.cell[j], f_over_r, v)) {
                energy += v;
            }
        }
        double fx = 0.0, fy = 0.0, fz = 0.0;
        external.evaluate(e.x[i], e.y[i], e.z[i], e.adhesive[i] != 0, fx, fy, fz, energy);
    }
    return energy;
}

} // namespace cellshift::sim
