#pragma once
// Sequential counter-based draws on one stream, and the bump shape, shared by
// every scenario family (platform-independent: no std distributions).

#include "cellshift/scenarios/counter_rng.hpp"
#include "cellshift/scenarios/scenario.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace cellshift::scenarios {

inline constexpr double kTwoPi = 6.283185307179586;

// The unnormalised Gaussian bump exp(-(x - mu)^2 / (2 sd^2)) every family paints with.
inline double gaussian(double x, double mu, double sd) {
    const double z = (x - mu) / sd;
    return std::exp(-0.5 * z * z);
}

class Draws {
public:
    Draws(std::uint64_t seed, std::uint64_t stream) : seed_(seed), stream_(stream) {}
    double uniform() { return counter_uniform(seed_, stream_, counter_++); }
    double uniform(const Range& r) { return r.lo + (r.hi - r.lo) * uniform(); }
    double normal() { return counter_normal(seed_, stream_, counter_++); }
    // log-uniform in [lo, hi] (both > 0): every decade equally likely.
    double log_uniform(const Range& r) {
        return std::exp(std::log(r.lo) + (std::log(r.hi) - std::log(r.lo)) * uniform());
    }
    // An integer uniform in [lo, hi].
    std::int64_t integer(std::int64_t lo, std::int64_t hi) {
        return lo + std::min<std::int64_t>(
                        static_cast<std::int64_t>(uniform() * static_cast<double>(hi - lo + 1)),
                        hi - lo);
    }
    std::int64_t poisson(double lambda) { // Knuth; lambda is small here
        double limit = std::exp(-lambda);
        double p = uniform();
        std::int64_t k = 0;
        while (p > limit) {
            p *= uniform();
            ++k;
        }
        return k;
    }

private:
    std::uint64_t seed_, stream_, counter_ = 0;
};

} // namespace cellshift::scenarios
