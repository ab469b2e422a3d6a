// Controller files: exact round trip and every rejection the reader promises.

#include "../support/expect_error.hpp"
#include "../support/hdf5_edit.hpp"
#include "../support/samples.hpp"
#include "../support/temp_dir.hpp"
#include "cellshift/data/controller_file.hpp"
#include "cellshift/data/trace.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

using namespace cellshift;
using cellshift::test::TempDir;

TEST_CASE("controller: round trip is exact", "[data][controller]") {
    TempDir dir;
    auto path = dir.file("gru.h5");
    data::Controller written = test::sample_controller(24, 12);
    data::write_controller(path, written);
    data::Controller read = data::read_controller(path);
    CHECK(test::same(written, read));
    CHECK(read.hidden_size() == 24);
    CHECK(read.feature_count() == 12);
    // docs/design.md section 3: 2,761 parameters with PyTorch's GRU layout.
    CHECK(read.parameter_count() == 2761);
}

TEST_CASE("controller: a forecast base round-trips; a version-1 file reads as reactive",
          "[data][controller]") {
    TempDir dir;
    auto path = dir.file("gru.h5");
    data::Controller written = test::sample_controller(8, 18);
    written.base = data::kForecastBase;
    written.forecast_level_alpha = 0.4;
    written.forecast_trend_beta = 0.3;
    written.head_weight = data::Matrix(2, 8, 0.25);
    written.head_bias = {0.5, -0.5};
    data::write_controller(path, written);
    data::Controller read = data::read_controller(path);
    CHECK(test::same(written, read));
    CHECK(read.output_count() == 2);

    // A version-1 file (no base, no forecaster constants): the paper's controller.
    auto old = dir.file("v1.h5");
    data::write_controller(old, test::sample_controller(4, 3));
    test::delete_attribute(old, "/", "base");
    test::delete_attribute(old, "/", "forecast_level_alpha");
    test::delete_attribute(old, "/", "forecast_trend_beta");
    test::set_int_attribute(old, "/", "format_version", 1);
    data::Controller v1 = data::read_controller(old);
    CHECK(v1.base == data::kReactiveBase);
    CHECK(v1.forecast_level_alpha == 0.1); // the thrifty forecaster of the 16-feature files
    CHECK(v1.forecast_trend_beta == 0.05);

    // An unknown base, and a head that does not match the base, are refused.
    test::set_string_attribute(path, "/", "base", "psychic");
    CHECK_DATA_ERROR(data::read_controller(path), path, "unknown base 'psychic'");
    data::Controller one_head = written;
    one_head.head_weight = data::Matrix(1, 8, 0.25);
    one_head.head_bias = {0.5};
    CHECK_DATA_ERROR(data::write_controller(dir.file("bad.h5"), one_head), dir.file("bad.h5"),
                     "'head/weight' has shape [1,8], expected [2,8]");
}

TEST_CASE("controller: a blend base round-trips with its fast forecaster and three outputs",
          "[data][controller]") {
    TempDir dir;
    auto path = dir.file("blend.h5");
    data::Controller written = test::sample_controller(8, 18);
    written.base = data::kBlendBase;
    written.fast_level_alpha = 0.9;
    written.fast_trend_beta = 0.2;
    written.head_weight = data::Matrix(3, 8, 0.25);
    written.head_bias = {0.5, -0.5, 0.1};
    written.head_input_weight = data::Matrix(3, 18, 0.125); // the optional skip connection
    data::write_controller(path, written);
    data::Controller read = data::read_controller(path);
    CHECK(test::same(written, read));
    CHECK(read.fast_level_alpha == 0.9);
    CHECK(read.fast_trend_beta == 0.2);
    CHECK(read.output_count() == 3);
    CHECK(read.head_input_weight == written.head_input_weight);
    CHECK(read.parameter_count() == written.parameter_count());
    // A two-output head does not fit the blend base, nor a fast level of 0.
    data::Controller two = written;
    two.head_weight = data::Matrix(2, 8, 0.25);
    two.head_bias = {0.5, -0.5};
    CHECK_DATA_ERROR(data::write_controller(dir.file("bad.h5"), two), dir.file("bad.h5"),
                     "'head/weight' has shape [2,8], expected [3,8]");
    data::Controller skewed = written;
    skewed.head_input_weight = data::Matrix(3, 17, 0.0);
    CHECK_DATA_ERROR(data::write_controller(dir.file("bad.h5"), skewed), dir.file("bad.h5"),
                     "'head/input_weight' has shape [3,17], expected [3,18]");
    data::Controller still = written;
    still.fast_level_alpha = 0.0;
    CHECK_DATA_ERROR(data::write_controller(dir.file("bad.h5"), still), dir.file("bad.h5"),
                     "fast_level_alpha must be in (0, 1]");
    // The attribute is required of a blend file.
    test::delete_attribute(path, "/", "fast_trend_beta");
    CHECK_THROWS_AS(data::read_controller(path), data::Error);
}

