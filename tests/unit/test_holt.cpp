// Holt's smoothing against closed forms.

#include "cellshift/controller/holt.hpp"

#include <catch2/catch.hpp>

#include <cmath>

using namespace cellshift::controller;

TEST_CASE("Holt: closed forms of its recursion", "[controller][holt]") {
    SECTION("a = b = 1: level is the last value, trend the last difference") {
        HoltForecaster h(1.0, 1.0);
        h.observe({1.0, 4.0});
        h.observe({3.0, 2.0});
        CHECK(h.forecast() == std::vector<double>{5.0, 0.0}); // 2 w_t - w_{t-1}, floored at 0
    }
    SECTION("b = 0: the trend stays 0 and Holt is exponential smoothing") {
        HoltForecaster h(0.25, 0.0);
        h.observe({8.0});
        h.observe({0.0});
        h.observe({0.0});
        CHECK(h.forecast()[0] == Approx(8.0 * 0.75 * 0.75)); // level = (1-a)^2 * 8
    }
    SECTION("a linear series: the error decays as M^t e_0") {
        // w_t = c + d t. With error e = (level - w_t, trend - d), one step maps
        // e -> M e, M = [[(1-a), (1-a)], [-a b, 1 - a b]] (derived from the recursion).
        const double a = 0.4, b = 0.3, c = 2.0, d = 0.5;
        HoltForecaster h(a, b);
        double e0 = 0.0, e1 = -d; // level = w_0 exactly, trend 0
        h.observe({c});
        for (int t = 1; t <= 12; ++t) {
            h.observe({c + d * t});
            double n0 = (1 - a) * e0 + (1 - a) * e1;
            double n1 = -a * b * e0 + (1 - a * b) * e1;
            e0 = n0;
            e1 = n1;
            CHECK(h.level()[0] - (c + d * t) == Approx(e0).margin(1e-12));
            CHECK(h.trend()[0] - d == Approx(e1).margin(1e-12));
        }
        CHECK(std::abs(e0) < 0.1 * d); // and it converges
    }
}

TEST_CASE("Holt: a forecast's relative error", "[controller][holt]") {
    // |1 - 2| + |2 - 2| + |3 - 2| = 2 over a total of 6.
    CHECK(relative_forecast_error({1.0, 2.0, 3.0}, {2.0, 2.0, 2.0}) == Approx(1.0 / 3.0));
    CHECK(relative_forecast_error({2.0, 2.0}, {2.0, 2.0}) == 0.0);
    CHECK(relative_forecast_error({1.0}, {0.0}) == 0.0); // nothing came: no scale
}
