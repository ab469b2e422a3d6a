#pragma once
// The 12 dimensionless per-boundary features of the residual controller (DESIGN
// section 3). This table is the one definition of their order, names and clamp
// ranges: the Eigen controller, the LibTorch surrogate and the controller files
// all take it from here.

#include "cellshift/controller/layout.hpp"

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
    kFeatureCount
};

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
}};

std::vector<std::string> feature_names();
std::vector<double> feature_clamp_min();
std::vector<double> feature_clamp_max();

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
};

// Half-width (in slices) of the window around a boundary in which growth events count.
std::int64_t growth_window(std::int64_t slices, std::int64_t ranks);

// Features of every interior boundary, clamped: one column per boundary, [F, P-1].
Eigen::MatrixXd compute_features(const FeatureInputs& in);

} // namespace cellshift::controller
