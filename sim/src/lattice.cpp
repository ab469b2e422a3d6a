#include "cellshift/sim/lattice.hpp"

#include "cellshift/sim/counter_noise.hpp"

#include <cmath>

namespace cellshift::sim {

PairParams morse_pair(double D0, double alpha, double r0) {
    return PairParams{D0 * std::exp(2.0 * alpha * r0), 2.0 * D0 * std::exp(alpha * r0), 0.5 / alpha,
                      1.0 / alpha};
}

Lattice fcc_lattice(int n, double density, double jitter, std::uint64_t seed) {
    Lattice out;
    const double a = std::cbrt(4.0 / density);
    out.box = n * a;
    static const double basis[4][3] = {{0, 0, 0}, {0.5, 0.5, 0}, {0.5, 0, 0.5}, {0, 0.5, 0.5}};
    out.elements.reserve(static_cast<std::size_t>(4) * n * n * n);
    std::int64_t id = 0;
    for (int i = 0; i < n; ++i) {
        for (int j = 0; j < n; ++j) {
            for (int k = 0; k < n; ++k) {
                for (const auto& b : basis) {
                    const auto u = static_cast<std::uint64_t>(id);
                    const auto shake = [&](int axis) {
                        return jitter * a *
                               (2.0 *
                                    counter_uniform(seed, u, 0, static_cast<std::uint64_t>(axis)) -
                                1.0);
                    };
                    out.elements.push_back((i + b[0] + 0.25) * a + shake(0),
                                           (j + b[1] + 0.25) * a + shake(1),
                                           (k + b[2] + 0.25) * a + shake(2), id, id, false);
                    ++id;
                }
            }
        }
    }
    return out;
}

SemParams morse_benchmark_params(const Lattice& lattice, double D0, double alpha, double r0,
                                 double cutoff) {
    SemParams p;
    p.Lx = p.Ly = p.Lz = lattice.box;
    p.cutoff = cutoff;
    p.intra = p.inter = morse_pair(D0, alpha, r0);
    p.external = false;
    p.noise_D = 0.0;
    return p;
}

} // namespace cellshift::sim
