#include "cellshift/data/controller_file.hpp"

#include "cellshift/data/error.hpp"
#include "checks.hpp"
#include "guarded_read.hpp"
#include "hdf5_io.hpp"

#include <cmath>

namespace cellshift::data {

void validate(const Controller& c, const std::string& where) {
    const std::size_t f = c.feature_count();
    const std::size_t h = c.hidden_size();
    if (c.base != kReactiveBase && c.base != kForecastBase && c.base != kBlendBase) {
        fail(where, "unknown base '" + c.base + "' (known: reactive, forecast, blend)");
    }
    if (f == 0) {
        fail(where, "controller has no features (feature_names is empty)");
    }
    if (h == 0) {
        fail(where, "controller has hidden size 0");
    }
    checks::matrix_shape(where, "gru/weight_ih", c.weight_ih.rows, c.weight_ih.cols, 3 * h, f);
    checks::matrix_shape(where, "gru/weight_hh", c.weight_hh.rows, c.weight_hh.cols, 3 * h, h);
    checks::vector_size(where, "gru/bias_ih", c.bias_ih.size(), 3 * h);
    checks::vector_size(where, "gru/bias_hh", c.bias_hh.size(), 3 * h);
    const std::size_t o = c.output_count();
    checks::matrix_shape(where, "head/weight", c.head_weight.rows, c.head_weight.cols, o, h);
    checks::vector_size(where, "head/bias", c.head_bias.size(), o);
    if (!c.head_input_weight.values.empty()) {
        checks::matrix_shape(where, "head/input_weight", c.head_input_weight.rows,
                             c.head_input_weight.cols, o, f);
        checks::finite(where, "head/input_weight", c.head_input_weight);
    }
    checks::vector_size(where, "clamp_min", c.clamp_min.size(), f);
    checks::vector_size(where, "clamp_max", c.clamp_max.size(), f);

    checks::finite(where, "gru/weight_ih", c.weight_ih);
    checks::finite(where, "gru/weight_hh", c.weight_hh);
    checks::finite(where, "gru/bias_ih", c.bias_ih);
    checks::finite(where, "gru/bias_hh", c.bias_hh);
    checks::finite(where, "head/weight", c.head_weight);
    checks::finite(where, "head/bias", c.head_bias);
    checks::finite(where, "clamp_min", c.clamp_min);
    checks::finite(where, "clamp_max", c.clamp_max);
    checks::finite(where, "training/loss_history", c.training.loss_history);
    for (std::size_t i = 0; i < f; ++i) {
        if (c.feature_names[i].empty()) {
            fail(where, "feature_names[" + std::to_string(i) + "] is empty");
        }
        if (!(c.clamp_min[i] < c.clamp_max[i])) {
            fail(where, "clamp range of feature '" + c.feature_names[i] +
                            "' is empty (clamp_min >= clamp_max)");
        }
    }
    if (!(std::isfinite(c.ds_max_fraction) && c.ds_max_fraction > 0.0 &&
          c.ds_max_fraction <= 1.0)) {
        fail(where, "ds_max_fraction must be in (0, 1]");
    }
    if (!(std::isfinite(c.alpha) && c.alpha > 0.0)) {
        fail(where, "alpha must be finite and > 0");
    }
    if (!(std::isfinite(c.tau) && c.tau >= 0.0)) {
        fail(where, "tau must be finite and >= 0");
    }
    if (!(c.forecast_level_alpha > 0.0 && c.forecast_level_alpha <= 1.0)) {
        fail(where, "forecast_level_alpha must be in (0, 1]");
    }
    if (!(c.forecast_trend_beta >= 0.0 && c.forecast_trend_beta <= 1.0)) {
        fail(where, "forecast_trend_beta must be in [0, 1]");
    }
    if (!(c.fast_level_alpha > 0.0 && c.fast_level_alpha <= 1.0)) {
        fail(where, "fast_level_alpha must be in (0, 1]");
    }
    if (!(c.fast_trend_beta >= 0.0 && c.fast_trend_beta <= 1.0)) {
        fail(where, "fast_trend_beta must be in [0, 1]");
    }
    if (!(std::isfinite(c.training.lambda) && c.training.lambda >= 0.0)) {
        fail(where, "training lambda must be finite and >= 0");
    }
    if (!valid_hold_horizon(c.hold_horizon)) {
        fail(where, "hold_horizon must be 0 (no gate) or in [1, 1e6] intervals");
    }
    if (c.hold_horizon != 0.0 && c.base == kReactiveBase) {
        fail(where, "hold_horizon needs a forecast or blend base");
    }
    if (!valid_calibration_keep(c.calibration_keep)) {
        fail(where, "calibration_keep must be in [0, 1] (1: off)");
    }
    if (!valid_refine_split(c.refine_split)) {
        fail(where, std::string("refine_split must be ") + kRefineSplitValues);
    }
    if (c.refine_split != 0.0 && c.hold_horizon == 0.0) {
        fail(where, "refine_split needs the cost gate (hold_horizon > 0)");
    }
    if (c.training.steps < 0) {
        fail(where, "training steps must be >= 0");
    }
}

static Controller read_controller_in_process(const std::string& path) {
    h5::Reader in(path, kControllerFormat, kControllerFormatVersion);
    Controller c;
    c.feature_names = in.string_list_attribute("/", "feature_names");
    c.clamp_min = in.double_list_attribute("/", "clamp_min");
    c.clamp_max = in.double_list_attribute("/", "clamp_max");
    c.ds_max_fraction = in.double_attribute("/", "ds_max_fraction");
    c.alpha = in.double_attribute("/", "alpha");
    c.tau = in.double_attribute("/", "tau");
    // Version 1 files predate the base: the reactive rule and the thrifty forecaster.
    if (in.has_attribute("/", "base")) {
        c.base = in.string_attribute("/", "base");
        c.forecast_level_alpha = in.double_attribute("/", "forecast_level_alpha");
        c.forecast_trend_beta = in.double_attribute("/", "forecast_trend_beta");
    }
    if (c.base == kBlendBase) {
        c.fast_level_alpha = in.double_attribute("/", "fast_level_alpha");
        c.fast_trend_beta = in.double_attribute("/", "fast_trend_beta");
    }
    if (in.has_attribute("/", "hold_horizon")) {
        c.hold_horizon = in.double_attribute("/", "hold_horizon");
    }
    if (in.has_attribute("/", "calibration_keep")) {
        c.calibration_keep = in.double_attribute("/", "calibration_keep");
    }
    if (in.has_attribute("/", "refine_split")) {
        c.refine_split = in.double_attribute("/", "refine_split");
    }
    c.weight_ih = in.matrix("gru/weight_ih");
    c.weight_hh = in.matrix("gru/weight_hh");
    c.bias_ih = in.vector("gru/bias_ih");
    c.bias_hh = in.vector("gru/bias_hh");
    c.head_weight = in.matrix("head/weight");
    c.head_bias = in.vector("head/bias");
    if (in.has_object("head/input_weight")) {
        c.head_input_weight = in.matrix("head/input_weight");
    }

    // The size attributes are redundant with the shapes; a disagreement means
    // the file was edited by hand or written by a broken exporter.
    std::int64_t hidden = in.int_attribute("/", "hidden_size");
    std::int64_t features = in.int_attribute("/", "feature_count");
    if (hidden != static_cast<std::int64_t>(c.weight_hh.cols)) {
        in.fail("attribute hidden_size = " + std::to_string(hidden) +
                " disagrees with gru/weight_hh of shape " +
                checks::shape(c.weight_hh.rows, c.weight_hh.cols));
    }
    if (features != static_cast<std::int64_t>(c.feature_names.size())) {
        in.fail("attribute feature_count = " + std::to_string(features) + " disagrees with " +
                std::to_string(c.feature_names.size()) + " feature_names");
    }

    // Provenance is optional: a controller exported by other tools may lack it.
    if (in.has_object("training")) {
        TrainingProvenance& t = c.training;
        t.seed = in.uint_attribute("training", "seed");
        t.steps = in.int_attribute("training", "steps");
        t.lambda = in.double_attribute("training", "lambda");
        t.commit = in.string_attribute("training", "commit");
        t.config = in.string_attribute("training", "config");
        t.loss_history = in.vector("training/loss_history");
    }
    validate(c, path);
    return c;
}

void write_controller(const std::string& path, const Controller& c) {
    validate(c, path);
    h5::write_atomically(path, kControllerFormat, kControllerFormatVersion, [&](h5::Writer& out) {
        out.attribute("/", "hidden_size", static_cast<std::int64_t>(c.hidden_size()));
        out.attribute("/", "feature_count", static_cast<std::int64_t>(c.feature_count()));
        out.attribute("/", "feature_names", c.feature_names);
        out.attribute("/", "clamp_min", c.clamp_min);
        out.attribute("/", "clamp_max", c.clamp_max);
        out.attribute("/", "ds_max_fraction", c.ds_max_fraction);
        out.attribute("/", "alpha", c.alpha);
        out.attribute("/", "tau", c.tau);
        out.attribute("/", "base", c.base);
        out.attribute("/", "forecast_level_alpha", c.forecast_level_alpha);
        out.attribute("/", "forecast_trend_beta", c.forecast_trend_beta);
        if (c.base == kBlendBase) {
            out.attribute("/", "fast_level_alpha", c.fast_level_alpha);
            out.attribute("/", "fast_trend_beta", c.fast_trend_beta);
        }
        if (c.hold_horizon != 0.0) {
            out.attribute("/", "hold_horizon", c.hold_horizon);
        }
        if (c.calibration_keep != 1.0) {
            out.attribute("/", "calibration_keep", c.calibration_keep);
        }
        if (c.refine_split != 0.0) {
            out.attribute("/", "refine_split", c.refine_split);
        }
        out.attribute("/", "gate_order", "r,z,n (PyTorch GRUCell)");
        out.group("gru");
        out.matrix("gru/weight_ih", c.weight_ih);
        out.matrix("gru/weight_hh", c.weight_hh);
        out.vector("gru/bias_ih", c.bias_ih);
        out.vector("gru/bias_hh", c.bias_hh);
        out.group("head");
        out.matrix("head/weight", c.head_weight);
        out.vector("head/bias", c.head_bias);
        if (!c.head_input_weight.values.empty()) {
            out.matrix("head/input_weight", c.head_input_weight);
        }
        out.group("training");
        out.attribute("training", "seed", c.training.seed);
        out.attribute("training", "steps", c.training.steps);
        out.attribute("training", "lambda", c.training.lambda);
        out.attribute("training", "commit", c.training.commit);
        out.attribute("training", "config", c.training.config);
        out.vector("training/loss_history", c.training.loss_history);
    });
}

// The HDF5 library first reads the file in a child (guarded_read.hpp), unless the
// caller is a library inside a host process.
Controller read_controller(const std::string& path, ReadGuard guard) {
    if (guard == ReadGuard::in_process) {
        return read_controller_in_process(path);
    }
    return detail::guarded_read(path, [&] { return read_controller_in_process(path); });
}

} // namespace cellshift::data
