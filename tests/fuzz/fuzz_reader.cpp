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

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

std::string scratch_path() {
    static const std::string path = [] {
        const char* dir = std::getenv("TMPDIR");
        return std::string(dir ? dir : "/tmp") + "/cellshift-fuzz-" + std::to_string(getpid()) +
               (std::strcmp(CELLSHIFT_FUZZ_READER, "trace_csv") == 0 ? ".csv" : ".h5");
    }();
    return path;
}

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
    const std::string path = scratch_path();
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (f == nullptr)
        std::abort();
    if (size > 0 && std::fwrite(data, 1, size, f) != size)
        std::abort();
    std::fclose(f);
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
