#pragma once
// The pair sum of one element over a list of partners, written for the compiler's
// vectoriser with the bits fixed (issue 24), in three passes:
//   1. the partners' positions and cells are copied from the list into contiguous
//      scratch arrays (a gather, scalar);
//   2. one loop over them, which the compiler vectorises: each pair's force, with no
//      branch (the cut-off and the cell test are masks and selects) and an exp of
//      plain IEEE arithmetic (exp_arith), which the vectoriser can widen where a call
//      to libm's exp stops it;
//   3. the pair forces summed in list order, one at a time, as the scalar kernels do,
//      so the result depends neither on the vector width of the machine (SSE2, AVX2,
//      AVX-512) nor on the thread count.
// sem_physics.hpp's SemPairEvaluator stays the definition of the physics; these
// forces equal its to a few ulp (tests/unit/test_sem_forces.cpp holds every backend
// to cpu-allpairs at 1e-12). The translation unit that includes this is compiled
// with -ffp-contract=off, so that no clone fuses a multiply-add the others do not.

#include "cellshift/sim/sem_physics.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

namespace cellshift::sim::lanes {

// e^x for -708 <= x <= 0 (the caller guarantees the range: no clamp, which the
// compiler would turn into a branch): x = k ln2 + r with |r| <= ln2 / 2 (k by the
// round-to-nearest shifter, ln2 in two parts), e^r by its Taylor polynomial to degree
// 13 (truncation below 1e-17 relative), 2^k by the exponent bits. Within a few ulp
// of libm's exp.
// always_inline (here and below): the caller is cloned per instruction set, and a
// function that is called rather than inlined keeps the baseline instruction set.
[[gnu::always_inline]] inline double exp_arith(double x) {
    constexpr double kLog2e = 1.4426950408889634;
    constexpr double kLn2Hi = 6.93147180369123816490e-01;
    constexpr double kLn2Lo = 1.90821492927058770002e-10;
    constexpr double kShifter = 6755399441055744.0; // 1.5 x 2^52: adding it rounds to an integer
    const double shifted = x * kLog2e + kShifter;
    const double k = shifted - kShifter;
    const double r = (x - k * kLn2Hi) - k * kLn2Lo;
    double p = 1.0 / 6227020800.0; // 1/13!
    p = p * r + 1.0 / 479001600.0;
    p = p * r + 1.0 / 39916800.0;
    p = p * r + 1.0 / 3628800.0;
    p = p * r + 1.0 / 362880.0;
    p = p * r + 1.0 / 40320.0;
    p = p * r + 1.0 / 5040.0;
    p = p * r + 1.0 / 720.0;
    p = p * r + 1.0 / 120.0;
    p = p * r + 1.0 / 24.0;
    p = p * r + 1.0 / 6.0;
    p = p * r + 0.5;
    p = p * r + 1.0;
    p = p * r + 1.0;
    // The shifter's low mantissa bits hold k (two's complement): 2^k = (k + 1023) << 52.
    std::int64_t bits = 0;
    std::memcpy(&bits, &shifted, sizeof bits);
    const std::int64_t kbits = (bits - 0x4338000000000000LL + 1023) << 52;
    double two_k = 0.0;
    std::memcpy(&two_k, &kbits, sizeof two_k);
    return p * two_k;
}

// Whether exp_arith's range holds for every listed pair: r / xi <= 700 up to `reach`.
inline bool lanes_cover(const SemPairEvaluator& pair, double reach) {
    const double steepest = std::max(std::max(pair.intra.inv_xi1, pair.intra.inv_xi2),
                                     std::max(pair.inter.inv_xi1, pair.inter.inv_xi2));
    return reach * steepest <= 700.0;
}

// One partner, as the list kernels store it: position and owning cell in 32 bytes.
struct Partner {
    double x, y, z;
    std::int64_t cell;
};

struct ElementForce {
    double fx = 0.0, fy = 0.0, fz = 0.0;
    std::int64_t interactions = 0;
};

// One thread's working arrays, grown to the longest list seen.
struct Scratch {
    std::vector<double> x, y, z, inv_xi1, inv_xi2, u, v, fx, fy, fz;
    std::vector<std::int64_t> hit;
    void reserve(std::size_t n) {
        if (x.size() >= n)
            return;
        for (auto* w : {&x, &y, &z, &inv_xi1, &inv_xi2, &u, &v, &fx, &fy, &fz})
            w->resize(n);
        hit.resize(n);
    }
};

// The force on `me` from partners[list[k]], k in [begin, end). kBothMorse: both
// parameter sets are Morse (xi1 = xi2 / 2), so one exp serves both terms. Needs
// lanes_cover(pair, the list's reach).
template <bool kBothMorse>
[[gnu::always_inline]] inline ElementForce
sum_over_list(const SemPairEvaluator& pair, const Partner& me, const Partner* partners,
              const std::int32_t* list, std::int64_t begin, std::int64_t end, Scratch& scratch) {
    const auto n = static_cast<std::size_t>(end - begin);
    scratch.reserve(n);
    Scratch& w = scratch;
    // Pass 1 (scalar): the gather, and the cell test, so that pass 2 has no select
    // the compiler could turn back into a branch.
    for (std::size_t k = 0; k < n; ++k) {
        const Partner& o = partners[list[begin + static_cast<std::int64_t>(k)]];
        const PairCoefficients& q = o.cell == me.cell ? pair.intra : pair.inter;
        w.x[k] = o.x;
        w.y[k] = o.y;
        w.z[k] = o.z;
        w.inv_xi1[k] = q.inv_xi1;
        w.inv_xi2[k] = q.inv_xi2;
        w.u[k] = q.U0_over_xi1;
        w.v[k] = q.V0_over_xi2;
    }
    // Pass 2 (vectorised): every pair's force, multiplied by 0 beyond the cut-off.
    const double cutoff2 = pair.cutoff2;
    const double *px = w.x.data(), *py = w.y.data(), *pz = w.z.data();
    const double *inv1 = w.inv_xi1.data(), *inv2 = w.inv_xi2.data();
    const double *pu = w.u.data(), *pv = w.v.data();
    double *gx = w.fx.data(), *gy = w.fy.data(), *gz = w.fz.data();
    std::int64_t* hit = w.hit.data();
#pragma omp simd
    for (std::size_t k = 0; k < n; ++k) {
        const double dx = me.x - px[k], dy = me.y - py[k], dz = me.z - pz[k];
        const double r2 = dx * dx + dy * dy + dz * dz;
        const double r = std::sqrt(r2); // > 0: partners are distinct elements
        const double e2 = exp_arith(-r * inv2[k]);
        const double e1 = kBothMorse ? e2 * e2 : exp_arith(-r * inv1[k]);
        const bool in = r2 < cutoff2;
        const double f = (pu[k] * e1 - pv[k] * e2) / r * (in ? 1.0 : 0.0);
        gx[k] = f * dx;
        gy[k] = f * dy;
        gz[k] = f * dz;
        hit[k] = static_cast<std::int64_t>(in);
    }
    // Pass 3 (scalar): the sum in list order.
    ElementForce out;
    for (std::size_t k = 0; k < n; ++k) {
        out.fx += gx[k];
        out.fy += gy[k];
        out.fz += gz[k];
        out.interactions += hit[k];
    }
    return out;
}

} // namespace cellshift::sim::lanes
