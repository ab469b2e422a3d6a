// The bad-input matrix for files (docs/bad_inputs.md), row by row for every
// reader at once: missing, empty, not HDF5, truncated and another cellshift
// format must each give one line that starts with the file name; plus the
// snapshot reader's own rejections (it had none tested before).

#include "../support/expect_error.hpp"
#include "../support/hdf5_edit.hpp"
#include "../support/samples.hpp"
#include "../support/temp_dir.hpp"
#include "cellshift/data/checkpoint.hpp"
#include "cellshift/data/controller_file.hpp"
#include "cellshift/data/run_record.hpp"
#include "cellshift/data/snapshot.hpp"
#include "cellshift/data/trace.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <limits>
#include <string>
#include <vector>

using namespace cellshift;
using cellshift::test::TempDir;

namespace {

struct Format {
    std::string name;
    std::function<void(const std::string&)> write_valid;
    std::function<void(const std::string&)> read;
};

std::vector<Format> formats() {
    return {
        {"controller",
         [](const std::string& p) { data::write_controller(p, test::sample_controller()); },
         [](const std::string& p) { (void)data::read_controller(p); }},
        {"trace", [](const std::string& p) { data::write_trace(p, test::sample_trace()); },
         [](const std::string& p) { (void)data::read_trace_hdf5(p); }},
        {"run record",
         [](const std::string& p) { data::write_run_record(p, test::sample_run_record()); },
         [](const std::string& p) { (void)data::read_run_record(p); }},
        {"snapshot", [](const std::string& p) { data::write_snapshot(p, test::sample_snapshot()); },
         [](const std::string& p) { (void)data::read_snapshot(p); }},
        {"checkpoint",
         [](const std::string& p) { data::write_checkpoint(p, test::sample_checkpoint()); },
         [](const std::string& p) { (void)data::read_checkpoint(p); }},
    };
}

std::string bytes_of(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_bytes(const std::string& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary) << bytes;
}

} // namespace

TEST_CASE("every HDF5 reader: missing, empty, not HDF5, truncated, a newer version, another format",
          "[data][matrix]") {
    TempDir dir;
    const auto all = formats();
    for (const Format& f : all) {
        INFO("reader: " << f.name);
        const std::string valid = dir.file(f.name + "-valid.h5");
        f.write_valid(valid);
        REQUIRE_NOTHROW(f.read(valid));

        const std::string missing = dir.file(f.name + "-missing.h5");
        CHECK_DATA_ERROR(f.read(missing), missing, "no such file");

        const std::string empty = dir.file(f.name + "-empty.h5");
        write_bytes(empty, "");
        CHECK_DATA_ERROR(f.read(empty), empty, "");

        const std::string text = dir.file(f.name + "-text.h5");
        write_bytes(text, "step,loss\n1,0.5\n");
        CHECK_DATA_ERROR(f.read(text), text, "not an HDF5 file");

        const std::string whole = bytes_of(valid);
        for (const double fraction : {0.1, 0.5, 0.9}) {
            const std::string truncated = dir.file(f.name + "-truncated.h5");
            write_bytes(truncated,
                        whole.substr(0, static_cast<std::size_t>(
                                            fraction * static_cast<double>(whole.size()))));
            INFO("kept " << fraction << " of " << whole.size() << " bytes");
            CHECK_DATA_ERROR(f.read(truncated), truncated, "");
        }

        const std::string future = dir.file(f.name + "-v99.h5");
        f.write_valid(future);
        test::set_int_attribute(future, "/", "format_version", 99);
        CHECK_DATA_ERROR(f.read(future), future, "format_version");

        for (const Format& other : all) {
            if (other.name == f.name)
                continue;
            const std::string foreign = dir.file(other.name + "-as-" + f.name + ".h5");
            other.write_valid(foreign);
            INFO("a " << other.name << " given to the " << f.name << " reader");
            CHECK_DATA_ERROR(f.read(foreign), foreign, "format");
        }
    }
}

