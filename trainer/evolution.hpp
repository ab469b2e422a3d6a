#pragma once
// Training by evolution strategies on the deployed loop (`--optimiser es`).
//
// Why: the surrogate's gradient (soft boundaries, straight-through whole-slice
// rounding) is not a descent direction for the runtime of the loop the controller
// is deployed in: BPTT never brought the forecast base's training loss below 1
// (docs/controller.md). ES estimates the gradient of the hard loop's runtime
// itself, smoothed by Gaussian parameter noise, from antithetic pairs that share
// their scenarios (common random numbers):
//   g = 1/(2 n sigma) sum_j [f(theta + sigma e_j) - f(theta - sigma e_j)] e_j,
// f = mean over the step's scenarios of runtime / the base's runtime (1 = the
// zero-head base), and Adam takes the step. Every rollout is the Eigen policy in
// eval::run_rollout, exactly what cellshift-eval and the simulator run, so the
// number that training minimises is the number the tables report. Torch-free.

#include "train.hpp"

namespace cellshift::trainer {

TrainResult train_evolution(const TrainConfig& config, const std::string& config_text,
                            const std::function<void(const StepReport&)>& progress);

} // namespace cellshift::trainer
