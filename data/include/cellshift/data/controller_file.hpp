#pragma once
// The frozen controller file (format "cellshift.controller", docs/design.md section 6):
// one GRU cell with shared weights (PyTorch gate order r, z, n), a linear head,
// the constants of the reactive rule, and the clamp range of every feature.
// Version 2 adds the base proposal the GRU corrects (`base`) and the per-slice
// forecaster's constants; a version-1 file loads as a `reactive` base with the
// forecast features' thrifty forecaster (0.1, 0.05).

#include "cellshift/data/array2d.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace cellshift::data {

inline constexpr const char* kControllerFormat = "cellshift.controller";
inline constexpr int kControllerFormatVersion = 2;

// Where the weights came from: enough to rerun the training.
struct TrainingProvenance {
    std::uint64_t seed = 0;
    std::int64_t steps = 0;
    double lambda = 0.0; // L1 migration penalty per moved slice
    std::string commit;  // source revision of the trainer, "unknown" if not known
    std::string config;  // the full training configuration, as text
    std::vector<double> loss_history;
};

// The proposal the GRU corrects (controller/base.hpp says what each one means).
inline constexpr const char* kReactiveBase = "reactive";
inline constexpr const char* kForecastBase = "forecast";
// The forecast base's move, aimed at a per-boundary blend of two Holt splits: the
// base forecaster's and a faster one's (fast_level_alpha, fast_trend_beta).
inline constexpr const char* kBlendBase = "blend";

// The per-slice forecaster of every file before version 2 (the forecast features'
// thrifty smoothing); controller/features.hpp takes its defaults from here.
inline constexpr double kV1ForecastLevelAlpha = 0.1;
inline constexpr double kV1ForecastTrendBeta = 0.05;

struct Controller {
    std::string base = kReactiveBase;       // kReactiveBase, kForecastBase or kBlendBase
    std::vector<std::string> feature_names; // [F], in input order
    std::vector<double> clamp_min;          // [F], each feature is clamped to
    std::vector<double> clamp_max;          // [F]   [clamp_min, clamp_max]
    double ds_max_fraction = 0.0;           // ds_max as a fraction of the mean width S/P
    double alpha = 0.0;                     // reactive rule gain
    double tau = 0.0;                       // reactive rule threshold on |I|
    // Holt's constants of the per-slice forecast (the forecast features, and the
    // forecast base's target).
    double forecast_level_alpha = kV1ForecastLevelAlpha;
    double forecast_trend_beta = kV1ForecastTrendBeta;
    // The blend base's second forecaster (written for that base only).
    double fast_level_alpha = 1.0;
    double fast_trend_beta = 0.3;
    // The cost gate of the forecast bases (controller/forecast_base.hpp): a move is
    // made only if the forecast says it pays within this many intervals, migration
    // included; 0 (the default, and every file without the attribute): no gate.
    double hold_horizon = 0.0;
    // The per-slice estimates' calibration against the measured rank times
    // (controller/rank_time_calibration.hpp): its memory per event, in [0, 1]; 1 (the
    // default, and every file without the attribute): off.
    double calibration_keep = 1.0;
    // The gate's minimax refinement (controller/forecast_base.hpp refine_move): 1 the
    // gate's moves, 2 its moves and its holds, 0 (the default, and every file without
    // the attribute) off. Needs the gate.
    double refine_split = 0.0;

    Matrix weight_ih;              // [3H, F]
    Matrix weight_hh;              // [3H, H]
    std::vector<double> bias_ih;   // [3H]
    std::vector<double> bias_hh;   // [3H]
    Matrix head_weight;            // [O, H]: O = 1 (reactive base: the residual) or
    std::vector<double> head_bias; // [O]     2 (forecast base: gain and correction)
    // The head's linear read of the features themselves, [O, F] (a skip connection:
    // outputs = head_weight h + head_input_weight x + head_bias), or empty for none. It
    // lets an output follow an input such as the migration cost directly, where through
    // the GRU state it would have to be learned first.
    Matrix head_input_weight;

    TrainingProvenance training;

    std::size_t hidden_size() const { return weight_hh.cols; }
    std::size_t feature_count() const { return feature_names.size(); }
    // Head outputs: reactive 1 (residual), forecast 2 (gain, correction), blend 3
    // (gain, correction, blend weight).
    std::size_t output_count() const {
        return base == kBlendBase ? 3 : base == kForecastBase ? 2 : 1;
    }
    std::size_t parameter_count() const {
        return weight_ih.values.size() + weight_hh.values.size() + bias_ih.size() + bias_hh.size() +
               head_weight.values.size() + head_bias.size() + head_input_weight.values.size();
    }
};

// The cost gate's horizon rule, one place for the file, the rnn style's override
// and the trainer: 0 (no gate) or in [1, 1e6] intervals.
inline bool valid_hold_horizon(double h) {
    return h == 0.0 || (h >= 1.0 && h <= 1e6);
}

// The calibration's memory, one rule for the file, the rnn style's override and the
// trainer: in [0, 1] (1: off).
inline bool valid_calibration_keep(double keep) {
    return keep >= 0.0 && keep <= 1.0;
}

// The minimax refinement's switch, one rule for the file, the rnn style's override and
// the trainer: 0 (off), 1 (the gate's moves) or 2 (its moves and its holds).
inline constexpr double kRefineMoves = 1.0;
inline constexpr double kRefineMovesAndHolds = 2.0;
inline bool valid_refine_split(double r) {
    return r == 0.0 || r == kRefineMoves || r == kRefineMovesAndHolds;
}
inline constexpr const char* kRefineSplitValues =
    "0 (off), 1 (the gate's moves) or 2 (its moves and holds)";

// Checks shapes, finiteness and ranges; throws Error naming `where`.
void validate(const Controller& controller, const std::string& where);

// How a reader protects its process from the HDF5 library crashing on a corrupt
// file (data/src/guarded_read.hpp). The command-line tools validate in a forked
// child first; a library linked into a host (the C API, inside an MPI rank, where
// fork() is unsafe with several interconnects) reads in its own process only.
enum class ReadGuard { child_process, in_process };

// Reads and validates; throws Error with one line naming the file and the problem.
Controller read_controller(const std::string& path, ReadGuard guard = ReadGuard::child_process);

// Validates, then writes atomically (temporary file, flush, rename).
void write_controller(const std::string& path, const Controller& controller);

} // namespace cellshift::data
