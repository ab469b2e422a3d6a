#pragma once
// The SEM physics, written once and run by every backend (CPU reference, CPU
// binned, CUDA all-pairs, CUDA binned), HOOMD-blue style: small evaluator structs
// with their parameters and one CELLSHIFT_HD function each.

#include "cellshift/sim/counter_noise.hpp"
#include "cellshift/sim/hd.hpp"
#include "cellshift/sim/sem_params.hpp"

#include <cmath>
#include <cstdint>

namespace cellshift::sim {

// Pair potential with an intra-cell and an inter-cell parameter set, cut at r_c.
// Each set is stored with its derived constants (1/xi, U0/xi, V0/xi), so the
// inner loop multiplies instead of dividing.
struct PairCoefficients {
    double U0 = 0.0, V0 = 0.0;
    double inv_xi1 = 1.0, inv_xi2 = 1.0;
    double U0_over_xi1 = 0.0, V0_over_xi2 = 0.0;
    bool morse = false; // xi1 = xi2 / 2: exp(-r/xi1) = exp(-r/xi2)^2, one exp instead of two

    PairCoefficients() = default;
    explicit PairCoefficients(const PairParams& q)
        : U0(q.U0), V0(q.V0), inv_xi1(1.0 / q.xi1), inv_xi2(1.0 / q.xi2), U0_over_xi1(q.U0 / q.xi1),
          V0_over_xi2(q.V0 / q.xi2), morse(q.xi2 == 2.0 * q.xi1) {}
};

struct SemPairEvaluator {
    PairCoefficients intra;
    PairCoefficients inter;
    double cutoff2 = 0.0;

    SemPairEvaluator() = default;
    explicit SemPairEvaluator(const SemParams& p)
        : intra(p.intra), inter(p.inter), cutoff2(p.cutoff * p.cutoff) {}

    // For a pair at squared distance r2 (> 0): returns false beyond the cutoff;
    // otherwise sets f_over_r = -V'(r) / r (force on i is f_over_r * (x_i - x_j))
    // and energy = V(r).
    CELLSHIFT_HD bool evaluate(double r2, bool same_cell, double& f_over_r, double& energy) const {
        if (r2 >= cutoff2) {
            return false;
        }
        const PairCoefficients& q = same_cell ? intra : inter;
        const double r = sqrt(r2);
        const double e2 = exp(-r * q.inv_xi2);
        const double e1 = q.morse ? e2 * e2 : exp(-r * q.inv_xi1);
        // -dV/dr = U0/xi1 e^{-r/xi1} - V0/xi2 e^{-r/xi2}
        f_over_r = (q.U0_over_xi1 * e1 - q.V0_over_xi2 * e2) / r;
        energy = q.U0 * e1 - q.V0 * e2;
        return true;
    }

    // The one pair step every backend's gather runs: adds the force of a partner
    // at (xj, yj, zj) on the element at (xi, yi, zi); returns whether it interacted.
    CELLSHIFT_HD bool accumulate(double xi, double yi, double zi, std::int64_t ci, double xj,
                                 double yj, double zj, std::int64_t cj, double& fx, double& fy,
                                 double& fz) const {
        const double dx = xi - xj;
        const double dy = yi - yj;
        const double dz = zi - zj;
        double f_over_r = 0.0, v = 0.0;
        if (!evaluate(dx * dx + dy * dy + dz * dz, ci == cj, f_over_r, v)) {
            return false;
        }
        fx += f_over_r * dx;
        fy += f_over_r * dy;
        fz += f_over_r * dz;
        return true;
    }
};

// External potential: exclusion by the basal membrane (z = 0), the side walls and
// the top, U exp(-d / xi) for a wall at distance d < cutoff, plus adhesion of basal
// cells to the membrane, -A exp(-z / xi_b).
struct ExternalEvaluator {
    bool enabled = false;
    double Lx = 0.0, Ly = 0.0, Lz = 0.0;
    double wall_U = 0.0, wall_xi = 1.0;
    double basal_A = 0.0, basal_xi = 1.0;
    double range = 0.0;

    ExternalEvaluator() = default;
    explicit ExternalEvaluator(const SemParams& p)
        : enabled(p.external), Lx(p.Lx), Ly(p.Ly), Lz(p.Lz), wall_U(p.wall_U), wall_xi(p.wall_xi),
          basal_A(p.basal_A), basal_xi(p.basal_xi), range(p.cutoff) {}

    // One wall at distance d, pushing in direction +1 (away from it).
    CELLSHIFT_HD void wall(double d, double sign, double& f, double& energy) const {
        if (d < range) {
            const double v = wall_U * exp(-d / wall_xi);
            f += sign * v / wall_xi;
            energy += v;
        }
    }

    CELLSHIFT_HD void evaluate(double x, double y, double z, bool adhesive, double& fx, double& fy,
                               double& fz, double& energy) const {
        if (!enabled) {
            return;
        }
        wall(x, 1.0, fx, energy);
        wall(Lx - x, -1.0, fx, energy);
        wall(y, 1.0, fy, energy);
        wall(Ly - y, -1.0, fy, energy);
        wall(z, 1.0, fz, energy);
        wall(Lz - z, -1.0, fz, energy);
        if (adhesive) {
            const double v = basal_A * exp(-z / basal_xi);
            fz -= v / basal_xi;
            energy -= v;
        }
    }
};

// One overdamped Euler step of one element: dY = F dt + sqrt(2 D dt) xi, with the
// noise keyed by (seed, element id, step), then kept inside the domain (a safety
// net: the walls should already hold every element inside).
struct EulerIntegrator {
    double dt = 0.0;
    double noise_amplitude = 0.0; // sqrt(2 D dt)
    std::uint64_t seed = 0;
    double Lx = 0.0, Ly = 0.0, Lz = 0.0;

    EulerIntegrator() = default;
    explicit EulerIntegrator(const SemParams& p)
        : dt(p.dt), noise_amplitude(sqrt(2.0 * p.noise_D * p.dt)), seed(p.seed), Lx(p.Lx), Ly(p.Ly),
          Lz(p.Lz) {}

    CELLSHIFT_HD static double clamp(double v, double hi) {
        return v < 0.0 ? 0.0 : (v > hi ? hi : v);
    }

    CELLSHIFT_HD void update(double& x, double& y, double& z, double fx, double fy, double fz,
                             std::int64_t id, std::int64_t step) const {
        x += fx * dt;
        y += fy * dt;
        z += fz * dt;
        if (noise_amplitude > 0.0) {
            const auto uid = static_cast<std::uint64_t>(id);
            const auto ustep = static_cast<std::uint64_t>(step);
            x += noise_amplitude * counter_normal(seed, uid, ustep, 0);
            y += noise_amplitude * counter_normal(seed, uid, ustep, 1);
            z += noise_amplitude * counter_normal(seed, uid, ustep, 2);
        }
        x = clamp(x, Lx);
        y = clamp(y, Ly);
        z = clamp(z, Lz);
    }
};

} // namespace cellshift::sim
