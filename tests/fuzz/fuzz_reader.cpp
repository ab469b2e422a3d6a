// libFuzzer target for one file reader (issue 8), chosen at compile time by
// CELLSHIFT_FUZZ_READER: controller, trace, trace_csv, run_record, snapshot,
// checkpoint. The input bytes become a file (the readers take paths, as users
// give them) and the reader must either succeed or throw data::Error with one
// line: any crash, sanitizer report, other exception or hang is a finding.

#include "cellshift/data/checkpoint.hpp"
#include "cellshift/data/controller_file.hpp"
#include "cellshift/data/error.hpp"
#include "cellshift/data/run_record.hpp"
#include "cellshift/data/snapshot.hpp"
#include "cellshift/data/trace.hpp"
#include "fuzz_input.hpp"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

void read_one(const std::string& path) {
    using namespace cellshift::data;
    const std::string reader = CELLSHIFT_FUZZ_READER;
    if (reader == "controller")
        (void)read_controller(path);
    else if (reader == "trace")
        (void)read_trace_hdf5(path);
    else if (reader == "trace_csv")
        (void)read_trace_csv(path);
    else if (reader == "run_record")
        (void)read_run_record(path);
    else if (reader == "snapshot")
        (void)read_snapshot(path);
    else if (reader == "checkpoint")
        (void)read_checkpoint(path);
    else
        std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const bool csv = std::strcmp(CELLSHIFT_FUZZ_READER, "trace_csv") == 0;
    const std::string path =
        cellshift::fuzz::input_file(CELLSHIFT_FUZZ_READER, csv ? ".csv" : ".h5", data, size);
    try {
        read_one(path);
    } catch (const cellshift::data::Error& e) {
        // The contract: one line naming the file.
        const std::string message = e.what();
        if (message.find('\n') != std::string::npos || message.rfind(path, 0) != 0)
            std::abort();
    }
    return 0;
}
