// The per-slice estimates' calibration against measured rank times: the factors
// analytically, the invariants (exact estimates stay exact; at memory 0 the rank sums
// of the calibrated estimate are the measured shares), and a policy fed through it
// against the same policy fed the calibrated estimate by hand; rnn's setting.
#include "cellshift/controller/rank_time_calibration.hpp"
#include "cellshift/controller/registry.hpp"
#include "cellshift/controller/rnn_policy.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <map>
#include <numeric>
#include <stdexcept>

using namespace cellshift::controller;
namespace data = cellshift::data;

namespace {

// Two ranks of 4 slices, uniform estimates; rank 1 measures twice rank 0's time.
const std::vector<double> kUniform(8, 1.0);
const Boundaries kHalves{0, 4, 8};
const std::vector<double> kSlowRight{1.0, 2.0};

// Estimates that undercount the right half of the domain by a factor 1.5: what the
// measured clock charges, and what a policy is told.
std::vector<double> true_cost(std::int64_t slices, int event) {
    std::vector<double> w(static_cast<std::size_t>(slices));
    for (std::int64_t s = 0; s < slices; ++s) {
        const double x = static_cast<double>(s) - 10.0 - 0.5 * event;
        w[static_cast<std::size_t>(s)] = 1.0 + 4.0 * std::exp(-x * x / 30.0);
    }
    return w;
}
std::vector<double> estimate_of(const std::vector<double>& cost) {
    std::vector<double> e = cost;
    for (std::size_t s = e.size() / 2; s < e.size(); ++s)
        e[s] /= 1.5;
    return e;
}

} // namespace

TEST_CASE("calibration: factors are the rank's measured share over its estimated share",
          "[controller][calibration]") {
    // Shares 1/3 and 2/3 measured against 1/2 and 1/2 estimated: factors 2/3 and 4/3.
    RankTimeCalibration last(0.0);
    const std::vector<double> c = last.calibrate(kUniform, kSlowRight, kHalves);
    for (std::size_t s = 0; s < 4; ++s) {
        CHECK(c[s] == Approx(2.0 / 3.0));
        CHECK(c[s + 4] == Approx(4.0 / 3.0));
    }
    // The moving average: half way from 1 to the ratio, then half way again.
    RankTimeCalibration half(0.5);
    half.calibrate(kUniform, kSlowRight, kHalves);
    CHECK(half.mean()[0] == Approx(0.5 + 0.5 * 2.0 / 3.0));
    half.calibrate(kUniform, kSlowRight, kHalves);
    CHECK(half.mean()[7] == Approx(0.25 + 0.75 * 4.0 / 3.0));
    // A steady bias is learned in full: the factor tends to the ratio.
    for (int t = 0; t < 60; ++t)
        half.calibrate(kUniform, kSlowRight, kHalves);
    CHECK(half.factor(0) == Approx(2.0 / 3.0));
    CHECK(half.factor(7) == Approx(4.0 / 3.0));
    // The ratio is the rank's under the boundaries that governed the interval: after
    // the cut moves to 2, slices 2-3 learn from rank 1 (6/8 of the estimate, 2/3 of the
    // time: 8/9), slices 0-1 from rank 0 (2/8 and 1/3: 4/3).
    RankTimeCalibration moved(0.0);
    moved.calibrate(kUniform, kSlowRight, kHalves);
    const std::vector<double> after = moved.calibrate(kUniform, kSlowRight, Boundaries{0, 2, 8});
    CHECK(after[0] == Approx((1.0 / 3.0) / (2.0 / 8.0)));
    CHECK(after[2] == Approx(8.0 / 9.0));
    CHECK(moved.mean()[5] == Approx(8.0 / 9.0));
}

TEST_CASE("calibration: noise the estimate cannot explain leaves it as it is",
          "[controller][calibration]") {
    // Rank times jitter +-10% in turn around exact estimates: the ratios average to 1
    // and their spread explains the moving average's distance from 1, so the factor
    // used is shrunk to exactly 1.
    RankTimeCalibration noisy(0.9);
    for (int t = 0; t < 40; ++t) {
        const double e = t % 2 == 0 ? 0.1 : -0.1;
        const std::vector<double> c =
            noisy.calibrate(kUniform, {4.0 * (1 + e), 4.0 * (1 - e)}, kHalves);
        if (t >= 10)
            CHECK(c == kUniform);
    }
    CHECK(noisy.mean()[0] != 1.0); // it did learn a (noisy) average; it is not used
    // The same jitter on top of a 30% bias: the bias is kept.
    RankTimeCalibration biased(0.9);
    for (int t = 0; t < 80; ++t) {
        const double e = t % 2 == 0 ? 0.1 : -0.1;
        biased.calibrate(kUniform, {4.0 * (1 + e), 4.0 * 1.3 * (1 - e)}, kHalves);
    }
    CHECK(biased.factor(7) > 1.1);
    CHECK(biased.factor(0) < 0.95);
}

