#pragma once
// The residual GRU policy (`rnn`): one shared GRU cell keeps a hidden state per
// interior boundary; its head's residual r corrects the reactive proposal,
// ds = ds_max tanh(atanh(ds_r / ds_max) + r), and all moves go through the joint
// feasible update. alpha, tau and ds_max_fraction come from the controller file,
// so deployment uses exactly the constants the controller was trained with.

#include "cellshift/controller/features.hpp"
#include "cellshift/controller/policy.hpp"
#include "cellshift/controller/reactive.hpp"
#include "cellshift/data/controller_file.hpp"

#include <cstdint>
#include <memory>

namespace cellshift::controller {

// Throws std::invalid_argument if the controller's features are not the first 12
// (rank-time set) or all 16 of this build's features (names, order, clamp ranges).
// A 16-feature controller reads Observation::slice_workload.
std::unique_ptr<Policy> make_rnn_policy(const data::Controller& weights);

// An untrained controller: GRU weights drawn like PyTorch's default
// (uniform in +-1/sqrt(H), seeded), head zero. It reproduces `reactive` exactly.
data::Controller untrained_controller(const ReactiveParams& params, std::size_t hidden = 24,
                                      std::uint64_t seed = 0, std::size_t features = kFeatureCount);

} // namespace cellshift::controller
