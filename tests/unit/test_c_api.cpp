// The C API with a controller file: an exported zero-head controller, called
// through plain arrays, decides exactly like the reactive rule.

#include "../support/temp_dir.hpp"
#include "cellshift/controller.h"
#include "cellshift/controller/rnn_policy.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <pthread.h>
#include <string>

TEST_CASE("C API: rnn from a file equals reactive with the file's constants", "[capi]") {
    cellshift::test::TempDir dir;
    const std::string file = dir.file("zero.h5");
    cellshift::controller::ReactiveParams params{0.5, 0.05, 0.2};
    cellshift::data::write_controller(file,
                                      cellshift::controller::untrained_controller(params, 24, 9));
    char err[256];
    const int64_t S = 80, P = 5;
    cellshift_controller* rnn = cellshift_controller_create("rnn", file.c_str(), nullptr, S, P, 2,
                                                            nullptr, err, sizeof err);
    REQUIRE(rnn != nullptr);
    cellshift_controller* reactive =
        cellshift_controller_create("reactive", nullptr, "alpha=0.5,tau=0.05,ds_max_fraction=0.2",
                                    S, P, 2, nullptr, err, sizeof err);
    REQUIRE(reactive != nullptr);
    int64_t a[P + 1], b[P + 1];
    int64_t previous[P + 1] = {0, 16, 32, 48, 64, 80}; // the initial equal widths
    int moves = 0;
    double slices[S]; // a 16-feature controller reads the per-slice workload
    for (int t = 0; t < 50; ++t) {
        double times[P];
        for (int p = 0; p < P; ++p) {
            times[p] = 1.0 + 0.5 * std::sin(0.3 * t + p); // a wandering imbalance
        }
        for (int s = 0; s < S; ++s) {
            slices[s] = 1.0 + 0.5 * std::sin(0.3 * t + 0.1 * s);
        }
        REQUIRE(cellshift_controller_step(rnn, times, slices, nullptr, 0.1 * t, a, err,
                                          sizeof err) == 0);
        REQUIRE(cellshift_controller_step(reactive, times, nullptr, nullptr, 0.1 * t, b, err,
                                          sizeof err) == 0);
        for (int k = 0; k <= P; ++k) {
            REQUIRE(a[k] == b[k]);
        }
        moves += std::equal(a, a + P + 1, previous) ? 0 : 1; // the rollout moves boundaries
        std::copy(a, a + P + 1, previous);
    }
    CHECK(moves > 0);
    CHECK(cellshift_controller_reset(rnn, nullptr, err, sizeof err) == 0);

    CHECK(cellshift_controller_create("rnn", dir.file("missing.h5").c_str(), nullptr, S, P, 2,
                                      nullptr, err, sizeof err) == nullptr);
    CHECK(std::string(err).find("missing.h5: no such file") != std::string::npos);
    CHECK(cellshift_controller_create("reactive", nullptr, "alpha=x", S, P, 2, nullptr, err,
                                      sizeof err) == nullptr);
    CHECK(std::string(err) == "parameter 'alpha=x': 'x' is not a number");
    int64_t bad[P + 1] = {0, 1, 40, 60, 70, 80};
    CHECK(cellshift_controller_reset(reactive, bad, err, sizeof err) == -1);
    CHECK(std::string(err) == "rank 0 owns 1 slices, fewer than w_min = 2");
    cellshift_controller_destroy(rnn);
    cellshift_controller_destroy(reactive);
}

TEST_CASE("C API: the host's costs reach a cost-aware controller; bad costs are refused",
          "[capi]") {
    cellshift::test::TempDir dir;
    const std::string file = dir.file("forecast.h5");
    // A forecast-base controller whose gain reads the hidden state, which reads mu.
    auto weights = cellshift::controller::untrained_forecast_controller(0.6, 0.0, 24, 4);
    for (std::size_t h = 0; h < 24; ++h) {
        weights.head_weight(0, h) = 1.0;
    }
    cellshift::data::write_controller(file, weights);
    char err[256];
    const int64_t S = 80, P = 5;
    cellshift_controller* cheap = cellshift_controller_create("rnn", file.c_str(), nullptr, S, P, 2,
                                                              nullptr, err, sizeof err);
    cellshift_controller* dear = cellshift_controller_create("rnn", file.c_str(), nullptr, S, P, 2,
                                                             nullptr, err, sizeof err);
    REQUIRE(cheap != nullptr);
    REQUIRE(dear != nullptr);
    REQUIRE(cellshift_controller_set_costs(cheap, 1e-3, 0.0, err, sizeof err) == 0);
    REQUIRE(cellshift_controller_set_costs(dear, 3.0, 0.1, err, sizeof err) == 0);
    CHECK(cellshift_controller_set_costs(dear, std::nan(""), 0.0, err, sizeof err) == -1);
    CHECK(std::string(err) == "migration and rebalance costs must be finite and >= 0");
    CHECK(cellshift_controller_set_costs(dear, 0.1, -1.0, err, sizeof err) == -1);
    int64_t a[P + 1], b[P + 1];
    int differ = 0;
    for (int t = 0; t < 30; ++t) {
        double slices[S], times_a[P] = {}, times_b[P] = {};
        for (int s = 0; s < S; ++s) {
            const double x = (s - 10.0 - 1.5 * t) / 6.0; // a bump drifting right
            slices[s] = 1.0 + 4.0 * std::exp(-x * x);
        }
        for (int p = 0; p < P; ++p) {
            times_a[p] = times_b[p] = 1.0;
        }
        REQUIRE(cellshift_controller_step(cheap, times_a, slices, nullptr, 0.0, a, err,
                                          sizeof err) == 0);
        REQUIRE(cellshift_controller_step(dear, times_b, slices, nullptr, 0.0, b, err,
                                          sizeof err) == 0);
        differ += std::equal(a, a + P + 1, b) ? 0 : 1;
    }
    CHECK(differ > 0);
    cellshift_controller_destroy(cheap);
    cellshift_controller_destroy(dear);
}

