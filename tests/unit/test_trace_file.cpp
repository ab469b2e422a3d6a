// Workload traces: HDF5 round trip, CSV import, and every rejection.

#include "../support/expect_error.hpp"
#include "../support/hdf5_edit.hpp"
#include "../support/samples.hpp"
#include "../support/temp_dir.hpp"
#include "cellshift/data/trace.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <limits>

using namespace cellshift;
using cellshift::test::TempDir;

TEST_CASE("trace: HDF5 round trip is exact, with and without optional fields", "[data][trace]") {
    TempDir dir;
    for (bool optional : {true, false}) {
        auto path = dir.file(optional ? "full.h5" : "minimal.h5");
        data::Trace written = test::sample_trace(9, 13, optional);
        data::write_trace(path, written);
        data::Trace read = data::read_trace(path);
        CHECK(test::same(written, read));
        CHECK(read.events() == 9);
        CHECK(read.slices() == 13);
        CHECK(read.growth_events.has_value() == optional);
        CHECK(read.initial_load.has_value() == optional);
        CHECK(read.estimate.has_value() == optional);
    }
}

TEST_CASE("trace: HDF5 rejections", "[data][trace]") {
    TempDir dir;
    auto path = dir.file("trace.h5");
    data::write_trace(path, test::sample_trace(4, 5));

    SECTION("negative workload") {
        test::set_double_element(path, "workload", 7, -0.5);
        CHECK_DATA_ERROR(data::read_trace(path), path,
                         "workload[1,2] is negative (-0.5); values must be >= 0");
    }
    SECTION("NaN workload") {
        test::set_double_element(path, "workload", 0, std::nan(""));
        CHECK_DATA_ERROR(data::read_trace(path), path, "workload[0,0] is NaN");
    }
    SECTION("Inf workload") {
        test::set_double_element(path, "workload", 19, INFINITY);
        CHECK_DATA_ERROR(data::read_trace(path), path, "workload[3,4] is +Inf");
    }
    SECTION("missing workload") {
        test::delete_object(path, "workload");
        CHECK_DATA_ERROR(data::read_trace(path), path, "missing dataset 'workload'");
    }
    SECTION("workload of rank 1") {
        test::replace_with_doubles(path, "workload", {20}, 1.0);
        CHECK_DATA_ERROR(data::read_trace(path), path, "has rank 1 (shape [20]), expected rank 2");
    }
    SECTION("integer workload") {
        test::replace_with_ints(path, "workload", {4, 5}, 1);
        CHECK_DATA_ERROR(data::read_trace(path), path, "has dtype integer, expected float");
    }
    SECTION("empty trace") {
        test::replace_with_doubles(path, "workload", {0, 5}, 1.0);
        test::delete_object(path, "growth_events");
        test::delete_object(path, "cycle_phase");
        CHECK_DATA_ERROR(data::read_trace(path), path, "empty trace");
    }
    SECTION("growth_events of the wrong shape") {
        test::replace_with_doubles(path, "growth_events", {4, 6}, 0.0);
        CHECK_DATA_ERROR(data::read_trace(path), path,
                         "'growth_events' has shape [4,6], expected [4,5]");
    }
    SECTION("cycle_phase of the wrong length") {
        test::replace_with_doubles(path, "cycle_phase", {3}, 0.0);
        CHECK_DATA_ERROR(data::read_trace(path), path, "'cycle_phase' has shape [3], expected [4]");
    }
    SECTION("initial_load of the wrong length or negative") {
        test::replace_with_doubles(path, "initial_load", {6}, 1.0);
        CHECK_DATA_ERROR(data::read_trace(path), path,
                         "'initial_load' has shape [6], expected [5]");
        test::replace_with_doubles(path, "initial_load", {5}, -1.0);
        CHECK_DATA_ERROR(data::read_trace(path), path, "initial_load[0] is negative");
    }
    SECTION("estimate of the wrong shape, NaN or negative") {
        test::replace_with_doubles(path, "estimate", {5, 5}, 1.0);
        CHECK_DATA_ERROR(data::read_trace(path), path,
                         "'estimate' has shape [5,5], expected [4,5]");
        test::replace_with_doubles(path, "estimate", {4, 5}, 1.0);
        test::set_double_element(path, "estimate", 6, std::nan(""));
        CHECK_DATA_ERROR(data::read_trace(path), path, "estimate[1,1] is NaN");
        test::set_double_element(path, "estimate", 6, -3.0);
        CHECK_DATA_ERROR(data::read_trace(path), path, "estimate[1,1] is negative");
    }
    SECTION("truncated file") {
        data::write_trace(path, test::sample_trace(200, 300));
        auto size = std::filesystem::file_size(path);
        std::filesystem::resize_file(path, size / 2);
        CHECK_DATA_ERROR(data::read_trace(path), path, "truncated or corrupt");
    }
    SECTION("a controller is not a trace") {
        data::write_controller(path, test::sample_controller(2, 2));
        CHECK_DATA_ERROR(data::read_trace(path), path,
                         "has format 'cellshift.controller', expected 'cellshift.trace'");
    }
}

