// Run records: round trip and consistency checks.

#include "../support/expect_error.hpp"
#include "../support/hdf5_edit.hpp"
#include "../support/samples.hpp"
#include "../support/temp_dir.hpp"
#include "cellshift/data/run_record.hpp"
#include "cellshift/eval/sim_runs.hpp"

#include <catch2/catch.hpp>

using namespace cellshift;
using cellshift::test::TempDir;

TEST_CASE("run record: round trip is exact, with and without element counts", "[data][run]") {
    TempDir dir;
    for (bool elements : {true, false}) {
        auto path = dir.file(elements ? "sim.h5" : "eval.h5");
        data::RunRecord written = test::sample_run_record(6, 4, elements);
        data::write_run_record(path, written);
        data::RunRecord read = data::read_run_record(path);
        CHECK(test::same(written, read));
        CHECK(read.events() == 6);
        CHECK(read.ranks() == 4);
    }
}

TEST_CASE("run record: the writer checks consistency", "[data][run]") {
    TempDir dir;
    auto path = dir.file("run.h5");
    auto r = test::sample_run_record(5, 3);

    SECTION("boundaries that do not end at S") {
        r.boundaries(2, 3) = r.slices - 1;
        CHECK_DATA_ERROR(data::write_run_record(path, r), path,
                         "boundaries at event 2 must run from 0 to S = 12");
    }
    SECTION("a rank below w_min") {
        r.boundaries(1, 1) = 1;
        CHECK_DATA_ERROR(data::write_run_record(path, r), path,
                         "boundaries at event 1 give rank 0 1 slices, fewer than w_min = 2");
    }
    SECTION("P * w_min > S") {
        r.w_min = 5;
        CHECK_DATA_ERROR(data::write_run_record(path, r), path, "P * w_min > S (3 * 5 > 12)");
        r.w_min = std::int64_t{1} << 62; // P * w_min overflows int64
        CHECK_DATA_ERROR(data::write_run_record(path, r), path, "P * w_min > S");
    }
    SECTION("unknown clock") {
        r.clock = "sundial";
        CHECK_DATA_ERROR(data::write_run_record(path, r), path, "unknown clock 'sundial'");
    }
    SECTION("negative rank time") {
        r.rank_time(0, 1) = -1.0;
        CHECK_DATA_ERROR(data::write_run_record(path, r), path, "rank_time[0,1] is negative");
    }
    SECTION("ragged per-event arrays") {
        r.migrated_slices.pop_back();
        CHECK_DATA_ERROR(data::write_run_record(path, r), path,
                         "'migrated_slices' has shape [4], expected [5]");
    }
    CHECK(dir.entries().empty());
}

TEST_CASE("run record: reader rejections", "[data][run]") {
    TempDir dir;
    auto path = dir.file("run.h5");
    data::write_run_record(path, test::sample_run_record(5, 3));

    SECTION("ranks attribute disagrees with rank_time") {
        test::set_int_attribute(path, "/", "ranks", 4);
        CHECK_DATA_ERROR(data::read_run_record(path), path, "attribute ranks = 4 disagrees");
    }
    SECTION("boundaries stored as floats") {
        test::replace_with_doubles(path, "boundaries", {5, 4}, 0.0);
        CHECK_DATA_ERROR(data::read_run_record(path), path,
                         "dataset 'boundaries' has dtype float, expected integer");
    }
    SECTION("elements of the wrong shape") {
        test::replace_with_ints(path, "elements", {5, 2}, 10);
        CHECK_DATA_ERROR(data::read_run_record(path), path,
                         "'elements' has shape [5,2], expected [5,3]");
    }
    SECTION("missing clock attribute") {
        test::delete_attribute(path, "/", "clock");
        CHECK_DATA_ERROR(data::read_run_record(path), path, "missing attribute 'clock'");
    }
}

TEST_CASE("eval runs: a learned policy's row names its controller file, any run its overrides",
          "[eval][run]") {
    TempDir dir;
    std::vector<std::string> files;
    const std::vector<std::pair<std::string, std::string>> runs{
        {"static", ""},
        {"rnn", "data/controllers/default.h5"},
        {"rnn", "data/controllers/paper-reactive.h5"},
        {"rnn", ""},   // no controller line: the policy name alone
        {"holt", ""},  // parameters overridden: named beside the policy
        {"holt", ""}}; // an empty --param line: nothing overridden
    for (std::size_t i = 0; i < runs.size(); ++i) {
        data::RunRecord r = test::sample_run_record(5, 3, true);
        r.policy = runs[i].first;
        r.clock = "model";
        r.configuration = "--policy = " + r.policy + "\n";
        if (i == 4)
            r.configuration += "--param = holt.calibrate=0.9 holt.level_alpha=0.5\n";
        if (i == 5)
            r.configuration += "--param = \n";
        if (!runs[i].second.empty()) {
            r.configuration += "--controller = " + runs[i].second + "\n--clock = model\n";
        }
        r.totals = data::RunTotals{};
        r.totals->model_runtime = 10.0 + static_cast<double>(i);
        files.push_back(dir.file("run" + std::to_string(i) + ".h5"));
        data::write_run_record(files.back(), r);
    }
    const auto rows = eval::compare_sim_runs(files, "static");
    REQUIRE(rows.size() == 6);
    CHECK(rows[0].policy == "static");
    CHECK(rows[1].policy == "rnn (default)");
    CHECK(rows[2].policy == "rnn (paper-reactive)");
    CHECK(rows[3].policy == "rnn");
    CHECK(rows[4].policy == "holt [calibrate=0.9 level_alpha=0.5]");
    CHECK(rows[5].policy == "holt");
    CHECK(rows[2].runtime_vs_baseline == Approx(0.2));
    // The baseline may be named by its registry name or by its row name.
    CHECK(eval::compare_sim_runs(files, "rnn")[0].runtime_vs_baseline == Approx(10.0 / 11.0 - 1.0));
    CHECK(eval::compare_sim_runs(files, "rnn (paper-reactive)")[1].runtime_vs_baseline ==
          Approx(11.0 / 12.0 - 1.0));
    const std::string table = eval::sim_runs_table(rows, "static");
    CHECK(table.find("| rnn (default) |") != std::string::npos);
}
