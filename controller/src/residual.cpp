#include "cellshift/controller/residual.hpp"

#include <algorithm>
#include <cmath>

namespace cellshift::controller {

double residual_move(double reactive_ds, double residual, double ds_max) {
    if (residual == 0.0 || ds_max <= 0.0) {
        return reactive_ds;
    }
    double x = std::clamp(reactive_ds / ds_max, -kAtanhClip, kAtanhClip);
    return ds_max * std::tanh(std::atanh(x) + residual);
}

} // namespace cellshift::controller
