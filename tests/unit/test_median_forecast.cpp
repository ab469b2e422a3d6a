// The median forecaster against hand-worked medians.

#include "cellshift/controller/median_forecast.hpp"

#include <catch2/catch.hpp>

#include <stdexcept>
#include <vector>

using namespace cellshift::controller;

TEST_CASE("median forecast: the per-slice median of the last five observations, three at first",
          "[controller][median]") {
    MedianForecaster m;
    CHECK(m.forecast().empty());
    const std::vector<std::vector<double>> rows{{1, 5, 2}, {3, 4, 9}, {2, 6, 9},
                                                {8, 0, 4}, {5, 7, 1}, {0, 0, 0}};
    for (std::size_t t = 0; t < 2; ++t) {
        m.observe(rows[t]);
        CHECK(m.forecast() == rows[t]); // fewer than three: the last
        CHECK_FALSE(m.ready());
    }
    m.observe(rows[2]);
    CHECK(m.ready());
    // Three or four kept: the median of the last three. Columns {1,3,2}, {5,4,6}, {2,9,9}.
    CHECK(m.forecast() == std::vector<double>{2, 5, 9});
    m.observe(rows[3]); // {3,2,8}, {4,6,0}, {9,9,4}
    CHECK(m.forecast() == std::vector<double>{3, 4, 9});
    m.observe(rows[4]);
    // Five: columns {1,3,2,8,5}, {5,4,6,0,7}, {2,9,9,4,1}: medians 3, 5, 4.
    CHECK(m.forecast() == std::vector<double>{3, 5, 4});
    m.observe(rows[5]); // the first row drops out: {3,2,8,5,0}, {4,6,0,7,0}, {9,9,4,1,0}
    CHECK(m.forecast() == std::vector<double>{3, 4, 4});
    m.reset();
    CHECK(m.forecast().empty());
}

TEST_CASE("median forecast: a load seen twice in five is ignored, three times is not",
          "[controller][median]") {
    MedianForecaster m;
    for (int t = 0; t < 3; ++t)
        m.observe({1.0, 1.0});
    CHECK(m.forecast() == std::vector<double>{1.0, 1.0});
    m.observe({1.0, 10.0}); // a one-event burst on slice 1, seen in one of the last three
    CHECK(m.forecast() == std::vector<double>{1.0, 1.0});
    m.observe({1.0, 1.0});
    CHECK(m.forecast() == std::vector<double>{1.0, 1.0});
    m.observe({1.0, 8.0}); // it recurs: two of the last five are high
    CHECK(m.forecast() == std::vector<double>{1.0, 1.0});
    m.observe({1.0, 9.0}); // three of five: a lasting load, the lowest of the three
    CHECK(m.forecast() == std::vector<double>{1.0, 8.0});
}

TEST_CASE("median forecast: its state continues a run, a wrong size is refused",
          "[controller][median]") {
    MedianForecaster straight, restored;
    const std::vector<std::vector<double>> rows{{1, 2}, {7, 3}, {4, 8}, {2, 2},
                                                {5, 1}, {6, 6}, {0, 9}, {3, 3}};
    for (std::size_t t = 0; t < 5; ++t)
        straight.observe(rows[t]);
    restored.restore(straight.state(), 2);
    CHECK(restored.state() == straight.state());
    for (std::size_t t = 5; t < rows.size(); ++t) {
        straight.observe(rows[t]);
        restored.observe(rows[t]);
        CHECK(restored.forecast() == straight.forecast());
    }
    restored.restore({}, 2); // nothing observed yet
    CHECK(restored.forecast().empty());
    CHECK_THROWS_AS(restored.restore({1.0, 2.0, 3.0}, 2), std::invalid_argument);
    CHECK_THROWS_AS(restored.restore(std::vector<double>(12, 1.0), 2), std::invalid_argument);
}
