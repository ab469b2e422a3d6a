#pragma once
// Counter-based random numbers for the simulator: a pure function of
// (seed, stream id, step, component), so every backend and every decomposition
// draws the same number for the same element at the same step, with no state to
// carry, share or checkpoint.

#include "cellshift/sim/hd.hpp"

#include <cmath>
#include <cstdint>

namespace cellshift::sim {

// SplitMix64's finaliser: a bijective 64-bit mix with full avalanche.
CELLSHIFT_HD std::uint64_t mix64(std::uint64_t z) {
    z += 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

CELLSHIFT_HD std::uint64_t counter_hash(std::uint64_t seed, std::uint64_t id, std::uint64_t step,
                                        std::uint64_t component) {
    return mix64(mix64(mix64(mix64(seed) ^ id) ^ step) ^ component);
}

// Uniform in (0, 1): 53 random bits, offset by half an ulp so log() is finite.
CELLSHIFT_HD double counter_uniform(std::uint64_t seed, std::uint64_t id, std::uint64_t step,
                                    std::uint64_t component) {
    return (static_cast<double>(counter_hash(seed, id, step, component) >> 11) + 0.5) *
           (1.0 / 9007199254740992.0);
}

// Standard normal by Box-Muller from two counter uniforms.
CELLSHIFT_HD double counter_normal(std::uint64_t seed, std::uint64_t id, std::uint64_t step,
                                   std::uint64_t component) {
    const double u1 = counter_uniform(seed, id, step, 2 * component);
    const double u2 = counter_uniform(seed, id, step, 2 * component + 1);
    return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}

} // namespace cellshift::sim
