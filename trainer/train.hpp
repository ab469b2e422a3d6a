#pragma once
// The training loop of the residual GRU controller (DESIGN section 4), short
// and linear like nanoGPT's: sample a batch of training scenarios, roll the
// differentiable loop 50 events, back-propagate through time, clip, step Adam
// with a cosine learning rate, anneal the temperature; every K steps validate on
// held-out validation seeds and keep the best controller; checkpoint to resume.

#include "cellshift/controller/reactive.hpp"
#include "cellshift/data/controller_file.hpp"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace cellshift::trainer {

struct TrainConfig {
    std::int64_t steps = 300;
    std::int64_t batch = 8;   // scenarios per step (one P, S, w_min per step)
    std::int64_t events = 50; // BPTT length
    std::int64_t min_ranks = 2;
    std::int64_t max_ranks = 32;
    std::int64_t hidden = 24;
    double lr = 3e-3;
    double lr_min = 1e-4;           // cosine annealing floor
    double grad_clip = 1.0;         // max global gradient norm
    double temperature_start = 1.0; // slices; annealed geometrically to
    double temperature_end = 0.05;
    double lambda = 5e-4; // per moved slice and event
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
    int threads = 1;        // intra-op threads (results are deterministic per count)
    std::string checkpoint; // file to checkpoint to ("" = none)
    std::int64_t checkpoint_every = 50;
    bool resume = false;          // continue from `checkpoint`
    std::int64_t stop_after = -1; // stop (and checkpoint) after this step; for tests
};

struct StepReport {
    std::int64_t step = 0;
    double loss = 0, imbalance = 0, migrated = 0, temperature = 0, lr = 0;
    double validation = -1; // objective on validation seeds, when validated at this step
    double seconds = 0;     // since the start of this run
};

struct TrainResult {
    data::Controller best; // the controller with the best validation objective
    double best_validation = 0.0;
    double initial_validation = 0.0; // the zero-head (reactive) start
    std::int64_t steps_done = 0;
};

// Throws std::invalid_argument for inconsistent settings.
void validate(const TrainConfig& config);

TrainResult train(const TrainConfig& config, const std::string& config_text,
                  const std::function<void(const StepReport&)>& progress);

} // namespace cellshift::trainer
