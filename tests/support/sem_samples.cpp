#include "sem_samples.hpp"

#include "cellshift/sim/force_backend.hpp"
#include "cellshift/sim/simulation.hpp"

#include <algorithm>
#include <cmath>
#include <random>

namespace cellshift::test {

sim::SemParams small_domain_params() {
    sim::SemParams p;
    p.Lx = 24.0;
    p.Ly = 8.0;
    p.Lz = 10.0;
    p.cycle_time = 4.0; // fast growth: divisions within a few hundred steps
    p.patch_fraction = 0.4;
    return p;
}

sim::Elements random_elements(const sim::SemParams& p, std::size_t n, int cells, std::uint64_t seed,
                              double margin) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> ux(margin, p.Lx - margin), uy(margin, p.Ly - margin),
        uz(margin, p.Lz - margin);
    std::uniform_int_distribution<int> uc(0, cells - 1);
    sim::Elements e;
    for (std::size_t i = 0; i < n; ++i) {
        const int c = uc(rng);
        const double x = ux(rng), y = uy(rng), z = uz(rng);
        e.push_back(x, y, z, static_cast<std::int64_t>(i), c, c % 3 == 0);
    }
    return e;
}

double relative_difference(const sim::ForceField& a, const sim::ForceField& b) {
    double diff = 0.0, scale = 0.0;
    for (std::size_t i = 0; i < b.x.size(); ++i) {
        diff = std::max({diff, std::abs(a.x[i] - b.x[i]), std::abs(a.y[i] - b.y[i]),
                         std::abs(a.z[i] - b.z[i])});
        scale = std::max({scale, std::abs(b.x[i]), std::abs(b.y[i]), std::abs(b.z[i])});
    }
    return diff / scale;
}

sim::Tissue grown_tissue(const sim::SemParams& p, std::int64_t steps) {
    sim::Simulation simulation(p, sim::make_backend("cpu-binned", p));
    simulation.run(steps);
    return simulation.tissue();
}

} // namespace cellshift::test
