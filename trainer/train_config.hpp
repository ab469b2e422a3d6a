#pragma once
// The trainer's settings, their command-line/config-file options and their
// validation. Torch-free, so that the config-file fuzz target (tests/fuzz) and
// the tool share one definition of every option.

#include "cellshift/controller/reactive.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace cellshift::trainer {

// What ES may fit (--es-parameters; evolution.cpp trained_values says what each holds).
inline const std::vector<std::string> kEsParameterSets{"all",  "head",     "blend",
                                                       "cost", "cost-all", "cost-forecast"};

struct TrainConfig {
    std::int64_t steps = 300;
    std::int64_t batch = 8;   // scenarios per step (one P, S, w_min per step)
    std::int64_t events = 50; // BPTT length
    std::int64_t min_ranks = 2;
    std::int64_t max_ranks = 32;
    std::int64_t hidden = 24;
    // Inputs of the GRU: 16 (the per-slice forecast's features included), 12 (the
    // rank-time set that every controller trained before them reads) or 18 (with the
    // host's migration costs; the forecast base reads these).
    std::int64_t features = 16;
    // What the GRU corrects: "reactive" (the paper's rule), "forecast" (holt's
    // equal-load split with these constants, controller/forecast_base.hpp) or "blend".
    std::string base = "reactive";
    double base_level_alpha = 0.6; // holt's registry default
    double base_trend_beta = 0.0;
    // The blend base's second (fast) forecaster: "blend" aims holt's move at a
    // per-boundary mix of both splits (controller/forecast_base.hpp); ES only.
    double fast_level_alpha = 1.0;
    double fast_trend_beta = 0.3;
    // The cost gate's horizon in intervals (0: none; data/controller_file.hpp), stored in
    // the file and active in ES's rollouts; the surrogate does not model it.
    double hold_horizon = 0.0;
    double calibration_keep = 1.0; // 1: the per-slice estimates are not calibrated
    int refine_split = 0; // 1: the gate's moves, 2: moves and holds refined to a minimax split
    // How the weights are fitted: "bptt" (back-propagation through the
    // differentiable surrogate) or "es" (evolution strategies on the deployed hard
    // loop, evolution.hpp: the relative runtime itself; needs --objective relative).
    std::string optimiser = "bptt";
    std::int64_t es_pairs = 16;        // antithetic pairs per ES step (2x rollouts per scenario)
    double es_sigma = 0.03;            // ES parameter noise
    std::string es_parameters = "all"; // one of kEsParameterSets (evolution.cpp)
    double lr = 3e-3;
    double lr_min = 1e-4;           // cosine annealing floor
    double grad_clip = 1.0;         // max global gradient norm
    double temperature_start = 1.0; // slices; annealed geometrically to
    double temperature_end = 0.05;
    double lambda = 5e-4;       // per moved slice and event
    double spread_weight = 1.0; // weight of the normalised spread in the loss
    // Round moves to whole slices in the training rollouts (straight-through). Off
    // by default: with whole-slice boundaries the gradient of the soft rank times
    // vanishes as T falls, and training stalls. Validation always rounds, so the
    // kept controller is chosen by the deployed arithmetic.
    bool round_moves = false;
    bool validate_rounded = true;        // validation with whole-slice moves (the deployed loop)
    controller::ReactiveParams reactive; // the rule the residual corrects (stored in the file)
    std::uint64_t seed = 1;
    std::int64_t validate_every = 25;
    std::int64_t validation_count = 8;
    int threads = 1;        // intra-op threads / ES rollout threads (results are deterministic)
    std::string checkpoint; // file to checkpoint to ("" = none)
    std::int64_t checkpoint_every = 50;
    bool resume = false;          // continue from `checkpoint`
    std::int64_t stop_after = -1; // stop (and checkpoint) after this step; for tests

    // What the rollouts minimise: "loss" (imbalance + spread + lambda x migration,
    // docs/design.md section 4), "runtime" (modelled runtime over perfect balance,
    // migration included, docs/design.md 8.1) at a mu drawn log-uniform per scenario, or
    // "relative" (that runtime over the base's on the same scenario, so a scenario
    // with a large imbalance does not outweigh the others).
    std::string objective = "loss";
    double migration_cost_min = 1e-3; // mu range of the runtime objective
    double migration_cost_max = 1.0;
    double rebalance_cost = 0.0; // kappa of the runtime objective
    // Generator families drawn with equal weight per step (scenarios::family_names()).
    std::vector<std::string> families{"paper"};
    // Recorded traces (cellshift.trace) replayed as training windows in a share
    // `trace_fraction` of the steps; validation_traces likewise for validation.
    // A path inside a folder named "evaluation" or "external" is refused: held-out
    // traces are for the final tables alone.
    std::vector<std::string> traces;
    std::vector<std::string> validation_traces;
    double trace_fraction = 0.3;
};

// Everything the command line of cellshift-train sets.
struct TrainCommandLine {
    TrainConfig config;
    std::string out = "out/train/gru24.h5";
    std::string log; // default: OUT without .h5 + .log.csv
    bool quiet = false;
    bool show_build = false;
};

// Adds every option of cellshift-train (and --config) to `app`.
void add_train_options(CLI::App& app, TrainCommandLine& line);

// Throws std::invalid_argument for inconsistent settings.
void validate(const TrainConfig& config);

} // namespace cellshift::trainer
