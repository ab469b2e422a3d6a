#pragma once
// Identify a cellshift file without knowing its kind in advance.

#include <string>

namespace cellshift::data {

struct FileInfo {
    std::string format; // the root attribute `format`, e.g. "cellshift.trace"
    long long format_version = 0;
};

// Reads the root attributes `format` and `format_version`; throws Error when the
// file is missing, is not HDF5, or is not a cellshift file.
FileInfo read_file_info(const std::string& path);

} // namespace cellshift::data
