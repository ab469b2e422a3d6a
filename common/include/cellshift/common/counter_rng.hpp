#pragma once
// Counter-based random numbers, one definition for the whole project: a value is a
// pure function of (seed, stream, two counters), so scenarios, measurement noise,
// ES perturbations and the simulator's element noise are reproducible and
// independent of evaluation order, thread count, backend and decomposition, with no
// state to carry or checkpoint. SplitMix64's finaliser does the mixing. The
// functions compile for the host and, under nvcc, for the device too.

#include <cmath>
#include <cstdint>

#if defined(__CUDACC__)
#define CELLSHIFT_RNG_HD __host__ __device__ __forceinline__
#else
#define CELLSHIFT_RNG_HD inline
#endif

namespace cellshift::common {

// SplitMix64's finaliser: a bijective 64-bit mix with full avalanche.
CELLSHIFT_RNG_HD std::uint64_t mix64(std::uint64_t z) {
    z += 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

CELLSHIFT_RNG_HD std::uint64_t counter_hash(std::uint64_t seed, std::uint64_t stream,
                                            std::uint64_t a, std::uint64_t b = 0) {
    return mix64(mix64(mix64(mix64(seed) ^ stream) ^ a) ^ b);
}

// Uniform in (0, 1): 53 random bits offset by half an ulp, never 0 (log is finite) or 1.
CELLSHIFT_RNG_HD double counter_uniform(std::uint64_t seed, std::uint64_t stream, std::uint64_t a,
                                        std::uint64_t b = 0) {
    return (static_cast<double>(counter_hash(seed, stream, a, b) >> 11) + 0.5) *
           (1.0 / 9007199254740992.0);
}

// Standard normal by Box-Muller from two counter uniforms.
CELLSHIFT_RNG_HD double counter_normal(std::uint64_t seed, std::uint64_t stream, std::uint64_t a,
                                       std::uint64_t b = 0) {
    const double u1 = counter_uniform(seed, stream, a, 2 * b);
    const double u2 = counter_uniform(seed, stream, a, 2 * b + 1);
    return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}

} // namespace cellshift::common
