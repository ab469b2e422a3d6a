#include "cellshift/eval/migration_bound.hpp"

#include "cellshift/controller/partition.hpp"
#include "cellshift/eval/parallel_for.hpp"
#include "cellshift/scenarios/scenario.hpp"
#include "cellshift/scenarios/seeds.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <exception>
#include <functional>
#include <limits>
#include <mutex>
#include <stdexcept>
#include <thread>

namespace cellshift::eval {
namespace {

std::vector<double> prefix_sums(const double* load, std::size_t n) {
    std::vector<double> prefix(n + 1, 0.0);
    for (std::size_t s = 0; s < n; ++s) {
        prefix[s + 1] = prefix[s] + load[s];
    }
    return prefix;
}

// Part loads are prefix differences here as in controller/partition.cpp, so the
// cap that the bisection tests and the bottleneck it reports round alike.
double part_load(const std::vector<double>& prefix, std::int64_t from, std::int64_t to) {
    return prefix[static_cast<std::size_t>(to)] - prefix[static_cast<std::size_t>(from)];
}

} // namespace

std::int64_t min_displacement(const std::vector<double>& prefix, const controller::Layout& l,
                              const controller::Boundaries& anchor, double cap,
                              std::int64_t limit) {
    constexpr std::int64_t kNone = std::numeric_limits<std::int64_t>::max();
    const std::int64_t S = l.slices;
    const std::int64_t P = l.ranks;
    // Boundary k may only sit in [lo_k, hi_k]: w_min room on both sides, and no
    // further than `limit` from its anchor (or the displacement alone exceeds it).
    auto range_of = [&](std::int64_t k) {
        const std::int64_t a = anchor[static_cast<std::size_t>(k)];
        return std::pair<std::int64_t, std::int64_t>{std::max(k * l.w_min, a - limit),
                                                     std::min(S - (P - k) * l.w_min, a + limit)};
    };
    // cost[x - lo]: least displacement of b_1..b_k with b_k = x and parts 1..k
    // under the cap. Rank k+1 = [y, x) needs x - y >= w_min and load <= cap; both
    // ends of that window of y grow with x, so a monotone deque gives its minimum.
    std::int64_t prev_lo = 0;
    std::vector<std::int64_t> prev{0}; // b_0 = 0 costs nothing
    for (std::int64_t k = 1; k <= P; ++k) {
        auto [lo, hi] = k < P ? range_of(k) : std::pair<std::int64_t, std::int64_t>{S, S};
        if (lo > hi) {
            return -1;
        }
        const std::int64_t prev_hi = prev_lo + static_cast<std::int64_t>(prev.size()) - 1;
        std::vector<std::int64_t> cost(static_cast<std::size_t>(hi - lo + 1), kNone);
        std::deque<std::int64_t> window; // y values with increasing cost
        std::int64_t next_y = prev_lo;   // next y to enter the window
        std::int64_t first_y = prev_lo;  // smallest y whose part [y, x) is under the cap
        bool any = false;
        for (std::int64_t x = lo; x <= hi; ++x) {
            for (; next_y <= std::min(prev_hi, x - l.w_min); ++next_y) {
                const std::int64_t c = prev[static_cast<std::size_t>(next_y - prev_lo)];
                if (c == kNone) {
                    continue;
                }
                while (!window.empty() &&
                       prev[static_cast<std::size_t>(window.back() - prev_lo)] >= c) {
                    window.pop_back();
                }
                window.push_back(next_y);
            }
            while (first_y < x && part_load(prefix, first_y, x) > cap) {
                ++first_y;
            }
            while (!window.empty() && window.front() < first_y) {
                window.pop_front();
            }
            if (window.empty()) {
                continue;
            }
            const std::int64_t total =
                prev[static_cast<std::size_t>(window.front() - prev_lo)] +
                (k < P ? std::llabs(x - anchor[static_cast<std::size_t>(k)]) : 0);
            if (total <= limit) {
                cost[static_cast<std::size_t>(x - lo)] = total;
                any = true;
            }
        }
        if (!any) {
            return -1;
        }
        prev = std::move(cost);
        prev_lo = lo;
    }
    return prev.front();
}

std::vector<double> least_imbalance(const std::vector<double>& load, const controller::Layout& l,
                                    const controller::Boundaries& anchor,
                                    const std::vector<std::int64_t>& budgets, double tolerance) {
    if (!(tolerance > 0.0)) {
        throw std::invalid_argument("least_imbalance: tolerance must be > 0");
    }
    if (!std::is_sorted(budgets.begin(), budgets.end()) ||
        (!budgets.empty() && budgets.front() < 0)) {
        throw std::invalid_argument("least_imbalance: budgets must be ascending and >= 0");
    }
    controller::validate(l, anchor);
    const std::vector<double> prefix = prefix_sums(load.data(), load.size());
    const double mean = prefix.back() / static_cast<double>(l.ranks);
    std::vector<double> out(budgets.size(), 0.0);
    if (!(mean > 0.0)) {
        return out; // no load: every partition is balanced
    }
    // floor: the unconstrained optimum, below which no budget helps; start: the
    // anchor's own bottleneck, reachable with any budget.
    const double floor =
        controller::bottleneck(load, controller::optimal_partition(load, l, anchor));
    double feasible = controller::bottleneck(load, anchor);
    const double step = tolerance * mean;
    for (std::size_t j = 0; j < budgets.size(); ++j) {
        if (feasible - floor <= step) {
            out[j] = floor / mean - 1.0; // at the optimum: more budget cannot help
            continue;
        }
        // Invariant: a partition within budget has bottleneck <= hi; none has < lo.
        double lo = floor;
        double hi = feasible; // a smaller budget's answer stays reachable
        while (hi - lo > step) {
            const double mid = lo + 0.5 * (hi - lo);
            if (min_displacement(prefix, l, anchor, mid, budgets[j]) >= 0) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        feasible = hi;
        out[j] = lo / mean - 1.0; // the lower end: never above the true least imbalance
    }
    return out;
}

std::vector<double> migration_bound_curve(const data::Matrix& w, const controller::Layout& l,
                                          const std::vector<std::int64_t>& budgets,
                                          double tolerance) {
    if (w.rows < 2 || static_cast<std::int64_t>(w.cols) != l.slices) {
        throw std::invalid_argument("migration_bound_curve: need >= 2 rows of S slices");
    }
    const std::vector<double> row0(w.row(0), w.row(0) + w.cols);
    const controller::Boundaries anchor = controller::split_equal_load(row0, l);
    std::vector<double> curve(budgets.size(), 0.0);
    for (std::size_t t = 1; t < w.rows; ++t) {
        const std::vector<double> row(w.row(t), w.row(t) + w.cols);
        const std::vector<double> g = least_imbalance(row, l, anchor, budgets, tolerance);
        for (std::size_t j = 0; j < g.size(); ++j) {
            curve[j] += g[j];
        }
    }
    for (double& c : curve) {
        c /= static_cast<double>(w.rows - 1);
    }
    return curve;
}

double pooled_bound(const std::vector<std::vector<double>>& curves,
                    const std::vector<std::int64_t>& budgets, double mean_budget) {
    if (curves.empty() || budgets.empty()) {
        throw std::invalid_argument("pooled_bound: no curves or no budgets");
    }
    // For any mu >= 0 and any policy with migrations M_i (mean <= B) and
    // imbalances I_i >= f_i(M_i):
    //   mean I_i >= mean_i min_M [f_i(M) + mu M] - mu B.
    // f_i(M) >= f_i(budgets[j]) for budgets[j-1] < M <= budgets[j], so the inner
    // minimum over M is at least min_j f_i(budgets[j]) + mu (budgets[j-1] + 1).
    // (No M exceeds the last budget when it is (P-1) S, the most any partition
    // can lie from another.)
    auto dual = [&](double mu) {
        double sum = 0.0;
        for (const auto& f : curves) {
            double best = std::numeric_limits<double>::infinity();
            for (std::size_t j = 0; j < budgets.size(); ++j) {
                const double least_m = j == 0 ? 0.0 : static_cast<double>(budgets[j - 1] + 1);
                best = std::min(best, f[j] + mu * least_m);
            }
            sum += best;
        }
        return sum / static_cast<double>(curves.size()) - mu * mean_budget;
    };
    // Every mu gives a valid bound; take the best over a fine logarithmic grid.
    double best = dual(0.0);
    for (int i = 0; i <= 4000; ++i) {
        best = std::max(best, dual(1e-8 * std::pow(10.0, 8.0 * i / 4000.0)));
    }
    return best;
}

} // namespace cellshift::eval

namespace cellshift::eval {

std::vector<BoundRow> bound_on_scenarios(const PolicySpec& reference,
                                         const std::vector<double>& fractions,
                                         const ScenarioComparison& opt, double tolerance) {
    for (double f : fractions) {
        if (!(std::isfinite(f) && f >= 0.0)) {
            throw std::invalid_argument("budget fractions must be finite and >= 0");
        }
    }
    ScenarioComparison quiet = opt; // progress is reported for the bound, the slow part
    quiet.progress = nullptr;
    const ComparisonResult ref = compare_on_scenarios({reference}, quiet);
    std::vector<BoundRow> rows;
    for (std::size_t r = 0; r < opt.ranks.size(); ++r) {
        scenarios::ScenarioConfig config = opt.base;
        config.ranks = opt.ranks[r];
        config.events = opt.events;
        const std::size_t n = static_cast<std::size_t>(opt.count);
        // One budget grid for all scenarios (pooled_bound needs one): every
        // slice up to 32, then steps growing by ~15%, up to past (P-1) S for any
        // S. A scenario evaluates a budget beyond its own (P-1) S, the furthest
        // any partition lies from another, as (P-1) S: unlimited, its floor.
        std::vector<std::int64_t> grid;
        for (std::int64_t m = 0; m <= 32; ++m) {
            grid.push_back(m);
        }
        while (grid.back() < (std::int64_t{1} << 40)) {
            grid.push_back(grid.back() + grid.back() * 15 / 100);
        }
        std::vector<std::vector<double>> curves(n);
        std::vector<double> floors(n);
        std::mutex report;
        std::int64_t done = 0;
        parallel_for(n, opt.threads, [&](std::size_t i) {
            const scenarios::Scenario sc = scenarios::generate_scenario(
                config, scenarios::seed_in_range(opt.seed_base, opt.first_index + i));
            const std::int64_t all = (sc.layout.ranks - 1) * sc.layout.slices;
            std::vector<std::int64_t> mine;
            for (std::int64_t m : grid) {
                mine.push_back(std::min(m, all)); // past `all` every budget is unlimited
            }
            curves[i] = migration_bound_curve(sc.workload, sc.layout, mine, tolerance);
            floors[i] = curves[i].back();
            std::lock_guard<std::mutex> lock(report);
            ++done;
            if (opt.progress) {
                opt.progress(opt.ranks[r], done, opt.count);
            }
        });
        double floor = 0.0;
        for (double f : floors) {
            floor += f;
        }
        const ComparisonRow& row = ref.rows[r];
        for (double f : fractions) {
            BoundRow b;
            b.ranks = opt.ranks[r];
            b.reference = reference.label;
            b.reference_imbalance_pct = row.imbalance_pct;
            b.reference_migrated = row.migrated_slices;
            b.fraction = f;
            b.budget = f * row.migrated_slices;
            b.least_imbalance_pct = 100.0 * pooled_bound(curves, grid, b.budget);
            b.floor_imbalance_pct = 100.0 * floor / static_cast<double>(n);
            b.scenarios = opt.count;
            rows.push_back(b);
        }
    }
    return rows;
}

} // namespace cellshift::eval

namespace cellshift::eval {

std::string bound_to_markdown(const std::vector<BoundRow>& rows) {
    std::string out = "| P | reference | reference imbalance | reference migrated | budget | least "
                      "imbalance possible | floor (no budget) |\n"
                      "| ---: | --- | ---: | ---: | ---: | ---: | ---: |\n";
    char line[256];
    for (const auto& r : rows) {
        std::snprintf(line, sizeof line,
                      "| %lld | %s | %.2f%% | %.1f | %.1f (x %.2f) | %.2f%% | %.2f%% |\n",
                      static_cast<long long>(r.ranks), r.reference.c_str(),
                      r.reference_imbalance_pct, r.reference_migrated, r.budget, r.fraction,
                      r.least_imbalance_pct, r.floor_imbalance_pct);
        out += line;
    }
    return out;
}

std::string bound_to_csv(const std::vector<BoundRow>& rows) {
    std::string out = "ranks,reference,reference_imbalance_pct,reference_migrated,fraction,budget,"
                      "least_imbalance_pct,floor_imbalance_pct,scenarios\n";
    char line[256];
    for (const auto& r : rows) {
        std::snprintf(line, sizeof line, "%lld,%s,%.6f,%.4f,%.6g,%.4f,%.6f,%.6f,%lld\n",
                      static_cast<long long>(r.ranks), r.reference.c_str(),
                      r.reference_imbalance_pct, r.reference_migrated, r.fraction, r.budget,
                      r.least_imbalance_pct, r.floor_imbalance_pct,
                      static_cast<long long>(r.scenarios));
        out += line;
    }
    return out;
}

} // namespace cellshift::eval