TEST_CASE("C API: the run's length reaches the cost gate and counts down; a negative one is "
          "refused",
          "[capi]") {
    cellshift::test::TempDir dir;
    const std::string file = dir.file("gated.h5");
    // A gated forecast controller (holt at level 1, horizon 8) on two ranks of two slices:
    // a balanced first event holds, then loads 3,1 | 1,1 at mu = 1.9, where moving slice
    // 1 pays within two intervals (3 + 1.9 + 3 < 8) but not within one (4.9 > 4).
    auto weights = cellshift::controller::untrained_forecast_controller(1.0, 0.0, 24, 7);
    weights.hold_horizon = 8.0;
    cellshift::data::write_controller(file, weights);
    char err[256];
    const auto second_step = [&](int64_t left) {
        cellshift_controller* c = cellshift_controller_create("rnn", file.c_str(), nullptr, 4, 2, 1,
                                                              nullptr, err, sizeof err);
        REQUIRE(c != nullptr);
        REQUIRE(cellshift_controller_set_costs(c, 1.9, 0.0, err, sizeof err) == 0);
        REQUIRE(cellshift_controller_set_intervals_left(c, left, err, sizeof err) == 0);
        int64_t b[3];
        const double even[4] = {1, 1, 1, 1}, even_times[2] = {2, 2};
        REQUIRE(cellshift_controller_step(c, even_times, even, nullptr, 0.0, b, err, sizeof err) ==
                0);
        CHECK(b[1] == 2);
        const double heavy[4] = {3, 1, 1, 1}, heavy_times[2] = {4, 2};
        REQUIRE(cellshift_controller_step(c, heavy_times, heavy, nullptr, 0.0, b, err,
                                          sizeof err) == 0);
        cellshift_controller_destroy(c);
        return b[1];
    };
    CHECK(second_step(0) == 1); // not known: the file's horizon, the move pays
    CHECK(second_step(3) == 1); // two left at the second step
    CHECK(second_step(2) == 2); // one left: it holds
    CHECK(second_step(1) == 2); // the count stays at 1
    cellshift_controller* c =
        cellshift_controller_create("holt", nullptr, nullptr, 4, 2, 1, nullptr, err, sizeof err);
    CHECK(cellshift_controller_set_intervals_left(c, -1, err, sizeof err) == -1);
    CHECK(std::string(err) == "intervals left must be >= 0 (0: not known)");
    cellshift_controller_destroy(c);
}

namespace {
std::atomic<int> forks{0};
void count_fork() {
    ++forks;
}
} // namespace

TEST_CASE("C API: reading a controller file never forks the host process", "[capi]") {
    static const bool registered = ::pthread_atfork(count_fork, nullptr, nullptr) == 0;
    REQUIRE(registered);
    cellshift::test::TempDir dir;
    const std::string file = dir.file("zero.h5");
    cellshift::data::write_controller(
        file, cellshift::controller::untrained_forecast_controller(0.6, 0.0, 8, 1));
    // The tools' reader validates in a child first: the counter sees that fork.
    const int before = forks.load();
    (void)cellshift::data::read_controller(file);
    const char* in_process = std::getenv("CELLSHIFT_READ_IN_PROCESS");
    if (in_process == nullptr || std::string(in_process) != "1") {
        CHECK(forks.load() == before + 1);
    }
    // The library's does not, and still refuses a bad file in one line.
    const int library_before = forks.load();
    char err[256];
    cellshift_controller* c = cellshift_controller_create("rnn", file.c_str(), nullptr, 64, 4, 1,
                                                          nullptr, err, sizeof err);
    REQUIRE(c != nullptr);
    cellshift_controller_destroy(c);
    const std::string missing = dir.file("missing.h5");
    CHECK(cellshift_controller_create("rnn", missing.c_str(), nullptr, 64, 4, 1, nullptr, err,
                                      sizeof err) == nullptr);
    CHECK(std::string(err).find("missing.h5") != std::string::npos);
    CHECK(forks.load() == library_before);
}
