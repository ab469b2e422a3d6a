// The reactive rule and the residual formula against hand-worked numbers.

#include "cellshift/controller/reactive.hpp"
#include "cellshift/controller/registry.hpp"
#include "cellshift/controller/residual.hpp"

#include <catch2/catch.hpp>

#include <cmath>

using namespace cellshift::controller;

TEST_CASE("reactive rule: hand-worked proposals", "[controller][reactive]") {
    ReactiveParams p{0.5, 0.05, 0.25};
    // I = 0.5 / 1.25 = 0.4 > tau; right slower: 0.5 * 20 * 0.5 / (2 * 1.5) = 5/3.
    CHECK(reactive_proposal(1.0, 1.5, 10, 20, p, 100.0) == Approx(5.0 / 3.0).epsilon(1e-15));
    // Left slower: 0.5 * 8 * 1 / (2 * 2) = 1, toward lower index.
    CHECK(reactive_proposal(2.0, 1.0, 8, 4, p, 100.0) == Approx(-1.0).epsilon(1e-15));
    // |I| = 0.04 / 1.02 = 0.0392 <= tau: no move.
    CHECK(reactive_proposal(1.0, 1.04, 10, 10, p, 100.0) == 0.0);
    // I = 2 / 2 = 1 exactly: at the threshold nothing moves (the test is |I| > tau).
    CHECK(reactive_proposal(1.0, 3.0, 10, 10, ReactiveParams{0.5, 1.0, 0.25}, 100.0) == 0.0);
    CHECK(reactive_proposal(1.0, 3.0, 10, 10, ReactiveParams{0.5, 0.999, 0.25}, 100.0) > 0.0);
    // Clipped to ds_max.
    CHECK(reactive_proposal(1.0, 3.0, 10, 100, p, 2.0) == 2.0);
    CHECK(reactive_proposal(3.0, 1.0, 100, 10, p, 2.0) == -2.0);
    // Idle ranks: no information, no move.
    CHECK(reactive_proposal(0.0, 0.0, 10, 10, p, 2.0) == 0.0);
    CHECK(local_imbalance(1.0, 3.0) == Approx(1.0));
}

TEST_CASE("reactive rule: proposals of all interior boundaries", "[controller][reactive]") {
    ReactiveParams p{1.0, 0.0, 1.0};
    Boundaries b{0, 4, 10, 12};
    std::vector<double> t{1.0, 2.0, 2.0};
    auto ds = reactive_proposals(t, b, p, 100.0);
    REQUIRE(ds.size() == 2);
    CHECK(ds[0] == Approx(1.0 * 6 * 1.0 / (2 * 2.0))); // right rank (6 slices) slower
    CHECK(ds[1] == 0.0);                               // equal times
    CHECK(ds_max_slices(Layout{96, 8, 2}, ReactiveParams{0.5, 0.05, 0.25}) == 3.0);
}

TEST_CASE("residual: zero residual is the reactive move exactly, bounded otherwise",
          "[controller][residual]") {
    for (double ds : {-3.0, -1.7, 0.0, 0.3, 2.0, 3.0}) {
        CHECK(residual_move(ds, 0.0, 3.0) == ds);
    }
    // tanh(atanh(0.5) + r), hand-computed for r = 0.2.
    CHECK(residual_move(1.5, 0.2, 3.0) == Approx(3.0 * std::tanh(std::atanh(0.5) + 0.2)));
    CHECK(residual_move(1.5, 0.2, 3.0) > 1.5);
    CHECK(residual_move(1.5, -0.2, 3.0) < 1.5);
    // The atanh argument is clipped, so a saturated proposal stays finite and bounded.
    double m = residual_move(3.0, 50.0, 3.0);
    CHECK(std::isfinite(m));
    CHECK(std::abs(m) <= 3.0);
    CHECK(residual_move(3.0, -50.0, 3.0) >= -3.0);
    CHECK(residual_move(0.0, 1.0, 3.0) == Approx(3.0 * std::tanh(1.0)));
}

TEST_CASE("reactive rule: moves a boundary at S/P = 4 (ds_max floor of one slice)",
          "[controller][reactive]") {
    // 256 slices on 32 ranks: ds_max_fraction x S/P = 0.4 slices, which used to
    // round every move to zero and freeze the balancer.
    const Layout layout{256, 32, 1};
    const ReactiveParams paper = kPaperReactive;
    CHECK(paper.ds_max_fraction * layout.mean_width() < 0.5);
    CHECK(ds_max_slices(layout, paper) == 1.0);
    CHECK(ds_max_slices(Layout{4096, 32, 1}, paper) == Approx(6.4));

    // One hot slice on rank 2 (slices 16..23): rank 2 takes 8 + 7 = 15 against 8.
    std::vector<double> work(256, 1.0);
    work[20] = 8.0;
    const Boundaries before = uniform_boundaries(layout);
    PolicySettings settings;
    settings.overrides = {
        {"alpha", paper.alpha}, {"tau", paper.tau}, {"ds_max_fraction", paper.ds_max_fraction}};
    auto policy = make_policy("reactive", settings);
    policy->reset(layout, before);
    Observation o;
    o.rank_times = rank_sums(work, before);
    const Boundaries after = policy->decide(o);
    CHECK(after[2] == before[2] + 1); // rank 2 hands a slice to rank 1 ...
    CHECK(after[3] == before[3] - 1); // ... and one to rank 3
    CHECK(migrated_slices(before, after) == 2);
}