namespace {
// A forecast-base controller with the cost gate (horizon 8): what the gate's
// attributes need.
data::Controller gated_sample() {
    data::Controller c = test::sample_controller(8, 18);
    c.base = data::kForecastBase;
    c.head_weight = data::Matrix(2, 8, 0.25);
    c.head_bias = {0.5, -0.5};
    c.hold_horizon = 8.0;
    return c;
}
} // namespace

TEST_CASE("controller: the cost gate's horizon round-trips and is optional", "[data][controller]") {
    TempDir dir;
    auto path = dir.file("gated.h5");
    data::Controller written = gated_sample();
    data::write_controller(path, written);
    data::Controller read = data::read_controller(path);
    CHECK(test::same(written, read));
    CHECK(read.hold_horizon == 8.0);
    // A file without the attribute (every file before the gate) has no gate.
    test::delete_attribute(path, "/", "hold_horizon");
    CHECK(data::read_controller(path).hold_horizon == 0.0);
    // Below one interval a horizon means nothing; the reactive base has no forecast to judge by.
    data::Controller short_sighted = written;
    short_sighted.hold_horizon = 0.5;
    CHECK_DATA_ERROR(data::write_controller(dir.file("bad.h5"), short_sighted), dir.file("bad.h5"),
                     "hold_horizon must be 0 (no gate) or in [1, 1e6] intervals");
    data::Controller reactive = test::sample_controller(8, 18);
    reactive.hold_horizon = 4.0;
    CHECK_DATA_ERROR(data::write_controller(dir.file("bad.h5"), reactive), dir.file("bad.h5"),
                     "hold_horizon needs a forecast or blend base");
}

TEST_CASE("controller: the calibration's memory round-trips and is optional",
          "[data][controller]") {
    TempDir dir;
    auto path = dir.file("calibrated.h5");
    data::Controller written = test::sample_controller(8, 18);
    written.calibration_keep = 0.9;
    data::write_controller(path, written);
    data::Controller read = data::read_controller(path);
    CHECK(test::same(written, read));
    CHECK(read.calibration_keep == 0.9);
    // A file without the attribute (every file before the calibration) is not calibrated.
    test::delete_attribute(path, "/", "calibration_keep");
    CHECK(data::read_controller(path).calibration_keep == 1.0);
    for (const double bad : {-0.1, 1.5, std::nan("")}) {
        data::Controller c = written;
        c.calibration_keep = bad;
        CHECK_DATA_ERROR(data::write_controller(dir.file("bad.h5"), c), dir.file("bad.h5"),
                         "calibration_keep must be in [0, 1] (1: off)");
    }
}

TEST_CASE("controller: the gate's refinement switch round-trips and is optional",
          "[data][controller]") {
    TempDir dir;
    auto path = dir.file("refined.h5");
    data::Controller written = gated_sample();
    written.refine_split = 1.0;
    data::write_controller(path, written);
    CHECK(test::same(written, data::read_controller(path)));
    CHECK(data::read_controller(path).refine_split == 1.0);
    written.refine_split = 2.0; // the gate's holds as well
    data::write_controller(path, written);
    CHECK(data::read_controller(path).refine_split == 2.0);
    // A file without the attribute (every file before the refinement) does not refine.
    test::delete_attribute(path, "/", "refine_split");
    CHECK(data::read_controller(path).refine_split == 0.0);
    data::Controller half = written;
    half.refine_split = 0.5;
    CHECK_DATA_ERROR(
        data::write_controller(dir.file("bad.h5"), half), dir.file("bad.h5"),
        "refine_split must be 0 (off), 1 (the gate's moves) or 2 (its moves and holds)");
    data::Controller ungated = written;
    ungated.hold_horizon = 0.0;
    CHECK_DATA_ERROR(data::write_controller(dir.file("bad.h5"), ungated), dir.file("bad.h5"),
                     "refine_split needs the cost gate (hold_horizon > 0)");
}

TEST_CASE("controller: a file without training provenance is accepted", "[data][controller]") {
    TempDir dir;
    auto path = dir.file("gru.h5");
    data::write_controller(path, test::sample_controller(4, 3));
    test::delete_object(path, "training");
    data::Controller read = data::read_controller(path);
    CHECK(read.training.steps == 0);
    CHECK(read.training.loss_history.empty());
    CHECK(read.hidden_size() == 4);
}

