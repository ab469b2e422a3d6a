#pragma once
// One rank's SEM simulation: the tissue, a force backend and the lifecycle,
// advanced in chunks between lifecycle updates (so a GPU backend copies the
// system once per chunk, not once per step).

#include "cellshift/sim/force_backend.hpp"
#include "cellshift/sim/lifecycle.hpp"
#include "cellshift/sim/sem_params.hpp"
#include "cellshift/sim/tissue.hpp"

#include <array>
#include <cstdint>
#include <memory>

namespace cellshift::sim {

struct RunStats {
    std::int64_t steps = 0;
    ForceStats forces;
    LifecycleEvents lifecycle;
    double force_seconds = 0.0;     // wall time inside the backend
    double lifecycle_seconds = 0.0; // wall time in growth, division, differentiation
};

struct TissueCensus {
    std::int64_t elements = 0;
    std::array<std::int64_t, 3> cells{}; // by CellType
    double x_min = 0.0, x_max = 0.0;     // extent of the tissue along x
    double z_max = 0.0;                  // its height
    std::int64_t total_cells() const { return cells[0] + cells[1] + cells[2]; }
};

TissueCensus census(const Tissue& tissue);

class Simulation {
public:
    Simulation(const SemParams& params, std::unique_ptr<ForceBackend> backend);
    Simulation(SemParams params, Tissue tissue, std::unique_ptr<ForceBackend> backend);

    // Advances `steps` steps; the lifecycle runs after every step number divisible
    // by lifecycle_every.
    RunStats run(std::int64_t steps);

    const Tissue& tissue() const { return tissue_; }
    const SemParams& params() const { return params_; }
    ForceBackend& backend() { return *backend_; }

private:
    SemParams params_;
    Tissue tissue_;
    std::unique_ptr<ForceBackend> backend_;
};

} // namespace cellshift::sim
