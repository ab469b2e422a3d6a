// Repartitioning: the exact min-max partition against brute force, and the
// equal-load split's invariants.

#include "cellshift/controller/partition.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <functional>
#include <limits>
#include <random>

using namespace cellshift::controller;

namespace {

// Enumerates every contiguous partition with widths >= w_min.
double brute_force_bottleneck(const std::vector<double>& load, const Layout& l) {
    double best = std::numeric_limits<double>::infinity();
    Boundaries b{0};
    std::function<void(std::int64_t)> rec = [&](std::int64_t k) {
        if (k == l.ranks) {
            if (l.slices - b.back() >= l.w_min) {
                b.push_back(l.slices);
                best = std::min(best, bottleneck(load, b));
                b.pop_back();
            }
            return;
        }
        for (std::int64_t cut = b.back() + l.w_min; cut <= l.slices - (l.ranks - k) * l.w_min;
             ++cut) {
            b.push_back(cut);
            rec(k + 1);
            b.pop_back();
        }
    };
    rec(1);
    return best;
}

void check_feasible(const Boundaries& b, const Layout& l) {
    REQUIRE(b.size() == static_cast<std::size_t>(l.ranks + 1));
    CHECK(b.front() == 0);
    CHECK(b.back() == l.slices);
    for (std::size_t p = 0; p + 1 < b.size(); ++p) {
        CHECK(b[p + 1] - b[p] >= l.w_min);
    }
}

// A random feasible layout: P in [1, max_ranks], w_min in [1, max_w_min], and
// up to `max_extra` slices beyond P * w_min.
Layout random_layout(std::mt19937_64& rng, std::int64_t max_ranks, std::int64_t max_w_min,
                     std::int64_t max_extra) {
    Layout l;
    l.ranks = std::uniform_int_distribution<std::int64_t>(1, max_ranks)(rng);
    l.w_min = std::uniform_int_distribution<std::int64_t>(1, max_w_min)(rng);
    l.slices = l.ranks * l.w_min + std::uniform_int_distribution<std::int64_t>(0, max_extra)(rng);
    return l;
}

// Per-slice loads: 3 in 10 slices empty, `spikes` in 10 at `spike`, the rest
// uniform in [0, 3).
std::vector<double> random_loads(std::mt19937_64& rng, std::int64_t slices, int spikes,
                                 double spike) {
    std::vector<double> load(static_cast<std::size_t>(slices));
    for (double& x : load) {
        int kind = std::uniform_int_distribution<int>(0, 9)(rng);
        x = kind < 3            ? 0.0
            : kind < 3 + spikes ? spike
                                : std::uniform_real_distribution<double>(0, 3)(rng);
    }
    return load;
}

// The textbook min-max DP, O(P S^2): best[k][e] is the lowest bottleneck of
// [0, e) in k parts of >= w_min slices. Independent of the bisection and of its
// pruned reachability check, and fast enough for P and S beyond brute force.
double dynamic_programming_bottleneck(const std::vector<double>& load, const Layout& l) {
    const double inf = std::numeric_limits<double>::infinity();
    const auto S = static_cast<std::size_t>(l.slices);
    std::vector<std::vector<double>> best(static_cast<std::size_t>(l.ranks) + 1,
                                          std::vector<double>(S + 1, inf));
    best[0][0] = 0.0;
    for (std::size_t k = 1; k < best.size(); ++k) {
        for (std::size_t e = 1; e <= S; ++e) {
            for (std::size_t s = 0; s + static_cast<std::size_t>(l.w_min) <= e; ++s) {
                Boundaries part{static_cast<std::int64_t>(s), static_cast<std::int64_t>(e)};
                best[k][e] = std::min(best[k][e], std::max(best[k - 1][s], bottleneck(load, part)));
            }
        }
    }
    return best.back()[S];
}

// optimal_partition on random layouts (w_min up to 3) and loads: a feasible split
// whose bottleneck is the reference's.
template <class Reference>
void check_random_cases(std::uint64_t seed, int trials, std::int64_t max_ranks,
                        std::int64_t max_extra, int spikes, double spike, Reference reference) {
    std::mt19937_64 rng(seed);
    for (int trial = 0; trial < trials; ++trial) {
        Layout l = random_layout(rng, max_ranks, 3, max_extra);
        std::vector<double> load = random_loads(rng, l.slices, spikes, spike);
        Boundaries b = optimal_partition(load, l, split_equal_load(load, l));
        INFO("trial " << trial << ": P " << l.ranks << ", S " << l.slices);
        check_feasible(b, l);
        CHECK(bottleneck(load, b) == reference(load, l));
    }
}

} // namespace

