// Whether the load has jumped to a new profile (load_jump.hpp): the rank-load error by
// hand, the moving averages, the warm-up, the threshold and the checkpoint state.
#include "cellshift/controller/load_jump.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstddef>
#include <limits>
#include <stdexcept>
#include <vector>

using namespace cellshift::controller;

TEST_CASE("load jump: the rank-load error sums each rank's error, by hand", "[controller][gate]") {
    // Four slices, two ranks {0,1} and {2,3}. Forecast {1, 2, 3, 4}, actual {2, 1, 1, 4}
    // (total 8): rank 0 errs by (1 - 2) + (2 - 1) = 0, rank 1 by (3 - 1) + 0 = 2: 2 / 8.
    const Boundaries b{0, 2, 4};
    CHECK(rank_load_error({1.0, 2.0, 3.0, 4.0}, {2.0, 1.0, 1.0, 4.0}, b) == Approx(0.25));
    // Per slice the same forecast errs by 4 / 8; a rank's errors cancel, noise averages.
    CHECK(rank_load_error({1.0, 2.0, 3.0, 4.0}, {2.0, 1.0, 1.0, 4.0}, {0, 1, 2, 3, 4}) ==
          Approx(0.5));
    CHECK(rank_load_error({1.0, 1.0}, {0.0, 0.0}, {0, 1, 2}) == 0.0); // nothing came
}

TEST_CASE("load jump: a jump is kJumpDeviations mean deviations above the moving average, "
          "after the warm-up",
          "[controller][gate]") {
    LoadJump j;
    // Five values, the third ten times the others: no jump while fewer than kJumpWarmup
    // are known, and the averages by hand (the first value starts the mean).
    const std::vector<double> first{0.10, 0.12, 1.0, 0.12, 0.10};
    double mean = first[0], deviation = 0.0;
    for (std::size_t t = 0; t < first.size(); ++t) {
        CHECK_FALSE(j.observe(first[t]));
        if (t > 0) {
            deviation = kJumpKeep * deviation + (1.0 - kJumpKeep) * std::abs(first[t] - mean);
            mean = kJumpKeep * mean + (1.0 - kJumpKeep) * first[t];
        }
    }
    CHECK(j.mean() == Approx(mean));
    CHECK(j.deviation() == Approx(deviation));
    // Values that alternate between 0.10 and 0.12 are no jump.
    for (int t = 5; t < 60; ++t)
        CHECK_FALSE(j.observe(t % 2 ? 0.12 : 0.10));
    // Just below the threshold: no jump; far above it: a jump.
    const double threshold = j.mean() + kJumpDeviations * j.deviation();
    LoadJump copy;
    copy.restore(j.state());
    CHECK_FALSE(copy.observe(0.999 * threshold));
    CHECK(j.observe(1.001 * threshold));
    CHECK_FALSE(j.observe(std::numeric_limits<double>::quiet_NaN())); // says nothing
}

TEST_CASE("load jump: its checkpoint state round-trips and a bad one is refused",
          "[controller][gate]") {
    LoadJump a;
    for (const double r : {0.1, 0.2, 0.15})
        a.observe(r);
    LoadJump b;
    b.restore(a.state());
    CHECK(b.state() == a.state());
    const double nan = std::numeric_limits<double>::quiet_NaN();
    for (const std::vector<double>& bad :
         {std::vector<double>{0.1, 0.2}, {0.1, -0.2, 3.0}, {0.1, 0.2, 2.5}, {nan, 0.2, 3.0}}) {
        LoadJump c;
        CHECK_THROWS_WITH(c.restore(bad), Catch::Contains("'rnn/jump/state'"));
    }
}
