#pragma once
// Between the LibTorch model and the controller file: PyTorch's GRUCell layout
// (gate blocks r, z, n) is the file's layout, so export is a copy.

#include "cellshift/controller/reactive.hpp"
#include "cellshift/data/controller_file.hpp"
#include "cellshift/surrogate/soft_loop.hpp"

namespace cellshift::surrogate {

data::Controller to_controller(ResidualGru& model, const controller::ReactiveParams& params,
                               const data::TrainingProvenance& provenance);

// Copies the file's weights into the model (sizes must match).
void load_weights(ResidualGru& model, const data::Controller& controller);

} // namespace cellshift::surrogate
