#pragma once
// The bounded residual correction of docs/design.md section 3:
//     ds = ds_max * tanh( atanh(ds_r / ds_max) + r ),
// with the atanh argument clipped to +-(1 - 1e-6). A zero residual returns the
// reactive proposal itself, so a zero-head controller reproduces the reactive
// rule bit for bit (tanh(atanh(x)) is x only up to rounding).

namespace cellshift::controller {

inline constexpr double kAtanhClip = 1.0 - 1e-6;

double residual_move(double reactive_ds, double residual, double ds_max);

} // namespace cellshift::controller