TEST_CASE("calibration: one interval's ratio is not evidence, a bias seen twice is",
          "[controller][calibration]") {
    // At the controller's memory (0.9) the first ratio's own scatter is in proportion
    // to its distance from 1, so it cannot tell a bias from a noisy interval: nothing
    // of it is used (the positive-part rule, kCalibrationEvidence = 1, used half).
    RankTimeCalibration calibration(0.9);
    CHECK(calibration.calibrate(kUniform, kSlowRight, kHalves) == kUniform);
    CHECK(calibration.mean()[0] != 1.0); // learned, not yet used
    // The same ratios again: a steady bias, used in part and growing towards the ratio.
    calibration.calibrate(kUniform, kSlowRight, kHalves);
    const double second = calibration.factor(7);
    CHECK(second > 1.0);
    CHECK(calibration.factor(0) < 1.0);
    for (int t = 0; t < 100; ++t)
        calibration.calibrate(kUniform, kSlowRight, kHalves);
    CHECK(calibration.factor(7) > second);
    CHECK(calibration.factor(7) == Approx(4.0 / 3.0).epsilon(1e-3));
    // Ratios that scatter by +-20% around a 5% bias: over 50 events the average's
    // distance from 1 is within 1.7 standard deviations of its noise: nothing is used.
    RankTimeCalibration scattered(0.9);
    for (int t = 0; t < 50; ++t) {
        const double e = t % 2 == 0 ? 0.2 : -0.2;
        const std::vector<double> c =
            scattered.calibrate(kUniform, {4.0 * (1 + e), 4.0 * 1.05 * (1 - e)}, kHalves);
        CHECK(c == kUniform);
    }
}

TEST_CASE("calibration: exact estimates stay exact, at memory 0 rank sums follow the clock",
          "[controller][calibration]") {
    const Layout l{40, 4, 2};
    const Boundaries b{0, 7, 15, 30, 40};
    const std::vector<double> cost = true_cost(l.slices, 3);
    RankTimeCalibration exact(0.9);
    const std::vector<double> same = exact.calibrate(cost, rank_sums(cost, b), b);
    for (std::size_t s = 0; s < cost.size(); ++s)
        CHECK(same[s] == Approx(cost[s]).epsilon(1e-12));
    // Estimates off by any per-slice factor: the calibrated rank sums are the measured
    // times rescaled to the estimate's total.
    const std::vector<double> estimate = estimate_of(cost);
    const std::vector<double> times = rank_sums(cost, b);
    RankTimeCalibration last(0.0);
    const std::vector<double> sums = rank_sums(last.calibrate(estimate, times, b), b);
    const double scale = std::accumulate(estimate.begin(), estimate.end(), 0.0) /
                         std::accumulate(times.begin(), times.end(), 0.0);
    for (std::size_t p = 0; p < times.size(); ++p)
        CHECK(sums[p] == Approx(times[p] * scale));
}

TEST_CASE("calibration: bounded factors, no learning without a ratio, off at memory 1",
          "[controller][calibration]") {
    RankTimeCalibration last(0.0);
    // Rank 0 estimated at almost nothing but measured like rank 1: the factor is capped.
    const std::vector<double> tiny{1e-6, 1e-6, 1.0, 1.0};
    last.calibrate(tiny, {1.0, 1.0}, Boundaries{0, 2, 4});
    CHECK(last.factor(0) == kMaxCalibration);
    CHECK(last.factor(2) == Approx(1.0 / kMaxCalibration)); // 0.5 / ~1.0
    // A rank with no estimated load learns nothing; neither does an all-zero clock.
    RankTimeCalibration empty(0.0);
    empty.calibrate({0.0, 0.0, 1.0, 3.0}, {2.0, 2.0}, Boundaries{0, 2, 4});
    CHECK(empty.factor(0) == 1.0);
    CHECK(empty.factor(3) == Approx(0.5)); // (2 / 4) / (4 / 4)
    empty.reset();
    empty.calibrate(kUniform, {0.0, 0.0}, kHalves);
    CHECK(empty.mean() == std::vector<double>(8, 1.0));
    // Memory 1 is off: the estimate comes back as it is.
    RankTimeCalibration off(1.0);
    CHECK_FALSE(off.enabled());
    CHECK(off.calibrate(kUniform, kSlowRight, kHalves) == kUniform);
    CHECK_THROWS_AS(RankTimeCalibration(1.5), std::invalid_argument);
    CHECK_THROWS_AS(RankTimeCalibration(std::nan("")), std::invalid_argument);
}

