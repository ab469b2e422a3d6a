#pragma once
// The reactive rule's parameters, shared by `reactive`, `reactive-max` and
// `rnn-zero` so that the three are the same rule. The default is the best point
// of the documented search on training seeds (docs/baselines.md): the lowest
// modelled runtime over every scenario family and three migration costs.

#include "cellshift/controller/reactive.hpp"
#include "style_definition.hpp"

#include <vector>

namespace cellshift::controller::styles {

struct ReactiveFields {
    double alpha = 0.0;
    double tau = 0.0;
    double ds_max_fraction = 0.0;
    ReactiveParams params() const { return ReactiveParams{alpha, tau, ds_max_fraction}; }
};

// The fields' table for any Fields struct derived from ReactiveFields.
template <class Fields>
std::vector<Field<Fields>> reactive_fields() {
    return {
        {"alpha", &Fields::alpha, 0.45, 1e-6, 10.0,
         "gain: fraction of the estimated excess moved per event"},
        {"tau", &Fields::tau, 0.02, 0.0, 2.0, "dead band: boundaries with |I| <= tau do not move"},
        {"ds_max_fraction", &Fields::ds_max_fraction, 1.0, 1e-6, 1.0,
         "largest move per boundary and event, x S/P (at least one slice)"},
    };
}

} // namespace cellshift::controller::styles