TEST_CASE("controller: the writer refuses invalid controllers and writes nothing",
          "[data][controller]") {
    TempDir dir;
    auto path = dir.file("gru.h5");
    data::Controller c = test::sample_controller(4, 3);
    c.bias_hh.pop_back();
    CHECK_DATA_ERROR(data::write_controller(path, c), path, "'gru/bias_hh' has shape [11]");
    c = test::sample_controller(4, 3);
    c.weight_hh.values[5] = std::numeric_limits<double>::quiet_NaN();
    CHECK_DATA_ERROR(data::write_controller(path, c), path, "gru/weight_hh[1,1] is NaN");
    c = test::sample_controller(4, 3);
    c.clamp_min[1] = c.clamp_max[1];
    CHECK_DATA_ERROR(data::write_controller(path, c), path, "clamp range of feature 'feature_1'");
    c = test::sample_controller(4, 3);
    c.alpha = 0.0;
    CHECK_DATA_ERROR(data::write_controller(path, c), path, "alpha must be");
    CHECK(dir.entries().empty());
}

TEST_CASE("controller: reader rejections name the file and the problem", "[data][controller]") {
    TempDir dir;
    auto path = dir.file("gru.h5");
    auto fresh = [&] { data::write_controller(path, test::sample_controller(4, 3)); };

    SECTION("missing file") {
        CHECK_DATA_ERROR(data::read_controller(dir.file("nope.h5")), dir.file("nope.h5"),
                         "no such file");
    }
    SECTION("not HDF5") {
        test::write_file(path, "hidden_size = 24\n");
        CHECK_DATA_ERROR(data::read_controller(path), path, "not an HDF5 file");
    }
    SECTION("wrong format") {
        data::write_trace(path, test::sample_trace());
        CHECK_DATA_ERROR(data::read_controller(path), path,
                         "has format 'cellshift.trace', expected 'cellshift.controller'");
    }
    SECTION("not a cellshift file") {
        fresh();
        test::delete_attribute(path, "/", "format");
        CHECK_DATA_ERROR(data::read_controller(path), path, "not a cellshift file");
    }
    SECTION("unsupported format_version") {
        fresh();
        test::set_int_attribute(path, "/", "format_version", 99);
        CHECK_DATA_ERROR(data::read_controller(path), path, "format_version 99 is not supported");
    }
    SECTION("missing dataset") {
        fresh();
        test::delete_object(path, "gru/weight_hh");
        CHECK_DATA_ERROR(data::read_controller(path), path, "missing dataset 'gru/weight_hh'");
    }
    SECTION("missing group") {
        fresh();
        test::delete_object(path, "head");
        CHECK_DATA_ERROR(data::read_controller(path), path, "missing dataset 'head/weight'");
    }
    SECTION("wrong shape") {
        fresh();
        test::replace_with_doubles(path, "gru/weight_ih", {12, 2}, 0.0);
        CHECK_DATA_ERROR(data::read_controller(path), path,
                         "'gru/weight_ih' has shape [12,2], expected [12,3]");
    }
    SECTION("wrong rank") {
        fresh();
        test::replace_with_doubles(path, "head/weight", {4}, 0.0);
        CHECK_DATA_ERROR(data::read_controller(path), path,
                         "dataset 'head/weight' has rank 1 (shape [4]), expected rank 2");
    }
    SECTION("wrong dtype") {
        fresh();
        test::replace_with_ints(path, "head/bias", {1}, 0);
        CHECK_DATA_ERROR(data::read_controller(path), path,
                         "dataset 'head/bias' has dtype integer, expected float");
    }
    SECTION("NaN weight") {
        fresh();
        test::set_double_element(path, "gru/bias_ih", 2, std::nan(""));
        CHECK_DATA_ERROR(data::read_controller(path), path, "gru/bias_ih[2] is NaN");
    }
    SECTION("Inf weight") {
        fresh();
        test::set_double_element(path, "gru/weight_ih", 0, -INFINITY);
        CHECK_DATA_ERROR(data::read_controller(path), path, "gru/weight_ih[0,0] is -Inf");
    }
    SECTION("size attribute disagrees with the weights") {
        fresh();
        test::set_int_attribute(path, "/", "hidden_size", 5);
        CHECK_DATA_ERROR(data::read_controller(path), path, "hidden_size = 5 disagrees");
    }
    SECTION("string attribute with a numeric dtype") {
        fresh();
        test::set_int_attribute(path, "/", "feature_names", 3);
        CHECK_DATA_ERROR(data::read_controller(path), path,
                         "attribute 'feature_names' has dtype integer, expected string");
    }
    SECTION("fixed-length string attributes are read like variable-length ones") {
        fresh();
        test::set_string_attribute(path, "training", "commit", "fixed-length");
        CHECK(data::read_controller(path).training.commit == "fixed-length");
    }
}
