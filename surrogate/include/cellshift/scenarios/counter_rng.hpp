#pragma once
// Counter-based random numbers: a value is a pure function of (seed, stream,
// counters), so scenarios and measurement noise are reproducible, independent
// of evaluation order and thread count. SplitMix64 finalisers do the mixing.

#include <cmath>
#include <cstdint>

namespace cellshift::scenarios {

inline std::uint64_t mix64(std::uint64_t x) {
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

inline std::uint64_t counter_hash(std::uint64_t seed, std::uint64_t stream, std::uint64_t a,
                                  std::uint64_t b = 0) {
    return mix64(mix64(mix64(mix64(seed) ^ stream) ^ a) ^ b);
}

// Uniform in (0, 1), never exactly 0 or 1.
inline double counter_uniform(std::uint64_t seed, std::uint64_t stream, std::uint64_t a,
                              std::uint64_t b = 0) {
    return (static_cast<double>(counter_hash(seed, stream, a, b) >> 11) + 0.5) * 0x1.0p-53;
}

// Standard normal (Box-Muller on two counter-based uniforms).
inline double counter_normal(std::uint64_t seed, std::uint64_t stream, std::uint64_t a,
                             std::uint64_t b = 0) {
    double u1 = counter_uniform(seed, stream, a, 2 * b);
    double u2 = counter_uniform(seed, stream, a, 2 * b + 1);
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
}

} // namespace cellshift::scenarios
