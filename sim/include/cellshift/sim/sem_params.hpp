#pragma once
// Every parameter of the SEM tissue model, with its unit and default. The
// meaning and the literature each one follows are documented next to its
// config key in sim/src/sem_config.cpp (shown by `cellshift-sim run --help` and
// written by `cellshift-sim write-config`), and in docs/simulator.md.
//
// Units: length in element diameters (about 1 um), time in units of the drag
// time tau = eta * d^2 / E (eta: drag per element, E: the energy unit), energy in
// E. Rates and durations are given in time units, not steps, so changing dt
// changes resolution, not biology.

#include <cstdint>
#include <string>

namespace cellshift::sim {

// V(r) = U0 exp(-r / xi1) - V0 exp(-r / xi2): short-range repulsion, longer-range
// attraction (the SEM form of Newman 2005 as written by Du et al. for epidermis).
struct PairParams {
    double U0 = 0.0;
    double V0 = 0.0;
    double xi1 = 1.0;
    double xi2 = 1.0;
};

struct SemParams {
    // Domain [0, Lx] x [0, Ly] x [0, Lz]; the basal membrane is the plane z = 0.
    double Lx = 96.0;
    double Ly = 16.0;
    double Lz = 24.0;
    double cutoff = 2.0;        // r_c: pairs farther apart do not interact
    double bin_edge = 0.0;      // cubic bin edge; 0 = the cutoff (must be >= cutoff)
    double neighbor_skin = 0.3; // cpu-verlet: neighbour-list reach beyond the cutoff

    PairParams intra{3.6945280494, 1.0, 0.2, 0.4}; // same cell: equilibrium spacing 0.8
    PairParams inter{3.6945280494, 0.3, 0.2, 0.4}; // different cells: weaker adhesion, ~1.28

    // External potential: exclusion by the membrane and the domain walls for every
    // element, U_wall exp(-d / xi_wall); adhesion to the membrane for basal cells
    // (stem and transit-amplifying), -A_basal exp(-z / xi_basal).
    bool external = true;
    double wall_U = 2.0;
    double wall_xi = 0.25;
    double basal_A = 2.0;
    double basal_xi = 0.5;

    // Overdamped Euler: dY = F dt (+ sqrt(2 D dt) N(0,1) per component).
    double dt = 0.01;
    double noise_D = 1e-3;
    std::uint64_t seed = 1;

    // Lifecycle, applied every `lifecycle_every` steps.
    int lifecycle_every = 10;
    int elements_initial = 16;   // elements of a newborn cell
    int elements_division = 32;  // a cell with this many elements divides
    double cycle_time = 20.0;    // growth from newborn to division size (time units)
    double growth_jitter = 0.25; // relative spread of each cell's cycle time
    // Lateral proliferation gradient g in [0, 1): a cell born at x divides
    // (1 + g (1 - 2 x / Lx)) times faster, so the workload drifts along x (a
    // wound edge or a proliferative niche); 0 = uniform.
    double growth_gradient = 0.0;
    double p_plane_parallel = 0.2; // division plane parallel to the membrane (stratifying)
    double p_asymmetric = 0.5;     // a stem division yields one stem and one TA daughter
    int ta_generations = 3;        // TA divisions before their daughters differentiate
    double basal_contact = 1.2;    // a cell whose lowest element is higher has left the membrane

    // Initial condition: a basal patch of stem cells over x in
    // [patch_start, patch_start + patch_fraction] * Lx, split into patch_colonies
    // equal colonies separated by gaps of patch_gap * Lx (wound-like gaps).
    double patch_fraction = 0.25;
    double patch_spacing = 3.2; // centre-to-centre distance of the initial cells
    double patch_start = 0.0;   // where the patch begins, fraction of Lx
    int patch_colonies = 1;     // colonies the patch is split into
    double patch_gap = 0.05;    // gap between neighbouring colonies, fraction of Lx

    // OpenMP schedule of cpu-binned's force loop: adaptive (CoV-driven), static, dynamic.
    std::string omp_schedule = "adaptive";

    double effective_bin_edge() const { return bin_edge > 0.0 ? bin_edge : cutoff; }
};

// Throws std::invalid_argument with one line naming the first bad value.
void validate(const SemParams& p);

} // namespace cellshift::sim
