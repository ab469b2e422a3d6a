// The migration-budget lower bound (eval/migration_bound): the displacement
// programme and the least imbalance against brute-force enumeration, a
// hand-worked case, the pooling against a hand-solved allocation, and the
// bound's promise itself: no policy, clairvoyant or not, lies below it.

#include "cellshift/controller/partition.hpp"
#include "cellshift/controller/registry.hpp"
#include "cellshift/eval/migration_bound.hpp"
#include "cellshift/eval/rollout.hpp"
#include "cellshift/scenarios/scenario.hpp"
#include "cellshift/scenarios/seeds.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdlib>
#include <functional>
#include <limits>
#include <random>

using namespace cellshift;
using controller::Boundaries;
using controller::Layout;

namespace {

// Every contiguous partition with widths >= w_min.
std::vector<Boundaries> all_partitions(const Layout& l) {
    std::vector<Boundaries> out;
    Boundaries b{0};
    std::function<void(std::int64_t)> rec = [&](std::int64_t k) {
        if (k == l.ranks) {
            if (l.slices - b.back() >= l.w_min) {
                b.push_back(l.slices);
                out.push_back(b);
                b.pop_back();
            }
            return;
        }
        for (std::int64_t c = b.back() + l.w_min; c <= l.slices - (l.ranks - k) * l.w_min; ++c) {
            b.push_back(c);
            rec(k + 1);
            b.pop_back();
        }
    };
    rec(1);
    return out;
}

std::int64_t displacement(const Boundaries& a, const Boundaries& b) {
    std::int64_t d = 0;
    for (std::size_t k = 0; k < a.size(); ++k) {
        d += std::llabs(a[k] - b[k]);
    }
    return d;
}

std::vector<double> prefix_of(const std::vector<double>& load) {
    std::vector<double> p(load.size() + 1, 0.0);
    for (std::size_t s = 0; s < load.size(); ++s) {
        p[s + 1] = p[s] + load[s];
    }
    return p;
}

struct SmallCase {
    Layout layout;
    std::vector<double> load;
    Boundaries anchor;
    std::vector<Boundaries> partitions;
};

SmallCase random_case(std::mt19937_64& rng) {
    SmallCase c;
    c.layout.ranks = std::uniform_int_distribution<std::int64_t>(1, 4)(rng);
    c.layout.w_min = std::uniform_int_distribution<std::int64_t>(1, 2)(rng);
    c.layout.slices =
        c.layout.ranks * c.layout.w_min + std::uniform_int_distribution<std::int64_t>(0, 9)(rng);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    for (std::int64_t s = 0; s < c.layout.slices; ++s) {
        c.load.push_back(u(rng) < 0.2 ? 0.0 : std::exp(2.0 * u(rng))); // zeros and a 7x range
    }
    c.partitions = all_partitions(c.layout);
    c.anchor =
        c.partitions[std::uniform_int_distribution<std::size_t>(0, c.partitions.size() - 1)(rng)];
    return c;
}

} // namespace

TEST_CASE("min_displacement equals brute-force enumeration", "[bound]") {
    std::mt19937_64 rng(20261203);
    for (int trial = 0; trial < 1500; ++trial) {
        const SmallCase c = random_case(rng);
        const std::vector<double> prefix = prefix_of(c.load);
        // Caps at every bottleneck some partition has, and just below them.
        const Boundaries& other = c.partitions[trial % c.partitions.size()];
        const double b = controller::bottleneck(c.load, other);
        for (double cap : {b, std::nextafter(b, 0.0), 0.5 * b, 2.0 * b}) {
            const std::int64_t limit = std::uniform_int_distribution<std::int64_t>(0, 12)(rng);
            std::int64_t best = -1;
            for (const auto& p : c.partitions) {
                const std::int64_t d = displacement(p, c.anchor);
                if (controller::bottleneck(c.load, p) <= cap && d <= limit &&
                    (best < 0 || d < best)) {
                    best = d;
                }
            }
            INFO("trial " << trial << ", P = " << c.layout.ranks << ", S = " << c.layout.slices
                          << ", cap " << cap << ", limit " << limit);
            CHECK(eval::min_displacement(prefix, c.layout, c.anchor, cap, limit) == best);
        }
    }
}

