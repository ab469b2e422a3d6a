#pragma once
// The training loop of the residual GRU controller (docs/design.md section 4), short
// and linear like nanoGPT's: sample a batch of training scenarios, roll the
// differentiable loop 50 events, back-propagate through time, clip, step Adam
// with a cosine learning rate, anneal the temperature; every K steps validate on
// held-out validation seeds and keep the best controller; checkpoint to resume.

#include "train_config.hpp"

#include "cellshift/data/controller_file.hpp"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace cellshift::trainer {

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

TrainResult train(const TrainConfig& config, const std::string& config_text,
                  const std::function<void(const StepReport&)>& progress);

} // namespace cellshift::trainer
