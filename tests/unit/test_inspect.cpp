// cellshift-eval inspect: every format is recognised and summarised from its content.

#include "../support/expect_error.hpp"
#include "../support/hdf5_edit.hpp"
#include "../support/samples.hpp"
#include "../support/temp_dir.hpp"
#include "cellshift/eval/inspect.hpp"

#include <catch2/catch.hpp>

using namespace cellshift;

TEST_CASE("inspect summarises each format", "[eval][inspect]") {
    test::TempDir dir;
    data::write_controller(dir.file("c.h5"), test::sample_controller());
    CHECK_THAT(eval::describe_file(dir.file("c.h5")),
               Catch::Contains("cellshift.controller v2") && Catch::Contains("hidden 24") &&
                   Catch::Contains("2761 parameters") && Catch::Contains("1234 steps") &&
                   !Catch::Contains("gate") && !Catch::Contains("calibrated"));
    data::Controller gated = test::sample_controller(8, 18);
    gated.base = data::kBlendBase;
    gated.head_weight = data::Matrix(3, 8, 0.25);
    gated.head_bias = {0.5, -0.5, 0.1};
    gated.hold_horizon = 8.0;
    gated.calibration_keep = 0.9;
    gated.refine_split = 1.0;
    data::write_controller(dir.file("g.h5"), gated);
    CHECK_THAT(eval::describe_file(dir.file("g.h5")),
               Catch::Contains("cost gate (hold horizon 8 intervals, minimax refinement of its "
                               "moves)") &&
                   Catch::Contains("estimates calibrated (keep 0.9 per event)"));
    gated.refine_split = 2.0;
    data::write_controller(dir.file("g2.h5"), gated);
    CHECK_THAT(eval::describe_file(dir.file("g2.h5")),
               Catch::Contains("minimax refinement of its moves and holds)"));

    data::Trace t;
    t.workload = data::Matrix(2, 3, 1.5); // 4.5 per event
    data::write_trace(dir.file("t.h5"), t);
    CHECK_THAT(eval::describe_file(dir.file("t.h5")), Catch::Contains("2 events x 3 slices") &&
                                                          Catch::Contains("mean workload 4.5") &&
                                                          !Catch::Contains("estimate"));
    t.estimate = data::Matrix(2, 3, 7.0);
    data::write_trace(dir.file("t.h5"), t);
    CHECK_THAT(eval::describe_file(dir.file("t.h5")),
               Catch::Contains("the per-slice estimate a policy observes"));

    test::write_file(dir.file("t.csv"), "1,2\n3,4\n");
    CHECK_THAT(eval::describe_file(dir.file("t.csv")),
               Catch::Contains("CSV trace, 2 events x 2 slices, mean workload 5"));

    data::RunRecord r = test::sample_run_record(4, 3);
    r.imbalance = {0.1, 0.2, 0.3, 0.4};
    r.migrated_slices = {0, 1, 2, 3};
    data::write_run_record(dir.file("r.h5"), r);
    CHECK_THAT(eval::describe_file(dir.file("r.h5")),
               Catch::Contains("policy reactive") && Catch::Contains("clock model") &&
                   Catch::Contains("mean imbalance 25%") && Catch::Contains("6 slices migrated"));
}

TEST_CASE("inspect rejects unknown and damaged files", "[eval][inspect]") {
    test::TempDir dir;
    auto path = dir.file("x.h5");
    data::write_trace(path, test::sample_trace());
    test::set_string_attribute(path, "/", "format", "someone.else");
    CHECK_DATA_ERROR(eval::describe_file(path), path, "unknown format 'someone.else'");
    test::set_double_element(dir.file("x.h5"), "workload", 0, -2.0);
    test::set_string_attribute(path, "/", "format", "cellshift.trace");
    CHECK_DATA_ERROR(eval::describe_file(path), path, "workload[0,0] is negative");
}