TEST_CASE("trace: CSV import", "[data][trace][csv]") {
    TempDir dir;
    auto path = dir.file("trace.csv");

    SECTION("with a header, comments, blank lines, spaces and CRLF line ends") {
        test::write_file(path, "# exported by my code\r\n"
                               "s0, s1, s2\r\n"
                               "1.5, 2, 0\r\n"
                               "\r\n"
                               "+3e-1,4.25 ,1e2\r\n");
        data::Trace t = data::read_trace(path);
        REQUIRE(t.events() == 2);
        REQUIRE(t.slices() == 3);
        CHECK(t.workload.values == std::vector<double>{1.5, 2.0, 0.0, 0.3, 4.25, 100.0});
        CHECK_FALSE(t.growth_events.has_value());
        CHECK(t.source.find("trace.csv") != std::string::npos);
    }
    SECTION("without a header") {
        test::write_file(path, "1,2\n3,4\n5,6");
        data::Trace t = data::read_trace(path);
        CHECK(t.events() == 3);
        CHECK(t.workload(2, 1) == 6.0);
    }
    SECTION("a numeric header line needs CsvHeader::Present") {
        test::write_file(path, "0,1,2\n5,6,7\n");
        CHECK(data::read_trace_csv(path, data::CsvHeader::Auto).events() == 2);
        data::Trace t = data::read_trace_csv(path, data::CsvHeader::Present);
        CHECK(t.events() == 1);
        CHECK(t.workload(0, 0) == 5.0);
    }
    SECTION("CsvHeader::Absent reports a text first line as non-numeric") {
        test::write_file(path, "a,b\n1,2\n");
        CHECK_DATA_ERROR(data::read_trace_csv(path, data::CsvHeader::Absent), path + ":1: column 1",
                         "'a' is not a number");
    }
    SECTION("CSV and HDF5 give the same trace") {
        test::write_file(path, "0.125,1\n2,3.5\n");
        data::Trace from_csv = data::read_trace(path);
        auto h5 = dir.file("trace.h5");
        data::write_trace(h5, from_csv);
        CHECK(test::same(from_csv, data::read_trace(h5)));
    }
    SECTION("an upper-case extension is still CSV") {
        auto upper = dir.file("TRACE.CSV");
        test::write_file(upper, "1,2\n");
        CHECK(data::read_trace(upper).slices() == 2);
    }
}

TEST_CASE("trace: CSV rejections name the line and column", "[data][trace][csv]") {
    TempDir dir;
    auto path = dir.file("bad.csv");

    SECTION("ragged row") {
        test::write_file(path, "s0,s1,s2\n1,2,3\n4,5\n");
        CHECK_DATA_ERROR(data::read_trace(path), path + ":3",
                         "ragged row: 2 columns, expected 3 (as on line 1)");
    }
    SECTION("non-numeric cell") {
        test::write_file(path, "1,2,3\n4,five,6\n");
        CHECK_DATA_ERROR(data::read_trace(path), path + ":2: column 2", "'five' is not a number");
    }
    SECTION("number with trailing garbage") {
        test::write_file(path, "1,2,3x\n");
        CHECK_DATA_ERROR(data::read_trace(path), path + ":1: column 3", "'3x' is not a number");
    }
    SECTION("empty cell") {
        test::write_file(path, "1,,3\n");
        CHECK_DATA_ERROR(data::read_trace(path), path + ":1: column 2", "empty cell");
    }
    SECTION("NaN") {
        test::write_file(path, "1,2\nnan,4\n");
        CHECK_DATA_ERROR(data::read_trace(path), path + ":2: column 1", "'nan' is not finite");
    }
    SECTION("Inf") {
        test::write_file(path, "1,inf\n");
        CHECK_DATA_ERROR(data::read_trace(path), path + ":1: column 2", "'inf' is not finite");
    }
    SECTION("negative") {
        test::write_file(path, "1,2\n3,-4\n");
        CHECK_DATA_ERROR(data::read_trace(path), path + ":2: column 2", "negative workload -4");
    }
    SECTION("empty file") {
        test::write_file(path, "");
        CHECK_DATA_ERROR(data::read_trace(path), path, "empty trace: no data rows");
    }
    SECTION("header only") {
        test::write_file(path, "# nothing yet\ns0,s1\n");
        CHECK_DATA_ERROR(data::read_trace(path), path, "empty trace: no data rows");
    }
    SECTION("missing file") {
        CHECK_DATA_ERROR(data::read_trace(path), path, "no such file");
    }
}
