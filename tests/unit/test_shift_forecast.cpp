// The shift forecaster against profiles moved by known amounts.

#include "cellshift/controller/holt.hpp"
#include "cellshift/controller/shift_forecast.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <random>
#include <stdexcept>
#include <vector>

using namespace cellshift::controller;

namespace {

// 1 + a Gaussian bump of height 4 and width 3 slices centred at `centre`, sampled at
// the slice centres of 128 slices: its values at the ends are 1 to double precision
// while the centre stays within 30 slices of the middle.
std::vector<double> bump_at(double centre) {
    std::vector<double> w(128);
    for (std::size_t s = 0; s < w.size(); ++s) {
        const double x = (static_cast<double>(s) - centre) / 3.0;
        w[s] = 1.0 + 4.0 * std::exp(-x * x);
    }
    return w;
}

double max_difference(const std::vector<double>& a, const std::vector<double>& b) {
    REQUIRE(a.size() == b.size());
    double d = 0.0;
    for (std::size_t s = 0; s < a.size(); ++s)
        d = std::max(d, std::abs(a[s] - b[s]));
    return d;
}

} // namespace

TEST_CASE("shift forecast: a profile carried along, the ends extended", "[controller][shift]") {
    const std::vector<double> x{1, 2, 4, 8};
    CHECK(shifted(x, 0.0) == x);
    CHECK(shifted(x, 2.0) == std::vector<double>{1, 1, 1, 2});
    CHECK(shifted(x, -1.0) == std::vector<double>{2, 4, 8, 8});
    CHECK(shifted(x, 0.5) == std::vector<double>{1, 1.5, 3, 6});
    CHECK(shifted(x, 10.0) == std::vector<double>{1, 1, 1, 1});
    CHECK(ShiftForecaster::max_shift(128) == 16);
    CHECK(ShiftForecaster::max_shift(4096) == 32);
    CHECK(ShiftForecaster::max_shift(4) == 1);
}

TEST_CASE("shift forecast: the measured shift of a bump moved by a known amount",
          "[controller][shift]") {
    // Whole shifts either way are found exactly (the mismatch is symmetric about them,
    // so the parabola adds no fraction); a fractional one to within a tenth of a slice.
    for (const double by : {3.0, -4.0, 1.0, -1.0}) {
        INFO("moved by " << by);
        CHECK(best_shift(bump_at(60.0), bump_at(60.0 + by), 16) == Approx(by).margin(1e-12));
    }
    for (const double by : {1.5, -2.3, 6.7}) {
        INFO("moved by " << by);
        CHECK(best_shift(bump_at(60.0), bump_at(60.0 + by), 16) == Approx(by).margin(0.1));
    }
    // Beyond the reach the best whole shift is the end of it; a flat profile does not move.
    CHECK(best_shift(bump_at(50.0), bump_at(70.0), 8) == 8.0);
    CHECK(best_shift(std::vector<double>(64, 2.0), std::vector<double>(64, 2.0), 8) == 0.0);
}

TEST_CASE("shift forecast: a bump travelling whole slices per event is forecast exactly",
          "[controller][shift]") {
    for (const double speed : {2.0, -3.0}) {
        INFO("slices per event " << speed);
        ShiftForecaster f;
        CHECK(f.forecast().empty());
        f.observe(bump_at(64.0));
        CHECK_FALSE(f.measured());
        CHECK(f.forecast() == bump_at(64.0)); // no shift yet: the observation itself
        for (int t = 1; t < 8; ++t) {
            f.observe(bump_at(64.0 + speed * t));
            CHECK(f.measured());
            CHECK(f.shift() == Approx(speed).margin(1e-12));
            CHECK(max_difference(f.forecast(), bump_at(64.0 + speed * (t + 1))) < 1e-9);
        }
    }
    // A fractional speed: the forecast is far closer to what comes than either Holt
    // forecast's, whose per-slice level and trend lag a travelling bump.
    ShiftForecaster f;
    HoltForecaster fast(1.0, 0.3);
    double shift_error = 0.0, holt_error = 0.0;
    for (int t = 0; t < 20; ++t) {
        const std::vector<double> now = bump_at(50.0 + 1.4 * t);
        if (t >= 5) {
            shift_error += relative_forecast_error(f.forecast(), now);
            holt_error += relative_forecast_error(fast.forecast(), now);
        }
        f.observe(now);
        fast.observe(now);
    }
    CHECK(f.shift() == Approx(1.4).margin(0.1));
    CHECK(shift_error < 0.25 * holt_error);
}

TEST_CASE("shift forecast: a profile that stays put under noise is smoothed, not moved",
          "[controller][shift]") {
    // 10% log-normal noise on a fixed bump: every measured shift is 0, and the forecast
    // (an exponential smoothing) is closer to the noiseless profile than the last
    // observation is.
    const std::vector<double> truth = bump_at(64.0);
    std::mt19937_64 rng(7);
    std::normal_distribution<double> z(0.0, 0.1);
    ShiftForecaster f;
    double forecast_error = 0.0, observation_error = 0.0;
    for (int t = 0; t < 30; ++t) {
        std::vector<double> seen = truth;
        for (double& w : seen)
            w *= std::exp(z(rng));
        f.observe(seen);
        if (t > 0)
            CHECK(f.shift() == 0.0);
        if (t >= 10) {
            forecast_error += relative_forecast_error(f.forecast(), truth);
            observation_error += relative_forecast_error(seen, truth);
        }
    }
    CHECK(forecast_error < 0.8 * observation_error);
}

TEST_CASE("shift forecast: its state round trip, and a wrong size refused", "[controller][shift]") {
    ShiftForecaster a;
    CHECK(a.state().empty());
    for (int t = 0; t < 5; ++t)
        a.observe(bump_at(40.0 + 2.5 * t));
    const std::vector<double> saved = a.state();
    CHECK(saved.size() == 130);
    ShiftForecaster b;
    b.observe(bump_at(90.0)); // overwritten by the restore
    b.restore(saved, 128);
    CHECK(b.shift() == a.shift());
    CHECK(b.measured());
    CHECK(b.forecast() == a.forecast());
    a.observe(bump_at(52.5));
    b.observe(bump_at(52.5));
    CHECK(b.forecast() == a.forecast());
    b.restore({}, 128); // nothing observed
    CHECK(b.forecast().empty());
    CHECK_FALSE(b.measured());
    CHECK_THROWS_AS(b.restore(std::vector<double>(129, 1.0), 128), std::invalid_argument);
    CHECK_THROWS_WITH(b.restore(std::vector<double>(3, 1.0), 128),
                      "policy state 'rnn/shift/state' does not hold S + 2 values (profile, "
                      "shift, measured)");
}