TEST_CASE("optimal partition: equals brute force on small cases", "[controller][oracle]") {
    check_random_cases(31, 1500, 4, 8, 2, 10.0, brute_force_bottleneck);
}

TEST_CASE("optimal partition: equals the min-max DP on larger cases", "[controller][oracle]") {
    // Up to 16 ranks and 80 slices, zero-load runs and spikes included: the
    // reachability check prunes ends that cannot complete, and must never prune
    // the optimum away.
    check_random_cases(77, 200, 16, 32, 1, 25.0, dynamic_programming_bottleneck);
}

TEST_CASE("optimal partition: beats a greedy fill where greedy fails", "[controller][oracle]") {
    // Greedy "fill each part up to the bottleneck" takes [0,3) and is then stuck:
    // the optimum is [0,2) [2,4) [4,7) with bottleneck 5.
    std::vector<double> load{0, 0, 0, 5, 5, 0, 0};
    Layout l{7, 3, 2};
    Boundaries b = optimal_partition(load, l, Boundaries{0, 3, 5, 7});
    CHECK(bottleneck(load, b) == 5.0);
    CHECK(b == Boundaries{0, 2, 4, 7});
}

TEST_CASE("optimal partition: keeps the preferred cuts when they are optimal",
          "[controller][oracle]") {
    std::vector<double> load(12, 1.0);
    load[0] = 0.0; // cut 1 may sit at 3 or 4 without changing the bottleneck
    Layout l{12, 3, 1};
    CHECK(optimal_partition(load, l, Boundaries{0, 4, 8, 12}) == Boundaries{0, 4, 8, 12});
    CHECK(optimal_partition(load, l, Boundaries{0, 5, 8, 12}) == Boundaries{0, 5, 8, 12});
}

TEST_CASE("equal-load split: invariants and exact cases", "[controller][partition]") {
    CHECK(split_equal_load(std::vector<double>(12, 1.0), Layout{12, 4, 1}) ==
          Boundaries{0, 3, 6, 9, 12});
    // All load in one slice: w_min still holds for everyone.
    std::vector<double> spike(20, 0.0);
    spike[3] = 7.0;
    Layout l{20, 5, 3};
    check_feasible(split_equal_load(spike, l), l);
    // No load at all: equal widths.
    CHECK(split_equal_load(std::vector<double>(9, 0.0), Layout{9, 3, 1}) == Boundaries{0, 3, 6, 9});
    std::mt19937_64 rng(8);
    for (int trial = 0; trial < 500; ++trial) {
        Layout r = random_layout(rng, 30, 4, 100);
        std::vector<double> load(static_cast<std::size_t>(r.slices));
        for (double& x : load) {
            x = std::exponential_distribution<double>(1.0)(rng);
        }
        check_feasible(split_equal_load(load, r), r);
    }
}

TEST_CASE("layout validation names the problem", "[controller][layout]") {
    CHECK_THROWS_WITH(validate(Layout{60, 16, 4}), "P * w_min > S (16 * 4 > 60)");
    // P * w_min would overflow int64 (found by the config fuzz target; UB before).
    CHECK_THROWS_WITH(validate(Layout{60, 3, std::int64_t{1} << 62}),
                      Catch::Contains("P * w_min > S"));
    CHECK_NOTHROW(validate(Layout{60, 15, 4}));
    CHECK_THROWS_WITH(validate(Layout{60, 0, 1}), Catch::Contains("rank count P must be >= 1"));
    CHECK_THROWS_WITH(validate(Layout{60, 4, 0}), Catch::Contains("w_min must be >= 1"));
    CHECK_THROWS_WITH(validate(Layout{10, 2, 2}, Boundaries{0, 1, 10}),
                      Catch::Contains("rank 0 owns 1 slices, fewer than w_min = 2"));
    CHECK(migrated_slices(Boundaries{0, 3, 6, 9}, Boundaries{0, 5, 4, 9}) == 4);
}
