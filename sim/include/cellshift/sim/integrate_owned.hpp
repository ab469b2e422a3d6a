#pragma once
// The Euler step of a rank's own elements, written once: a single-rank backend
// (CpuBackend::advance) and a slab rank (SlabSimulation) both run this loop, so a
// slab run's trajectory is bitwise the one-rank trajectory.

#include "cellshift/sim/force_backend.hpp"
#include "cellshift/sim/sem_physics.hpp"
#include "cellshift/sim/tissue.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace cellshift::sim {

// Row k of `forces` moves element own_index[k] of `own` if active[k] is set.
struct RowMap {
    const std::vector<std::uint8_t>* active = nullptr;   // null: every row is owned
    const std::vector<std::size_t>* own_index = nullptr; // null: row k is element k
};

inline void integrate_owned(const EulerIntegrator& integrator, Elements& own,
                            const ForceField& forces, std::int64_t step, std::size_t rows,
                            RowMap map = {}) {
    const auto n = static_cast<std::ptrdiff_t>(rows);
#pragma omp parallel for schedule(static)
    for (std::ptrdiff_t r = 0; r < n; ++r) {
        const auto k = static_cast<std::size_t>(r);
        if (map.active != nullptr && (*map.active)[k] == 0)
            continue;
        const std::size_t i = map.own_index != nullptr ? (*map.own_index)[k] : k;
        integrator.update(own.x[i], own.y[i], own.z[i], forces.x[k], forces.y[k], forces.z[k],
                          own.id[i], step);
    }
}

} // namespace cellshift::sim