TEST_CASE("snapshot: exact round trip, and every rejection names the problem",
          "[data][snapshot][matrix]") {
    TempDir dir;
    const std::string path = dir.file("snapshot_000000300.h5");
    const data::Snapshot s = test::sample_snapshot();
    data::write_snapshot(path, s);
    CHECK(test::same(data::read_snapshot(path), s));

    SECTION("the writer refuses what the reader would") {
        auto bad = s;
        bad.positions.values[4] = std::numeric_limits<double>::quiet_NaN();
        CHECK_DATA_ERROR(data::write_snapshot(path, bad), path, "non-finite");
        bad = s;
        bad.cell_type[2] = 3;
        CHECK_DATA_ERROR(data::write_snapshot(path, bad), path, "cell_type 3");
        bad = s;
        bad.rank[0] = -1;
        CHECK_DATA_ERROR(data::write_snapshot(path, bad), path, "rank -1 is negative");
        bad = s;
        bad.cell_id.pop_back();
        CHECK_DATA_ERROR(data::write_snapshot(path, bad), path, "cell_id has 3 entries for 4");
        bad = s;
        bad.domain = {24.0, -8.0, 10.0};
        CHECK_DATA_ERROR(data::write_snapshot(path, bad), path, "domain sizes");
        bad = s;
        bad.time = std::numeric_limits<double>::infinity();
        CHECK_DATA_ERROR(data::write_snapshot(path, bad), path, "time");
        // The old file is untouched by every refused write.
        CHECK(test::same(data::read_snapshot(path), s));
    }
    SECTION("NaN in the positions") {
        test::set_double_element(path, "positions", 5, std::nan(""));
        CHECK_DATA_ERROR(data::read_snapshot(path), path, "non-finite");
    }
    SECTION("positions of the wrong shape") {
        test::replace_with_doubles(path, "positions", {4, 2}, 1.0);
        CHECK_DATA_ERROR(data::read_snapshot(path), path, "3 columns");
    }
    SECTION("a missing dataset") {
        test::delete_object(path, "cell_type");
        CHECK_DATA_ERROR(data::read_snapshot(path), path, "cell_type");
    }
    SECTION("element ids of the wrong length") {
        test::replace_with_ints(path, "element_id", {3}, 7);
        CHECK_DATA_ERROR(data::read_snapshot(path), path, "element_id has 3 entries for 4");
    }
    SECTION("an unknown cell type and a negative rank") {
        test::replace_with_ints(path, "cell_type", {4}, 9);
        CHECK_DATA_ERROR(data::read_snapshot(path), path, "cell_type 9");
        data::write_snapshot(path, s);
        test::replace_with_ints(path, "rank", {4}, -2);
        CHECK_DATA_ERROR(data::read_snapshot(path), path, "rank -2 is negative");
    }
    SECTION("an unsupported format version") {
        test::set_int_attribute(path, "/", "format_version", 99);
        CHECK_DATA_ERROR(data::read_snapshot(path), path, "format_version");
    }
    SECTION("a missing step attribute") {
        test::delete_attribute(path, "/", "step");
        CHECK_DATA_ERROR(data::read_snapshot(path), path, "step");
    }
}

TEST_CASE("run record: NaN and infinite rank times are refused", "[data][run_record][matrix]") {
    TempDir dir;
    const std::string path = dir.file("run.h5");
    data::write_run_record(path, test::sample_run_record());
    for (const double bad : {std::nan(""), std::numeric_limits<double>::infinity()}) {
        data::write_run_record(path, test::sample_run_record());
        test::set_double_element(path, "rank_time", 4, bad);
        CHECK_DATA_ERROR(data::read_run_record(path), path, "rank_time");
    }
}

TEST_CASE("a file's strings reach messages as one printable line", "[data][matrix]") {
    // Found by the trace fuzz target: a corrupt format attribute with a newline
    // and control bytes was quoted into the error as it was.
    TempDir dir;
    const std::string path = dir.file("corrupt.h5");
    data::write_trace(path, test::sample_trace());
    test::set_string_attribute(path, "/", "format", "cellshift.trace\n\x1b[31mred\r\x7f");
    const std::string message = test::error_of([&] { (void)data::read_trace_hdf5(path); });
    CHECK(message.rfind(path, 0) == 0);
    CHECK(message.find('\n') == std::string::npos);
    CHECK(message.find('\x1b') == std::string::npos);
    CHECK(message.find("cellshift.trace \\x1b[31mred \\x7f") != std::string::npos);
    CHECK(data::printable("a\tb\x01") == "a b\\x01");
}
