#pragma once
// Benchmark and reference configurations: the fcc lattice of LAMMPS' bench decks
// (shared/bench/in.morse.bench), and the Morse potential written in the SEM form.

#include "cellshift/sim/sem_params.hpp"
#include "cellshift/sim/tissue.hpp"

#include <cstdint>

namespace cellshift::sim {

// Morse V = D0 [exp(-2 a (r - r0)) - 2 exp(-a (r - r0))] is the SEM form with
// xi1 = 1 / (2a), xi2 = 1 / a, U0 = D0 exp(2 a r0), V0 = 2 D0 exp(a r0).
PairParams morse_pair(double D0, double alpha, double r0);

struct Lattice {
    Elements elements; // every element its own cell, ids 0..N-1
    double box = 0.0;  // the cube [0, box]^3 holding it
};

// 4 n^3 sites of an fcc lattice at number density `density` (LAMMPS `lattice fcc
// rho` in lj units), each displaced by up to `jitter` lattice constants (counter
// draws keyed by `seed`), inset by a quarter lattice constant from the walls.
Lattice fcc_lattice(int n, double density, double jitter, std::uint64_t seed);

// Parameters for a pure pair benchmark on `lattice`: one Morse parameter set for
// every pair, no walls, no noise, no lifecycle.
SemParams morse_benchmark_params(const Lattice& lattice, double D0, double alpha, double r0,
                                 double cutoff);

} // namespace cellshift::sim
