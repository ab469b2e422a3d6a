// The modelled runtime (docs/design.md 8.1): hand-worked rollouts, term by term, and
// the reduction to the sum of the slowest ranks' times when migration is free.

#include "cellshift/controller/partition.hpp"
#include "cellshift/controller/registry.hpp"
#include "cellshift/data/trace.hpp"
#include "cellshift/eval/comparison.hpp"
#include "cellshift/eval/metrics.hpp"
#include "cellshift/eval/rollout.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <deque>

using namespace cellshift;

namespace {

// Moves its boundaries by a scripted list of moves, one entry per event.
class ScriptedPolicy : public controller::Policy {
public:
    explicit ScriptedPolicy(std::deque<std::vector<double>> moves) : moves_(std::move(moves)) {}

protected:
    controller::Boundaries next(const controller::Observation&) override {
        std::vector<double> m = moves_.front();
        moves_.pop_front();
        return apply_moves(m);
    }

private:
    std::deque<std::vector<double>> moves_;
};

// Holds, and keeps what every observation said about the run's end.
class EndWatcher : public controller::Policy {
public:
    std::vector<std::int64_t> seen;

protected:
    controller::Boundaries next(const controller::Observation& o) override {
        seen.push_back(o.intervals_left);
        return boundaries();
    }
};

data::Matrix rows(const std::vector<std::vector<double>>& r) {
    data::Matrix m(r.size(), r.front().size());
    for (std::size_t i = 0; i < r.size(); ++i)
        std::copy(r[i].begin(), r[i].end(), m.row(i));
    return m;
}

} // namespace

TEST_CASE("migration traffic charges each moved slice to its old and its new owner") {
    // Slices 2, 3 go from rank 1 to rank 0; slice 4 from rank 2 to rank 1.
    const std::vector<double> cost{1, 2, 3, 4, 5, 6};
    const auto traffic = eval::migration_traffic(cost, {0, 2, 4, 6}, {0, 4, 5, 6});
    CHECK(traffic == std::vector<double>{3 + 4, 3 + 4 + 5, 5});
    // A move past a whole rank: rank 1 hands everything on, rank 0 receives all of it.
    const auto far = eval::migration_traffic(cost, {0, 1, 2, 6}, {0, 3, 4, 6});
    CHECK(far == std::vector<double>{2 + 3, 2 + 4, 3 + 4});
    CHECK(eval::migration_traffic(cost, {0, 3, 6}, {0, 3, 6}) == std::vector<double>{0, 0});
}

TEST_CASE("runtime of a hand-worked two-rank rollout, every term") {
    // S = 4, P = 2. Row 0 splits evenly: b = {0, 2, 4}. Event 1 moves the boundary
    // to 1 (slice 1, cost 1 in interval 1, goes from rank 0 to rank 1); event 2 holds.
    const data::Matrix w = rows({{1, 1, 1, 1}, {3, 1, 1, 1}, {3, 1, 1, 2}});
    eval::WorkloadHistory h;
    h.workload = &w;
    const controller::Layout layout{4, 2, 1};
    const eval::MigrationCost cost{0.5, 0.1};

    ScriptedPolicy policy({{-1.0}, {0.0}});
    const eval::Rollout r = eval::run_rollout(policy, "scripted", layout, h, true, cost);
    // Interval 1: compute 3 and 3, traffic 1 each -> 3 + 0.5 = 3.5 on both ranks,
    // plus kappa x mean compute (0.1 x 3) because a boundary moved: 3.8.
    // Interval 2: nothing moves; compute 3 and 4: 4.
    CHECK(r.summary.runtime == Approx(3.8 + 4.0).epsilon(1e-14));
    // Static keeps {0, 2, 4}: interval 1 max(4, 2) = 4, interval 2 max(4, 3) = 4.
    CHECK(r.summary.static_runtime == Approx(8.0).epsilon(1e-14));
    CHECK(r.summary.runtime_vs_static() == Approx(7.8 / 8.0).epsilon(1e-14));
    CHECK(r.summary.migrated == 1);

    SECTION("mu = 0, kappa = 0 is the sum of the slowest ranks' times") {
        ScriptedPolicy free_moves({{-1.0}, {0.0}});
        const eval::Rollout f = eval::run_rollout(free_moves, "scripted", layout, h, true, {});
        double slowest = 0.0;
        for (std::size_t t = 0; t < f.record->rank_time.rows; ++t) {
            const double* row = f.record->rank_time.row(t);
            slowest += *std::max_element(row, row + f.record->rank_time.cols);
        }
        CHECK(f.summary.runtime == Approx(slowest).epsilon(1e-14));
        CHECK(f.summary.runtime == Approx(3.0 + 4.0).epsilon(1e-14));
    }
}

TEST_CASE("a rollout tells the policy how many intervals are left, the last one 1") {
    // Five rows: row 0 sets the partition, events 1..4 govern rows 1..4.
    const data::Matrix w = rows({{1, 1}, {1, 2}, {2, 1}, {1, 1}, {3, 1}});
    eval::WorkloadHistory h;
    h.workload = &w;
    EndWatcher policy;
    eval::run_rollout(policy, "watcher", controller::Layout{2, 2, 1}, h, false, {});
    CHECK(policy.seen == std::vector<std::int64_t>{4, 3, 2, 1});
}

