// Files written by the library are ordinary HDF5: h5dump (Debian's hdf5-tools)
// opens them and shows the documented names of docs/design.md section 6.

#include "../support/samples.hpp"
#include "../support/temp_dir.hpp"
#include "cellshift/data/controller_file.hpp"
#include "cellshift/data/run_record.hpp"
#include "cellshift/data/trace.hpp"

#include <catch2/catch.hpp>

#include <array>
#include <cstdio>
#include <memory>

using namespace cellshift;

namespace {

std::string h5dump(const std::string& options, const std::string& path) {
    std::string command = "h5dump " + options + " '" + path + "' 2>&1";
    std::unique_ptr<FILE, int (*)(FILE*)> pipe(::popen(command.c_str(), "r"), ::pclose);
    REQUIRE(pipe != nullptr);
    std::string out;
    std::array<char, 4096> buffer{};
    while (std::fgets(buffer.data(), buffer.size(), pipe.get()) != nullptr) {
        out += buffer.data();
    }
    return out;
}

// `h5dump -H` lists the structure (names, types, shapes); `-a /format` the
// value of the format attribute.
void check_names(const std::string& path, const std::string& format,
                 const std::vector<std::string>& names) {
    std::string header = h5dump("-H", path);
    INFO(header);
    for (const auto& name : names) {
        CHECK(header.find(name) != std::string::npos);
    }
    CHECK(h5dump("-a /format", path).find("\"" + format + "\"") != std::string::npos);
}

} // namespace

TEST_CASE("h5dump shows the documented structure of every format", "[data][h5dump]") {
    REQUIRE(std::system("command -v h5dump > /dev/null") == 0); // scripts/setup.sh installs it
    test::TempDir dir;

    data::write_controller(dir.file("c.h5"), test::sample_controller());
    check_names(dir.file("c.h5"), "cellshift.controller",
                {"ATTRIBUTE \"format\"",
                 "ATTRIBUTE \"format_version\"",
                 "ATTRIBUTE \"hidden_size\"",
                 "ATTRIBUTE \"feature_count\"",
                 "ATTRIBUTE \"feature_names\"",
                 "ATTRIBUTE \"ds_max_fraction\"",
                 "ATTRIBUTE \"alpha\"",
                 "ATTRIBUTE \"tau\"",
                 "ATTRIBUTE \"clamp_min\"",
                 "ATTRIBUTE \"clamp_max\"",
                 "GROUP \"gru\"",
                 "DATASET \"weight_ih\"",
                 "( 72, 12 )",
                 "DATASET \"weight_hh\"",
                 "( 72, 24 )",
                 "DATASET \"bias_ih\"",
                 "DATASET \"bias_hh\"",
                 "GROUP \"head\"",
                 "DATASET \"weight\"",
                 "( 1, 24 )",
                 "DATASET \"bias\"",
                 "GROUP \"training\"",
                 "ATTRIBUTE \"seed\"",
                 "ATTRIBUTE \"lambda\"",
                 "DATASET \"loss_history\""});

    data::write_trace(dir.file("t.h5"), test::sample_trace(7, 10));
    check_names(dir.file("t.h5"), "cellshift.trace",
                {"DATASET \"workload\"", "H5T_IEEE_F64LE", "( 7, 10 )", "DATASET \"growth_events\"",
                 "DATASET \"cycle_phase\"", "ATTRIBUTE \"source\"", "ATTRIBUTE \"slice_width\""});

    data::write_run_record(dir.file("r.h5"), test::sample_run_record(5, 3));
    check_names(dir.file("r.h5"), "cellshift.run",
                {"DATASET \"rank_time\"", "( 5, 3 )", "DATASET \"boundaries\"", "( 5, 4 )",
                 "H5T_STD_I64LE", "DATASET \"migrated_slices\"", "DATASET \"imbalance\"",
                 "DATASET \"elements\"", "ATTRIBUTE \"clock\"", "ATTRIBUTE \"policy\"",
                 "ATTRIBUTE \"configuration\""});
}
