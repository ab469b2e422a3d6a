#include "cellshift/sim/sem_params.hpp"

#include <cmath>
#include <sstream>
#include <stdexcept>

namespace cellshift::sim {

namespace {
void require(bool ok, const std::string& message) {
    if (!ok)
        throw std::invalid_argument(message);
}
std::string num(double v) {
    std::ostringstream out;
    out << v;
    return out.str();
}
void check_pair(const PairParams& q, const std::string& set) {
    require(std::isfinite(q.U0) && q.U0 >= 0.0,
            set + "-U0 must be finite and >= 0, got " + num(q.U0));
    require(std::isfinite(q.V0) && q.V0 >= 0.0,
            set + "-V0 must be finite and >= 0, got " + num(q.V0));
    require(std::isfinite(q.xi1) && q.xi1 > 0.0, set + "-xi1 must be > 0, got " + num(q.xi1));
    require(std::isfinite(q.xi2) && q.xi2 > 0.0, set + "-xi2 must be > 0, got " + num(q.xi2));
}
} // namespace

void validate(const SemParams& p) {
    require(std::isfinite(p.cutoff) && p.cutoff > 0.0,
            "cutoff must be a positive length, got " + num(p.cutoff));
    require(std::isfinite(p.bin_edge) && (p.bin_edge == 0.0 || p.bin_edge >= p.cutoff),
            "bin-edge (" + num(p.bin_edge) + ") must be 0 (= cutoff) or >= the cutoff (" +
                num(p.cutoff) + "): smaller bins would miss interactions");
    require(std::isfinite(p.neighbor_skin) && p.neighbor_skin >= 0.0,
            "neighbor-skin must be >= 0, got " + num(p.neighbor_skin));
    const double edge = p.effective_bin_edge();
    for (auto [name, L] : {std::pair{"Lx", p.Lx}, std::pair{"Ly", p.Ly}, std::pair{"Lz", p.Lz}}) {
        require(std::isfinite(L) && L >= edge, std::string("domain too small: ") + name + " = " +
                                                   num(L) + " must be at least one bin edge (" +
                                                   num(edge) + ")");
    }
    require(p.Lx / edge * (p.Ly / edge) * (p.Lz / edge) <= 2.0e8,
            "domain has more than 2e8 bins: increase bin_edge or shrink the domain");
    check_pair(p.intra, "intra");
    check_pair(p.inter, "inter");
    require(std::isfinite(p.wall_U) && p.wall_U >= 0.0,
            "wall-U must be >= 0, got " + num(p.wall_U));
    require(std::isfinite(p.wall_xi) && p.wall_xi > 0.0,
            "wall-xi must be > 0, got " + num(p.wall_xi));
    require(std::isfinite(p.basal_A) && p.basal_A >= 0.0,
            "basal-A must be >= 0, got " + num(p.basal_A));
    require(std::isfinite(p.basal_xi) && p.basal_xi > 0.0,
            "basal-xi must be > 0, got " + num(p.basal_xi));
    require(std::isfinite(p.dt) && p.dt > 0.0, "dt must be > 0, got " + num(p.dt));
    require(std::isfinite(p.noise_D) && p.noise_D >= 0.0,
            "noise-D must be >= 0, got " + num(p.noise_D));
    require(p.lifecycle_every >= 1, "lifecycle-every must be >= 1");
    require(p.elements_initial >= 1, "elements-initial must be >= 1");
    require(p.elements_division >= 2 * p.elements_initial,
            "elements-division (" + std::to_string(p.elements_division) +
                ") must be at least twice elements-initial (" + std::to_string(p.elements_initial) +
                ") so both daughters start at full size");
    require(std::isfinite(p.cycle_time) && p.cycle_time > 0.0, "cycle-time must be > 0");
    require(std::isfinite(p.growth_gradient) && p.growth_gradient >= 0.0 && p.growth_gradient < 1.0,
            "growth-gradient must be in [0, 1)");
    require(std::isfinite(p.growth_jitter) && p.growth_jitter >= 0.0 && p.growth_jitter < 1.0,
            "growth-jitter must be in [0, 1)");
    for (auto [name, v] :
         {std::pair{"p-plane-parallel", p.p_plane_parallel},
          std::pair{"p-asymmetric", p.p_asymmetric}, std::pair{"patch-fraction", p.patch_fraction},
          std::pair{"patch-start", p.patch_start}, std::pair{"patch-gap", p.patch_gap}}) {
        require(std::isfinite(v) && v >= 0.0 && v <= 1.0,
                std::string(name) + " must be in [0, 1], got " + num(v));
    }
    require(p.ta_generations >= 0, "ta-generations must be >= 0");
    require(std::isfinite(p.basal_contact) && p.basal_contact > 0.0, "basal-contact must be > 0");
    require(std::isfinite(p.patch_spacing) && p.patch_spacing > 0.0, "patch-spacing must be > 0");
    require(p.patch_colonies >= 1, "patch-colonies must be >= 1");
    require(p.patch_start + p.patch_fraction <= 1.0 + 1e-12,
            "patch-start + patch-fraction must be <= 1 (the patch must fit in Lx)");
    require(static_cast<double>(p.patch_colonies - 1) * p.patch_gap < p.patch_fraction ||
                p.patch_colonies == 1,
            "patch-colonies x patch-gap leaves no room for the colonies in patch-fraction");
    require(p.omp_schedule == "adaptive" || p.omp_schedule == "static" ||
                p.omp_schedule == "dynamic",
            "omp-schedule must be adaptive, static or dynamic, got '" + p.omp_schedule + "'");
}

} // namespace cellshift::sim