TEST_CASE("calibration: a policy fed through it decides as if fed the calibrated estimate",
          "[controller][calibration]") {
    const Layout l{48, 4, 2};
    auto calibrated = make_policy("holt", {{{"calibrate", 0.7}}, ""});
    auto by_hand = make_policy("holt");
    auto uncalibrated = make_policy("holt");
    RankTimeCalibration reference(0.7);
    for (auto* p : {calibrated.get(), by_hand.get(), uncalibrated.get()})
        p->reset(l, uniform_boundaries(l));
    bool differs = false;
    for (int t = 0; t < 30; ++t) {
        const std::vector<double> cost = true_cost(l.slices, t);
        Observation o;
        o.slice_workload = estimate_of(cost);
        o.rank_times = rank_sums(cost, calibrated->boundaries());
        REQUIRE(by_hand->boundaries() == calibrated->boundaries());
        Observation fixed = o;
        fixed.slice_workload =
            reference.calibrate(o.slice_workload, o.rank_times, by_hand->boundaries());
        o.rank_times = rank_sums(cost, uncalibrated->boundaries());
        const Boundaries a = uncalibrated->decide(o);
        o.rank_times = fixed.rank_times;
        CHECK(calibrated->decide(o) == by_hand->decide(fixed));
        differs = differs || a != calibrated->boundaries();
    }
    CHECK(differs); // the undercounted half matters: without calibration holt splits elsewhere
}

TEST_CASE("calibration: the factors survive a checkpoint, bad ones are refused",
          "[controller][calibration]") {
    const Layout l{48, 4, 2};
    auto first = make_policy("persistence", {{{"calibrate", 0.5}}, ""});
    auto second = make_policy("persistence", {{{"calibrate", 0.5}}, ""});
    auto straight = make_policy("persistence", {{{"calibrate", 0.5}}, ""});
    for (auto* p : {first.get(), second.get(), straight.get()})
        p->reset(l, uniform_boundaries(l));
    auto feed = [&](Policy& p, int t) {
        const std::vector<double> cost = true_cost(l.slices, t);
        Observation o;
        o.slice_workload = estimate_of(cost);
        o.rank_times = rank_sums(cost, p.boundaries());
        return p.decide(o);
    };
    for (int t = 0; t < 10; ++t) {
        feed(*first, t);
        feed(*straight, t);
    }
    REQUIRE(first->save_state().at("calibration/mean").size() == 48);
    REQUIRE(first->save_state().at("calibration/square").size() == 48);
    second->restore_state(first->save_state());
    for (int t = 10; t < 20; ++t)
        CHECK(feed(*second, t) == feed(*straight, t));
    PolicyState bad = first->save_state();
    bad["calibration/mean"].assign(47, 1.0);
    CHECK_THROWS_WITH(second->restore_state(bad), Catch::Contains("does not hold S values"));
    bad["calibration/mean"].assign(48, 3.0);
    CHECK_THROWS_WITH(second->restore_state(bad), Catch::Contains("out of range"));
    bad["calibration/mean"].assign(48, 1.0);
    bad["calibration/square"].assign(40, 1.0);
    CHECK_THROWS_WITH(second->restore_state(bad), Catch::Contains("another size"));
    // Off (the default): nothing is saved, and the estimate is used as it is.
    CHECK(make_policy("persistence")->save_state().count("calibration/mean") == 0);
}

TEST_CASE("calibration: rnn reads its memory from the controller file unless overridden",
          "[controller][calibration][rnn]") {
    const Layout l{48, 4, 2};
    data::Controller file = untrained_blend_controller(0.6, 0.0, 1.0, 0.3, 24, 5);
    file.hold_horizon = 8.0;
    const auto roll_with = [&](const data::Controller& c, std::map<std::string, double> overrides) {
        auto policy = make_policy("rnn", PolicySettings{std::move(overrides), "", &c});
        policy->reset(l, uniform_boundaries(l));
        std::vector<Boundaries> out;
        for (int t = 0; t < 30; ++t) {
            const std::vector<double> cost = true_cost(l.slices, t);
            Observation o;
            o.slice_workload = estimate_of(cost);
            o.rank_times = rank_sums(cost, policy->boundaries());
            out.push_back(policy->decide(o));
        }
        return out;
    };
    data::Controller calibrated = file;
    calibrated.calibration_keep = 0.7;
    const auto by_file = roll_with(calibrated, {});
    CHECK(by_file == roll_with(file, {{"calibrate", 0.7}})); // the override is the file's value
    CHECK(by_file != roll_with(calibrated, {{"calibrate", 1.0}})); // 1 switches it off
    CHECK(roll_with(calibrated, {{"calibrate", 1.0}}) == roll_with(file, {}));
    CHECK_THROWS_WITH(roll_with(file, {{"calibrate", -0.5}}),
                      Catch::Contains("rnn.calibrate must be -1 (the file's) or in [0, 1]"));
}
