#include "cellshift/controller/partition.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <stdexcept>

namespace cellshift::controller {
namespace {

std::vector<double> prefix_sums(const std::vector<double>& load) {
    std::vector<double> prefix(load.size() + 1, 0.0);
    for (std::size_t s = 0; s < load.size(); ++s) {
        prefix[s + 1] = prefix[s] + load[s];
    }
    return prefix;
}

// reachable[k][e]: slices [0, e) can be split into k parts of >= w_min slices,
// each of load <= limit, and the rest [e, S) could still take the other P - k
// parts (at most (P - k) * limit of load and >= (P - k) * w_min slices left: a
// necessary condition, so the pruning is exact). Part k+1 from a reachable
// start s may end anywhere in [s + w_min, M(s)], M(s) the last end with load
// <= limit; the sets are built with a difference array. Near the optimum the
// pruning leaves a window of about P slices per row, so one check costs about
// P * (window) rather than P * S. Returns no rows when [0, S) cannot be split;
// otherwise all P+1 rows when `keep_all`, else just the last one (the
// bisection only asks whether a split exists).
std::vector<std::vector<char>> reachable_ends(const std::vector<double>& prefix, const Layout& l,
                                              double limit, bool keep_all) {
    const std::size_t slices = static_cast<std::size_t>(l.slices);
    const std::size_t w = static_cast<std::size_t>(l.w_min);
    const std::size_t parts = static_cast<std::size_t>(l.ranks);
    const double total = prefix[slices];
    // The prune compares sums of part loads with a multiple of the limit: leave
    // room for rounding, so that it never drops an end that can complete.
    const double slack = 1e-12 * std::max(total, limit);
    std::vector<std::vector<char>> reach(keep_all ? parts + 1 : 2,
                                         std::vector<char>(slices + 1, 0));
    reach[0][0] = 1;
    std::size_t first = 0; // the nonzero entries of the current row lie in [first, last]
    std::size_t last = 0;
    std::vector<int> diff(slices + 2, 0);
    for (std::size_t step = 0; step < parts; ++step) {
        const std::size_t k = keep_all ? step : 0;
        std::vector<char>& from = reach[k];
        std::vector<char>& to = reach[k + 1];
        if (!keep_all) {
            std::fill(to.begin(), to.end(), 0); // the row of two steps back
        }
        std::size_t end = 0; // two-pointer: M(s) is nondecreasing in s
        std::size_t touched_lo = slices + 1;
        std::size_t touched_hi = 0;
        for (std::size_t s = first; s <= last && s + w <= slices; ++s) {
            if (!from[s]) {
                continue;
            }
            end = std::max(end, s + w);
            while (end + 1 <= slices && prefix[end + 1] - prefix[s] <= limit) {
                ++end;
            }
            if (prefix[s + w] - prefix[s] > limit) {
                continue; // even the narrowest part is too heavy
            }
            diff[s + w] += 1;
            diff[end + 1] -= 1;
            touched_lo = std::min(touched_lo, s + w);
            touched_hi = std::max(touched_hi, end + 1);
        }
        if (touched_lo > touched_hi) {
            return {};
        }
        const std::size_t left = parts - step - 1; // parts still to place after this one
        const double most_left = static_cast<double>(left) * limit + slack;
        bool any = false;
        int running = 0;
        for (std::size_t e = touched_lo; e <= touched_hi; ++e) {
            running += diff[e];
            diff[e] = 0;
            if (e > slices || running <= 0) {
                continue;
            }
            if (e + left * w <= slices && total - prefix[e] <= most_left) {
                to[e] = 1;
                first = any ? first : e;
                last = e;
                any = true;
            }
        }
        if (!any) {
            return {};
        }
        if (!keep_all) {
            std::swap(reach[0], reach[1]);
        }
    }
    if (!reach[keep_all ? parts : 0][slices]) {
        return {};
    }
    if (!keep_all) {
        reach.pop_back();
    }
    return reach;
}

} // namespace

Boundaries split_equal_load(const std::vector<double>& load, const Layout& l) {
    validate(l);
    const std::vector<double> prefix = prefix_sums(load);
    const double total = prefix.back();
    Boundaries b(static_cast<std::size_t>(l.ranks + 1), 0);
    b.back() = l.slices;
    std::size_t s = 0;
    for (std::int64_t k = 1; k < l.ranks; ++k) {
        double target = total * static_cast<double>(k) / static_cast<double>(l.ranks);
        while (s < load.size() && prefix[s + 1] < target) {
            ++s;
        }
        // prefix[s] < target <= prefix[s+1] (or the end): take the nearer cut.
        std::int64_t cut = static_cast<std::int64_t>(s);
        if (s < load.size() && prefix[s + 1] - target < target - prefix[s]) {
            cut += 1;
        }
        if (total <= 0.0) {
            cut = k * l.slices / l.ranks; // no load at all: equal widths
        }
        std::int64_t lo = b[static_cast<std::size_t>(k - 1)] + l.w_min;
        std::int64_t hi = l.slices - (l.ranks - k) * l.w_min;
        b[static_cast<std::size_t>(k)] = std::clamp(cut, lo, hi);
    }
    return b;
}

namespace {

// Part loads are prefix-sum differences everywhere in this file, so that the
// bisection, the reachability check and bottleneck() round identically.
double bottleneck_of(const std::vector<double>& prefix, const Boundaries& b) {
    double worst = 0.0;
    for (std::size_t p = 0; p + 1 < b.size(); ++p) {
        worst = std::max(worst, prefix[static_cast<std::size_t>(b[p + 1])] -
                                    prefix[static_cast<std::size_t>(b[p])]);
    }
    return worst;
}

} // namespace

double bottleneck(const std::vector<double>& load, const Boundaries& b) {
    return bottleneck_of(prefix_sums(load), b);
}

Boundaries optimal_partition(const std::vector<double>& load, const Layout& l,
                             const Boundaries& prefer) {
    validate(l);
    const std::vector<double> prefix = prefix_sums(load);
    // hi is always feasible (the equal split achieves it), lo never is.
    double hi = bottleneck_of(prefix, split_equal_load(load, l));
    double lo = std::max(0.0, prefix.back() / static_cast<double>(l.ranks));
    lo = std::nextafter(lo, -1.0);
    while (true) {
        double mid = lo + 0.5 * (hi - lo);
        if (mid <= lo || mid >= hi) {
            break; // lo and hi are adjacent doubles: hi is the optimum
        }
        if (reachable_ends(prefix, l, mid, /*keep_all=*/false).empty()) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    auto reach = reachable_ends(prefix, l, hi, /*keep_all=*/true);
    if (reach.empty()) {
        throw std::logic_error("optimal_partition: the equal-load split is not reachable");
    }
    // Walk back from the end; cut k must be reachable with k parts and leave a
    // part [cut, next) of >= w_min slices and load <= hi.
    Boundaries b(static_cast<std::size_t>(l.ranks + 1), 0);
    b.back() = l.slices;
    for (std::int64_t k = l.ranks - 1; k >= 1; --k) {
        const std::int64_t next = b[static_cast<std::size_t>(k + 1)];
        const std::int64_t want = prefer[static_cast<std::size_t>(k)];
        std::int64_t best = -1;
        for (std::int64_t cut = next - l.w_min; cut >= k * l.w_min; --cut) {
            if (prefix[static_cast<std::size_t>(next)] - prefix[static_cast<std::size_t>(cut)] >
                hi) {
                break; // moving further left only adds load
            }
            if (reach[static_cast<std::size_t>(k)][static_cast<std::size_t>(cut)] &&
                (best < 0 || std::llabs(cut - want) < std::llabs(best - want))) {
                best = cut;
            }
        }
        b[static_cast<std::size_t>(k)] = best;
    }
    return b;
}

} // namespace cellshift::controller
