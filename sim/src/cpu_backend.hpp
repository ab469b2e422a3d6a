#pragma once
// The CPU backends share their time stepping: forces, then the Euler update of
// every element (OpenMP). They differ only in how they find partners.

#include "cellshift/sim/force_backend.hpp"
#include "cellshift/sim/sem_physics.hpp"

namespace cellshift::sim {

class CpuBackend : public ForceBackend {
public:
    explicit CpuBackend(const SemParams& params)
        : pair_(params), external_(params), integrator_(params) {}
    ForceStats advance(Elements& elements, std::int64_t first_step, int steps) override;

protected:
    // The per-element tail every CPU kernel shares: the external force on element i
    // (at x, y, z) added to its pair sum (fx, fy, fz), the total stored in f.
    void store_total_force(const Elements& e, std::size_t i, double x, double y, double z,
                           double fx, double fy, double fz, ForceField& f) const {
        double energy = 0.0;
        external_.evaluate(x, y, z, e.adhesive[i] != 0, fx, fy, fz, energy);
        f.x[i] = fx;
        f.y[i] = fy;
        f.z[i] = fz;
    }

    SemPairEvaluator pair_;
    ExternalEvaluator external_;
    EulerIntegrator integrator_;
    ForceField forces_;
};

// Serial O(n^2) reference: every element gathers from every other, in id order.
class CpuAllPairsBackend final : public CpuBackend {
public:
    using CpuBackend::CpuBackend;
    std::string name() const override { return "cpu-allpairs"; }
    ForceStats compute_forces(const Elements& elements, ForceField& forces) override;
};

} // namespace cellshift::sim