TEST_CASE("a policy that never moves costs exactly static; moves cost more as mu grows") {
    // A policy that never moves has runtime_vs_static exactly 1 for any mu and kappa,
    // and a mover pays for its moves: more mu never makes it cheaper.
    const data::Matrix w = rows({{1, 2, 3, 4, 5, 6, 7, 8},
                                 {8, 7, 6, 5, 4, 3, 2, 1},
                                 {1, 1, 9, 9, 1, 1, 1, 1},
                                 {5, 1, 1, 1, 1, 1, 1, 5}});
    eval::WorkloadHistory h;
    h.workload = &w;
    const controller::Layout layout{8, 3, 1};
    for (double mu : {0.0, 0.01, 1.0}) {
        auto stay = controller::make_policy("static", {});
        CHECK(eval::run_rollout(*stay, "static", layout, h, false, {mu, 0.3})
                  .summary.runtime_vs_static() == 1.0);
    }
    double previous = 0.0;
    for (double mu : {0.0, 0.01, 0.1, 1.0}) {
        auto mover = controller::make_policy("persistence", {});
        const double runtime =
            eval::run_rollout(*mover, "persistence", layout, h, false, {mu, 0.0}).summary.runtime;
        CHECK(runtime >= previous);
        previous = runtime;
    }
}

TEST_CASE("a negative or NaN migration cost is refused") {
    CHECK_THROWS_WITH(eval::validate(eval::MigrationCost{-1.0, 0.0}),
                      Catch::Contains("--migration-cost"));
    CHECK_THROWS_WITH(eval::validate(eval::MigrationCost{0.0, std::nan("")}),
                      Catch::Contains("--rebalance-cost"));
}

TEST_CASE(
    "with an estimate the policy sees it per slice; rank times and runtime use the workload") {
    // A live run shows the policy an interaction estimate per slice and rank times
    // of the real cost; a trace that carries both must replay exactly that.
    const data::Matrix w = rows({{1, 2, 3, 4}, {4, 3, 2, 1}, {2, 2, 5, 1}});
    const data::Matrix estimate = rows({{10, 0, 0, 7}, {0, 30, 1, 1}, {9, 9, 9, 9}});
    eval::WorkloadHistory h;
    h.workload = &w;
    h.estimate = &estimate;
    const controller::Layout layout{4, 2, 1};

    class Recorder : public controller::Policy {
    public:
        std::vector<controller::Observation> seen;

    protected:
        controller::Boundaries next(const controller::Observation& o) override {
            seen.push_back(o);
            return boundaries();
        }
    } recorder;
    const eval::Rollout r = eval::run_rollout(recorder, "recorder", layout, h, false, {0.2, 0.0});
    REQUIRE(recorder.seen.size() == 2);
    const controller::Boundaries b0 = controller::split_equal_load({1, 2, 3, 4}, layout);
    for (std::size_t t = 0; t < 2; ++t) {
        const double* e = estimate.row(t);
        CHECK(recorder.seen[t].slice_workload == std::vector<double>(e, e + 4));
        const double* c = w.row(t);
        CHECK(recorder.seen[t].rank_times == controller::rank_sums({c, c + 4}, b0));
    }
    CHECK(r.summary.runtime == r.summary.static_runtime); // it held: static's cost, in workload

    const data::Matrix short_estimate = rows({{1, 1, 1, 1}});
    h.estimate = &short_estimate;
    auto persistence = controller::make_policy("persistence", {});
    CHECK_THROWS_WITH(eval::run_rollout(*persistence, "persistence", layout, h, false, {}),
                      Catch::Contains("estimate's shape"));
}

TEST_CASE("a trace replay observing the cost ignores the stored estimate") {
    // A peak that moves right, and an estimate that places it at the mirrored slice:
    // a policy that follows what it observes moves the wrong way on the estimate.
    data::Trace with_estimate;
    with_estimate.workload = rows({{8, 1, 1, 1, 1, 1},
                                   {1, 8, 1, 1, 1, 1},
                                   {1, 1, 8, 1, 1, 1},
                                   {1, 1, 1, 8, 1, 1},
                                   {1, 1, 1, 1, 8, 1}});
    with_estimate.estimate = rows({{1, 1, 1, 1, 1, 8},
                                   {1, 1, 1, 1, 8, 1},
                                   {1, 1, 1, 8, 1, 1},
                                   {1, 1, 8, 1, 1, 1},
                                   {1, 8, 1, 1, 1, 1}});
    data::Trace without_estimate = with_estimate;
    without_estimate.estimate.reset();
    // What the trace command's caption names is what the replay shows.
    CHECK(eval::observed_estimate(with_estimate, eval::TraceObservation::estimate) ==
          &*with_estimate.estimate);
    CHECK(eval::observed_estimate(with_estimate, eval::TraceObservation::cost) == nullptr);
    CHECK(eval::observed_estimate(without_estimate, eval::TraceObservation::estimate) == nullptr);
    const std::vector<eval::PolicySpec> specs{{"persistence", "persistence", {}}};
    const auto replay = [&](const data::Trace& t, eval::TraceObservation observe) {
        return eval::compare_on_trace(specs, t, {2, 3}, 1, 0.0, false, "test", 5e-4, {0.01, 0.0},
                                      observe)
            .rows;
    };
    const auto on_cost = replay(with_estimate, eval::TraceObservation::cost);
    const auto reference = replay(without_estimate, eval::TraceObservation::estimate);
    const auto on_estimate = replay(with_estimate, eval::TraceObservation::estimate);
    REQUIRE(on_cost.size() == 2);
    REQUIRE(reference.size() == 2);
    REQUIRE(on_estimate.size() == 2);
    for (std::size_t i = 0; i < on_cost.size(); ++i) {
        CHECK(on_cost[i].runtime == reference[i].runtime);
        CHECK(on_cost[i].migrated_slices == reference[i].migrated_slices);
        // Misled by the mirrored estimate, the same policy is slower.
        CHECK(on_estimate[i].runtime > on_cost[i].runtime);
    }
}
