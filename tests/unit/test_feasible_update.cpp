// Properties of the joint feasible update over thousands of random cases.

#include "cellshift/controller/feasible_update.hpp"
#include "cellshift/controller/forecast_base.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <random>

using namespace cellshift::controller;

namespace {

Boundaries random_feasible(std::mt19937_64& rng, std::int64_t ranks, std::int64_t w_min,
                           std::int64_t slices) {
    // Distribute the slack S - P w_min over the ranks at random.
    std::vector<std::int64_t> width(static_cast<std::size_t>(ranks), w_min);
    std::uniform_int_distribution<std::int64_t> pick(0, ranks - 1);
    for (std::int64_t extra = slices - ranks * w_min; extra > 0; --extra) {
        ++width[static_cast<std::size_t>(pick(rng))];
    }
    Boundaries b{0};
    for (auto w : width) {
        b.push_back(b.back() + w);
    }
    return b;
}

} // namespace

TEST_CASE("feasible update: invariants over random cases", "[controller][feasible]") {
    std::mt19937_64 rng(20261202);
    int shortened_cases = 0;
    for (int trial = 0; trial < 5000; ++trial) {
        std::int64_t ranks = std::uniform_int_distribution<std::int64_t>(2, 40)(rng);
        std::int64_t w_min = std::uniform_int_distribution<std::int64_t>(1, 5)(rng);
        std::int64_t slices =
            ranks * w_min + std::uniform_int_distribution<std::int64_t>(0, 200)(rng);
        Boundaries b = random_feasible(rng, ranks, w_min, slices);
        double scale = std::uniform_real_distribution<double>(0.1, 30.0)(rng);
        std::normal_distribution<double> normal(0.0, scale);
        std::vector<double> proposal(static_cast<std::size_t>(ranks - 1));
        for (double& p : proposal) {
            p = normal(rng);
            if (trial % 7 == 0) {
                p = std::round(p); // exact integers too
            }
        }
        FeasibleUpdate u = feasible_update(b, proposal, w_min);
        const Boundaries& nb = u.boundaries;
        REQUIRE(nb.size() == b.size());
        CHECK(nb.front() == 0);
        CHECK(nb.back() == slices); // slices conserved
        bool any_shortened = false;
        bool truncated_feasible = true;
        for (std::size_t p = 0; p + 1 < nb.size(); ++p) {
            INFO("trial " << trial << " rank " << p);
            REQUIRE(nb[p + 1] - nb[p] >= w_min);
        }
        for (std::size_t k = 1; k + 1 < nb.size(); ++k) {
            // The integer proposal is the real one rounded to the nearest slice.
            double want = std::round(proposal[k - 1]);
            std::int64_t move = nb[k] - b[k];
            INFO("trial " << trial << " boundary " << k << " proposal " << proposal[k - 1]
                          << " move " << move);
            CHECK(std::abs(static_cast<double>(move)) <= std::abs(want)); // never enlarged
            CHECK(std::abs(static_cast<double>(move)) <= std::abs(proposal[k - 1]) + 0.5);
            CHECK((move == 0 || (move > 0) == (want > 0))); // never reversed
            if (move != static_cast<std::int64_t>(want)) {
                any_shortened = true;
            }
        }
        // When the rounded proposals are feasible as they are, nothing is shortened.
        for (std::size_t p = 0; p + 1 < b.size(); ++p) {
            auto at = [&](std::size_t k) {
                return k == 0 || k + 1 == b.size()
                           ? b[k]
                           : b[k] + static_cast<std::int64_t>(std::round(proposal[k - 1]));
            };
            if (at(p + 1) - at(p) < w_min) {
                truncated_feasible = false;
            }
        }
        if (truncated_feasible) {
            CHECK_FALSE(any_shortened);
            CHECK(u.limited == 0);
        } else {
            CHECK(u.limited > 0);
            ++shortened_cases;
        }
    }
    CHECK(shortened_cases > 500); // the generator exercises the repair, not only easy cases
}

TEST_CASE("feasible update: two boundaries squeezing one rank share the cut",
          "[controller][feasible]") {
    // Rank 1 has 10 slices, w_min 2: both neighbours propose to take 6 of them.
    Boundaries b{0, 10, 20, 30};
    FeasibleUpdate u = feasible_update(b, {6.0, -6.0}, 2);
    CHECK(u.boundaries == Boundaries{0, 14, 16, 30});
    CHECK(u.limited == 2);
    // A coherent shift of every boundary is feasible and is not shortened.
    u = feasible_update(Boundaries{0, 2, 4, 10}, {3.0, 3.0}, 2);
    CHECK(u.boundaries == Boundaries{0, 5, 7, 10});
    CHECK(u.limited == 0);
    // Proposals round to the nearest slice, halves away from zero.
    u = feasible_update(b, {0.5, -0.49}, 2);
    CHECK(u.boundaries == Boundaries{0, 11, 20, 30});
    // Non-finite proposals do not move.
    u = feasible_update(b, {std::nan(""), INFINITY}, 2);
    CHECK(u.boundaries == b);
}

TEST_CASE("project_feasible: feasible cuts stay, any cuts become feasible and sorted",
          "[controller][forecast]") {
    const Layout l{40, 6, 3};
    // A feasible input is returned unchanged.
    std::int64_t limited = -1;
    CHECK(project_feasible({5, 12, 20, 27, 33}, l, &limited) ==
          Boundaries{0, 5, 12, 20, 27, 33, 40});
    CHECK(limited == 0);
    // Crossing cuts and cuts outside the domain: the running maximum pushes right.
    // Worked by hand: u = cut - 3k clamped to [0, 22] is 7, 0, 0, 22, 0; running max
    // 7, 7, 7, 22, 22; plus 3k.
    CHECK(project_feasible({10, 8, 8, 50, -3}, l, &limited) ==
          Boundaries{0, 10, 13, 16, 34, 37, 40});
    CHECK(limited == 4);
    std::mt19937_64 rng(11);
    std::uniform_int_distribution<std::int64_t> cut(-10, 60);
    for (int trial = 0; trial < 500; ++trial) {
        std::vector<std::int64_t> cuts(5);
        for (auto& c : cuts) {
            c = cut(rng);
        }
        const Boundaries b = project_feasible(cuts, l, &limited);
        INFO("trial " << trial);
        REQUIRE_NOTHROW(validate(l, b)); // every rank keeps >= w_min slices
        std::int64_t changed = 0;
        for (std::size_t k = 0; k < cuts.size(); ++k) {
            changed += b[k + 1] != cuts[k] ? 1 : 0;
        }
        CHECK(changed == limited);
    }
}
