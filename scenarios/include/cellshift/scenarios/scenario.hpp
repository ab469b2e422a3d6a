#pragma once
// Seeded, deterministic workload scenarios for the 1-D slab balancing loop
// (docs/design.md section 4). A scenario is a per-slice workload history W_t(s) for
// events t = 0..E (E+1 rows: row 0 sets the initial partition, rows 1..E are the
// intervals the policy's decisions govern), the growth events and growth-cycle
// phase a policy may observe, and the sigma of the multiplicative measurement
// jitter on the times it observes. The objective always uses the noise-free W.
//
// The model, in domain coordinates x in [0, 1):
//   W_t(s) = base + cycle_t * [ sheet_t(x_s) + sum_c m_c(t) g(x_s; mu_c(t), sd_c(t)) ]
//            + sum_b burst_b(t)
// - a tissue sheet centred near 0.5 whose half-width grows (the tissue spreads),
// - many cell clusters inside it that grow (own rates), spread and drift,
// - division events: new clusters, born where the tissue is dense, that persist,
// - transient bursts that decay exponentially,
// - a growth cycle 1 + A sin(2 pi t / period + phase).
// See docs/scenarios.md for the calibration against the paper's regime.
//
// That model is the `paper` family (the default, calibrated to the paper's
// regime). The other named families (family_names()) cover what it does not:
// `broad` (the same model over far wider ranges: static imbalance from about 1%
// to several hundred %), `front` (a front sweeping the domain, empty ahead),
// `point` (growth from one to three points), `shift` (load that jumps), and
// `colonies` (separated colonies, wound-like gaps). Every family but `paper`
// draws 4 to 64 slices per rank (log-uniform).

#include "cellshift/controller/layout.hpp"
#include "cellshift/data/array2d.hpp"
#include "cellshift/data/trace.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace cellshift::scenarios {

// Closed ranges [lo, hi] from which each scenario draws its parameters.
struct Range {
    double lo;
    double hi;
};

struct ScenarioConfig {
    std::string family = "paper"; // one of family_names()
    std::int64_t ranks = 0;       // P; 0 draws P uniformly from [min_ranks, max_ranks]
    std::int64_t min_ranks = 2;
    std::int64_t max_ranks = 32;
    std::int64_t events = 100;            // E decisions (E+1 workload rows)
    Range slices{384, 1024};              // S, drawn; raised to P * min_width if smaller
    std::int64_t min_width = 8;           // slices per rank at least, on average
    Range w_min{1, 3};                    // drawn integer, at most a quarter of S/P
    Range jitter{0.01, 0.05};             // sigma of the log-normal measurement jitter
    Range base{0.02, 0.08};               // cost of an empty slice, relative to tissue
    Range sheet_half_width{0.22, 0.34};   // initial half-width of the tissue sheet
    Range sheet_spread{0.0001, 0.0006};   // growth of the half-width per event
    Range cluster_count{60, 140};         // clusters in the initial tissue
    Range cluster_growth{0.004, 0.012};   // mean growth rate of cluster mass per event
    Range growth_variation{0.05, 0.15};   // relative std of the clusters' growth rates
    Range cluster_drift{0.00003, 0.0001}; // std of a cluster's drift per event (domain = 1)
    Range division_rate{0.2, 1.0};        // new clusters per event
    Range burst_rate{0.05, 0.4};          // bursts per event
    Range cycle_amplitude{0.02, 0.1};
    Range cycle_period{20, 50};   // events
    Range slices_per_rank{4, 64}; // S / P, log-uniform: every family but `paper`
};

struct Scenario {
    std::uint64_t seed = 0;
    controller::Layout layout;
    data::Matrix workload;           // [E+1, S], noise-free
    data::Matrix growth_events;      // [E+1, S], division events born in each interval
    std::vector<double> cycle_phase; // [E+1], radians
    double jitter = 0.0;             // sigma of the observed-time jitter
    // [E+1, S] or empty: what the policy observes per slice instead of `workload`
    // (a simulator trace's live estimate, Trace::estimate); the runtime is always
    // charged with `workload`.
    data::Matrix estimate;

    std::int64_t events() const { return static_cast<std::int64_t>(workload.rows) - 1; }
    std::vector<double> row(std::int64_t t) const;
    std::vector<double> growth_row(std::int64_t t) const;
};

// The scenario families, `paper` first; the one-line summary of each.
std::vector<std::string> family_names();
std::string family_summary(const std::string& family);

// The named ranges of ScenarioConfig, for command lines and config files
// ("cluster_growth", ...); set_range throws std::invalid_argument for an unknown name.
std::vector<std::string> range_names();
void set_range(ScenarioConfig& config, const std::string& name, Range range);
Range get_range(const ScenarioConfig& config, const std::string& name);

// Throws std::invalid_argument for an inconsistent config (empty range, P < 1,
// events < 1, P * w_min > S, unknown family).
void validate(const ScenarioConfig& config);

Scenario generate_scenario(const ScenarioConfig& config, std::uint64_t seed);

// Multiplicative measurement noise on what rank `index` reports at event t:
// exp(sigma * N(0,1) - sigma^2 / 2) (mean 1), counter-based.
double jitter_factor(const Scenario& scenario, std::int64_t event, std::int64_t index,
                     std::uint64_t stream);

// A window of a recorded trace (cellshift-sim run --trace-out, or any
// cellshift.trace) as a scenario, so that training can replay real workloads:
// rows [start, start + events] of the trace, its slices merged `coarsen` at a
// time (S / coarsen slices; the remainder joins the last), P = `ranks`, the given
// w_min, and measurement jitter of sigma `jitter` keyed by `seed`. Throws
// std::invalid_argument when the window does not fit or P * w_min > S.
Scenario scenario_from_trace(const data::Trace& trace, std::int64_t start, std::int64_t events,
                             std::int64_t ranks, std::int64_t coarsen, std::int64_t w_min,
                             double jitter, std::uint64_t seed);

// The scenario as a trace file (workload, growth events, cycle phase).
data::Trace to_trace(const Scenario& scenario, const std::string& family = "paper");

} // namespace cellshift::scenarios
