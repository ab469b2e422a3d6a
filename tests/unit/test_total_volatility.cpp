// The cost gate's horizon: the total workload's volatility and the stretch it gives.
#include "cellshift/controller/total_volatility.hpp"

#include <catch2/catch.hpp>

#include <stdexcept>

using namespace cellshift::controller;

TEST_CASE("total volatility: steady growth reads 0, a burst reads its jolt", "[controller][gate]") {
    TotalVolatility v;
    v.observe(100.0);
    v.observe(110.0);
    CHECK_FALSE(v.known()); // one change is not yet a change of the change
    v.observe(121.0);       // +10% twice: steady
    REQUIRE(v.known());
    CHECK(v.value() == Approx(0.0).margin(1e-15));
    // A burst: 121 -> 145.2 (+20% after +10%) jolts by 0.1, averaged with keep 0.9 into
    // the 0 so far; 145.2 -> 121 (-1/6 after +20%) jolts by 0.2 + 1/6.
    v.observe(145.2);
    CHECK(v.value() == Approx(0.1 * 0.1));
    v.observe(121.0);
    CHECK(v.value() == Approx(0.9 * 0.01 + 0.1 * (0.2 + 1.0 / 6.0)));
    // A zero total carries no rate: it is remembered but not used.
    TotalVolatility z;
    for (const double w : {0.0, 5.0, 5.0})
        z.observe(w);
    CHECK_FALSE(z.known());
    z.observe(5.0);
    CHECK(z.known());
    CHECK(z.value() == 0.0);
}

TEST_CASE("total volatility: the state round-trips", "[controller][gate]") {
    TotalVolatility a;
    for (const double w : {100.0, 104.0, 99.0, 103.0})
        a.observe(w);
    TotalVolatility b;
    b.restore(a.state());
    a.observe(108.0);
    b.observe(108.0);
    CHECK(a.value() == b.value());
    CHECK(a.state() == b.state());
    CHECK_THROWS_AS(b.restore({1.0, 2.0}), std::invalid_argument);
}

TEST_CASE("stretched horizon: longer on a steady total, never shorter", "[controller][gate]") {
    TotalVolatility v;
    CHECK(stretched_horizon(8.0, v) == 8.0); // unknown: as given
    // Constant +5% growth: volatility 0, the largest stretch.
    for (const double w : {100.0, 105.0, 110.25})
        v.observe(w);
    CHECK(stretched_horizon(8.0, v) == Approx(8.0 * kMaxHorizonStretch));
    // Volatility 0.003 (half the steady threshold): twice the horizon; 0.012: as given.
    TotalVolatility half;
    for (const double w : {100.0, 100.0, 100.3})
        half.observe(w);
    REQUIRE(half.value() == Approx(0.003));
    CHECK(stretched_horizon(8.0, half) == Approx(8.0 * kSteadyVolatility / 0.003));
    TotalVolatility bursty;
    for (const double w : {100.0, 100.0, 101.2})
        bursty.observe(w);
    CHECK(stretched_horizon(8.0, bursty) == 8.0);
}
