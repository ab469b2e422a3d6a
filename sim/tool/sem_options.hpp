#pragma once
// Every SemParams field as a command-line option and config-file key, with its
// meaning, unit, default and the reference it follows. Included only by
// cellshift-sim's main translation unit (CLI11 is expensive to compile).
//
// References:
//   [N05] T. J. Newman, "Modeling multicellular systems using subcellular
//         elements", Math. Biosci. Eng. 2 (2005) 613-624: the SEM itself, elements
//         moving by overdamped dynamics under short-range pair potentials.
//   [D18] H. Du, Y. Wang, D. Haensel, B. Lee, X. Dai, Q. Nie, "Multiscale modeling
//         of layer formation in epidermis", PLoS Comput. Biol. 14 (2018) e1006006:
//         the two-exponential potential U0 exp(-r/xi1) - V0 exp(-r/xi2) with
//         intra- and inter-cell sets, the basal membrane, stem / TA / suprabasal
//         cells and division orientation relative to the membrane.
// The forms follow those papers; the values are this code's dimensionless
// defaults (lengths in element diameters, time in drag times), chosen so that
// cells of 16-32 elements are stable at dt = 0.01 and the tissue stratifies.

#include "cellshift/sim/sem_params.hpp"

#include <CLI/CLI.hpp>

#include <string>

namespace cellshift::sim::tool {

inline void add_model_options(CLI::App& app, SemParams& p) {
    const auto add = [&](const std::string& name, auto& value, const std::string& text,
                         const char* group) {
        app.add_option("--" + name, value, text)->capture_default_str()->group(group);
    };
    const char* domain = "Domain and bins";
    add("Lx", p.Lx, "domain length along x, the decomposed axis [element diameters]", domain);
    add("Ly", p.Ly, "domain width along y [element diameters]", domain);
    add("Lz", p.Lz, "domain height above the basal membrane z = 0 [element diameters]", domain);
    add("cutoff", p.cutoff, "interaction cutoff r_c [element diameters] [N05]", domain);
    add("bin-edge", p.bin_edge, "spatial bin edge, >= cutoff; 0 = the cutoff [element diameters]",
        domain);
    add("neighbor-skin", p.neighbor_skin,
        "cpu-verlet: neighbour-list reach beyond the cutoff; lists are rebuilt when an element "
        "has moved skin/2 [element diameters]",
        domain);

    const char* pair = "Pair potential V(r) = U0 exp(-r/xi1) - V0 exp(-r/xi2) [D18]";
    add("intra-U0", p.intra.U0, "repulsion strength within a cell [energy]", pair);
    add("intra-V0", p.intra.V0, "attraction strength within a cell [energy]", pair);
    add("intra-xi1", p.intra.xi1, "repulsion range within a cell [element diameters]", pair);
    add("intra-xi2", p.intra.xi2, "attraction range within a cell [element diameters]", pair);
    add("inter-U0", p.inter.U0, "repulsion strength between cells [energy]", pair);
    add("inter-V0", p.inter.V0, "adhesion strength between cells [energy]", pair);
    add("inter-xi1", p.inter.xi1, "repulsion range between cells [element diameters]", pair);
    add("inter-xi2", p.inter.xi2, "adhesion range between cells [element diameters]", pair);

    const char* ext = "Basal membrane and walls [D18]";
    add("external", p.external, "apply the membrane and wall potentials (true/false)", ext);
    add("wall-U", p.wall_U, "exclusion strength of the membrane and walls, U exp(-d/xi) [energy]",
        ext);
    add("wall-xi", p.wall_xi, "exclusion range [element diameters]", ext);
    add("basal-A", p.basal_A,
        "adhesion of stem and TA cells to the membrane, -A exp(-z/xi_b) [energy]", ext);
    add("basal-xi", p.basal_xi, "membrane adhesion range [element diameters]", ext);

    const char* dyn = "Dynamics [N05]";
    add("dt", p.dt, "Euler time step [drag times]", dyn);
    add("noise-D", p.noise_D,
        "thermal noise: diffusion constant D in sqrt(2 D dt) N(0,1) "
        "[element diameters^2 / drag time]",
        dyn);
    add("seed", p.seed, "seed of every counter-based random draw (noise, growth, division)", dyn);
    add("omp-schedule", p.omp_schedule,
        "OpenMP schedule of cpu-binned's force loop: adaptive (CoV-driven), static, dynamic", dyn);

    const char* life = "Growth, division, differentiation [D18]";
    add("lifecycle-every", p.lifecycle_every, "steps between lifecycle updates [steps]", life);
    add("elements-initial", p.elements_initial, "elements of a newborn cell", life);
    add("elements-division", p.elements_division, "element count at which a cell divides", life);
    add("cycle-time", p.cycle_time, "growth time from newborn to division size [drag times]", life);
    add("growth-jitter", p.growth_jitter, "relative spread of each cell's cycle time, in [0, 1)",
        life);
    add("growth-gradient", p.growth_gradient,
        "lateral proliferation gradient g in [0, 1): cells born at x divide (1 + g (1 - 2x/Lx)) "
        "times faster, so the workload drifts along x",
        life);
    add("p-plane-parallel", p.p_plane_parallel,
        "probability that the division plane is parallel to the membrane (daughters stacked)",
        life);
    add("p-asymmetric", p.p_asymmetric,
        "probability that a stem division yields one stem and one transit-amplifying daughter",
        life);
    add("ta-generations", p.ta_generations,
        "divisions of transit-amplifying cells before their daughters become suprabasal", life);
    add("basal-contact", p.basal_contact,
        "a basal cell whose lowest element is above this height becomes suprabasal "
        "[element diameters]",
        life);

    const char* init = "Initial basal patch";
    add("patch-fraction", p.patch_fraction, "fraction of Lx the initial stem patch covers", init);
    add("patch-spacing", p.patch_spacing,
        "centre-to-centre distance of the initial cells [element diameters]", init);
    add("patch-start", p.patch_start, "where the patch begins, fraction of Lx", init);
    add("patch-colonies", p.patch_colonies,
        "colonies the patch is split into (separated by patch-gap)", init);
    add("patch-gap", p.patch_gap, "gap between neighbouring colonies, fraction of Lx", init);
}

} // namespace cellshift::sim::tool
