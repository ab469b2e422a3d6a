#pragma once
// `cellshift-sim lattice-forces`: forces on a jittered fcc lattice under one Morse
// parameter set, plus the same configuration as a LAMMPS data file, so that
// LAMMPS' pair_style morse can check cellshift's forces (tests/external).

#include <cstdint>
#include <string>

namespace cellshift::sim::tool {

struct LatticeOptions {
    int cells = 4;           // fcc unit cells per side: 4 n^3 elements
    double density = 0.8442; // LAMMPS lattice fcc 0.8442 (the bench deck)
    double jitter = 0.05;    // random displacement, in lattice constants
    std::uint64_t seed = 1;
    double D0 = 1.0, alpha = 5.0, r0 = 1.1224, cutoff = 2.5; // the deck's pair_coeff
    std::string backend = "cpu-binned";
    std::string forces;      // CSV out
    std::string lammps_data; // LAMMPS data file out (optional)
};

int lattice_forces(const LatticeOptions& options);

} // namespace cellshift::sim::tool
