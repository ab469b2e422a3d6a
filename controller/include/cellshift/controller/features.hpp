#pragma once
// The dimensionless per-boundary features of the residual controller. This table
// is the one definition of their order, names and clamp ranges: the Eigen
// controller, the LibTorch surrogate and the controller files all take it from here.
//
// The first 12 are docs/design.md section 3's and need only the measured rank times. The
// last 4 (issue 4's migration bar) read a smoothed forecast of the per-slice
// workload: where the load sits inside the ranks, which the rank times cannot show.
// The last 2 (issue 22) are the host's migration and rebalancing costs, so that one
// controller learns how much a move is worth on a CPU and on a GPU cluster.
// A controller file uses the first F of them: F = 12 (the rank-time set, every file
// trained before the forecast features), 16 (the forecast set) or 18 (all, with the
// costs: what the forecast and blend bases read).
// (Two forecast-choice features for the blend base, F = 20, were tried in issue 22
// and removed: the cost gate's choice of forecast made them redundant,
// docs/research_log.md, sessions 6 and 8.)

#include "cellshift/controller/layout.hpp"
#include "cellshift/data/controller_file.hpp"

#include <Eigen/Core>

#include <array>
#include <cstddef>
#include <vector>

namespace cellshift::controller {

struct FeatureSpec {
    const char* name;
    double min; // every feature is clamped to [min, max]
    double max;
    const char* meaning;
};

enum FeatureIndex : std::size_t {
    kLocalImbalance,
    kGlobalImbalance,
    kLeftWidth,
    kRightWidth,
    kLeftSlack,
    kRightSlack,
    kPreviousMove,
    kCycleSin,
    kCycleCos,
    kGrowthNearBoundary,
    kReactiveProposal,
    kLocalImbalanceChange,
    kTargetOffset,
    kHeavyExcess,
    kForecastImbalance,
    kSliceOverDsMax,
    kMigrationCost,
    kRebalanceCost,
    kFeatureCount
};

// The rank-time feature set: the first 12 features.
inline constexpr std::size_t kRankTimeFeatureCount = kTargetOffset;
// The forecast feature set: the first 16 (files trained before the cost features).
inline constexpr std::size_t kForecastFeatureCount = kMigrationCost;
// With the host's costs: all 18 (what the forecast and blend bases need).
inline constexpr std::size_t kCostFeatureCount = kFeatureCount;

// The cost features' scale: log10(mu / kReferenceMigrationCost) / 2, so the CPU
// figure 0.0075 reads -1.06, a GPU rank's 0.1 reads -0.5 and mu = 1 reads 0.
inline constexpr double kReferenceMigrationCost = 1.0;

inline constexpr std::array<FeatureSpec, kFeatureCount> kFeatures{{
    {"local_imbalance", -2.0, 2.0,
     "I = (T+ - T-) / ((T+ + T-)/2) of the two ranks at the boundary"},
    {"global_imbalance", 0.0, 4.0, "max_p T_p / mean_p T_p - 1 over all ranks"},
    {"left_width", 0.0, 4.0, "slices of the left rank / mean width S/P"},
    {"right_width", 0.0, 4.0, "slices of the right rank / mean width S/P"},
    {"left_slack", 0.0, 4.0, "(left slices - w_min) / mean width"},
    {"right_slack", 0.0, 4.0, "(right slices - w_min) / mean width"},
    {"previous_move", -1.0, 1.0, "the boundary's move at the previous event / ds_max"},
    {"cycle_sin", -1.0, 1.0, "sin of the growth-cycle phase"},
    {"cycle_cos", -1.0, 1.0, "cos of the growth-cycle phase"},
    {"growth_near_boundary", -1.0, 1.0,
     "(growth events right - left) / max(1, right + left), within half a mean width of the "
     "boundary"},
    {"reactive_proposal", -1.0, 1.0, "the reactive rule's move / ds_max"},
    {"local_imbalance_change", -2.0, 2.0, "I now - I at the previous event"},
    {"target_offset", -4.0, 4.0,
     "(equal-load split of the smoothed per-slice forecast - boundary) / ds_max"},
    {"heavy_excess", -2.0, 8.0,
     "(heavier neighbour's forecast load / mean forecast load - 1) x S/P, in slices of a "
     "mean-width rank"},
    {"forecast_imbalance", -2.0, 2.0,
     "(F+ - F-) / ((F+ + F-)/2) of the two ranks' smoothed forecast loads"},
    {"slice_over_ds_max", 0.0, 2.0, "one slice / ds_max: how coarse a whole-slice move is"},
    {"migration_cost", -3.0, 1.0,
     "log10(mu) / 2: the host's cost of moving one unit of load, in units of that load's "
     "compute time (mu, docs/design.md 8.1)"},
    {"rebalance_cost", 0.0, 1.0,
     "kappa: the fixed cost of an event that moves anything, as a fraction of the mean "
     "rank time"},
}};

// The per-slice forecast behind the target_offset, heavy_excess and forecast_imbalance
// features: Holt's smoothing of the observed per-slice workload with these weights
// (lazy-holt's thrifty setting: one interval's jitter and a burst barely move it).
inline constexpr double kForecastLevelAlpha = data::kV1ForecastLevelAlpha;
inline constexpr double kForecastTrendBeta = data::kV1ForecastTrendBeta;

// Names and clamp ranges of the first `count` features.
std::vector<std::string> feature_names(std::size_t count = kFeatureCount);
std::vector<double> feature_clamp_min(std::size_t count = kFeatureCount);
std::vector<double> feature_clamp_max(std::size_t count = kFeatureCount);

// What the features of one event are computed from.
struct FeatureInputs {
    const std::vector<double>* rank_times = nullptr; // [P] observed times
    const Boundaries* boundaries = nullptr;          // [P+1] that governed them
    std::int64_t w_min = 1;
    double ds_max = 1.0;                                 // slices
    const std::vector<double>* previous_moves = nullptr; // [P-1] executed moves, last event
    double cycle_phase = 0.0;                            // radians
    const std::vector<double>* growth_events = nullptr;  // [S] or null when unknown
    const std::vector<double>* reactive = nullptr;       // [P-1] reactive proposals
    const std::vector<double>* previous_local_imbalance = nullptr; // [P-1]
    // The per-slice forecast's loads and split; both null for the rank-time set
    // (the forecast features are then 0).
    const std::vector<double>* forecast_loads = nullptr; // [P] forecast load on the boundaries
    const Boundaries* forecast_target = nullptr;         // [P+1] its equal-load split
    double migration_cost = 0.0; // mu of the host (Observation::migration_cost)
    double rebalance_cost = 0.0; // kappa of the host
};

// The migration_cost feature of mu (before clamping); mu <= 0 reads as 1e-6.
double migration_cost_feature(double mu);

// Half-width (in slices) of the window around a boundary in which growth events count.
std::int64_t growth_window(std::int64_t slices, std::int64_t ranks);

// Features of every interior boundary, clamped: one column per boundary, [F, P-1].
Eigen::MatrixXd compute_features(const FeatureInputs& in);

} // namespace cellshift::controller