TEST_CASE("least_imbalance brackets the brute-force optimum from below", "[bound]") {
    std::mt19937_64 rng(7);
    const double tolerance = 1e-6;
    const std::vector<std::int64_t> budgets{0, 1, 2, 3, 5, 8, 40};
    for (int trial = 0; trial < 500; ++trial) {
        const SmallCase c = random_case(rng);
        double total = 0.0;
        for (double v : c.load) {
            total += v;
        }
        if (!(total > 0.0)) {
            continue;
        }
        const double mean = total / static_cast<double>(c.layout.ranks);
        const std::vector<double> g =
            eval::least_imbalance(c.load, c.layout, c.anchor, budgets, tolerance);
        for (std::size_t j = 0; j < budgets.size(); ++j) {
            double exact = std::numeric_limits<double>::infinity();
            for (const auto& p : c.partitions) {
                if (displacement(p, c.anchor) <= budgets[j]) {
                    exact = std::min(exact, controller::bottleneck(c.load, p) / mean - 1.0);
                }
            }
            INFO("trial " << trial << ", budget " << budgets[j]);
            CHECK(g[j] <= exact + 1e-12);             // a lower bound
            CHECK(g[j] >= exact - tolerance - 1e-12); // and a tight one
        }
    }
}

TEST_CASE("least_imbalance on a hand-worked case", "[bound]") {
    // Loads 1 1 1 3 on 2 ranks split 2 | 2: ranks carry 2 and 4 (mean 3), G = 1/3.
    // One slice to the right (cut at 3) gives 3 | 3, G = 0.
    const Layout l{4, 2, 1};
    const auto g = eval::least_imbalance({1, 1, 1, 3}, l, {0, 2, 4}, {0, 1, 2}, 1e-9);
    CHECK(g[0] == Approx(1.0 / 3.0).margin(1e-9));
    CHECK(g[1] == Approx(0.0).margin(1e-9));
    CHECK(g[2] == Approx(0.0).margin(1e-9));
}

TEST_CASE("pooled_bound solves a hand-worked allocation", "[bound]") {
    // Scenario 1 gains from migration (0.3, 0.1, 0.0 at 0, 1, 2 slices), scenario 2
    // does not (0.2 throughout). A mean budget of 0.5 (one slice for the two) is
    // best spent on scenario 1: (0.1 + 0.2) / 2 = 0.15.
    const std::vector<std::int64_t> budgets{0, 1, 2};
    const std::vector<std::vector<double>> curves{{0.3, 0.1, 0.0}, {0.2, 0.2, 0.2}};
    CHECK(eval::pooled_bound(curves, budgets, 0.5) == Approx(0.15).margin(1e-9));
    CHECK(eval::pooled_bound(curves, budgets, 0.0) == Approx(0.25).margin(1e-9));
    CHECK(eval::pooled_bound(curves, budgets, 1.0) == Approx(0.1).margin(1e-9));
    // Never above any integer allocation with the same mean budget.
    CHECK(eval::pooled_bound(curves, budgets, 1.0) <= (0.0 + 0.2) / 2 + 1e-12);
}

TEST_CASE("no policy lies below the migration bound, and the oracle meets its floor", "[bound]") {
    scenarios::ScenarioConfig config;
    config.ranks = 8;
    config.events = 30;
    for (std::uint64_t i = 0; i < 3; ++i) {
        const scenarios::Scenario sc =
            scenarios::generate_scenario(config, scenarios::evaluation_seed(i));
        eval::WorkloadHistory h;
        h.workload = &sc.workload;
        h.growth_events = &sc.growth_events;
        h.cycle_phase = &sc.cycle_phase;
        h.jitter = [&sc](std::int64_t t, std::int64_t k, std::uint64_t stream) {
            return scenarios::jitter_factor(sc, t, k, stream);
        };
        const std::int64_t unlimited = (sc.layout.ranks - 1) * sc.layout.slices;
        for (const char* name : {"static", "reactive", "seam", "holt", "oracle"}) {
            auto policy = controller::make_policy(name);
            const eval::Rollout r = eval::run_rollout(*policy, name, sc.layout, h, false);
            const auto f = eval::migration_bound_curve(sc.workload, sc.layout,
                                                       {r.summary.migrated, unlimited}, 1e-5);
            INFO("scenario " << i << ", " << name << ": imbalance " << r.summary.mean_imbalance
                             << ", migrated " << r.summary.migrated << ", bound " << f[0]);
            CHECK(r.summary.mean_imbalance >= f[0] - 1e-12);
            CHECK(f[1] <= f[0]);
            if (std::string(name) == "oracle") { // optimal in every interval: the floor
                CHECK(r.summary.mean_imbalance == Approx(f[1]).margin(1e-5));
            }
        }
    }
}
