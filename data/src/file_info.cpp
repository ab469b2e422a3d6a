#include "cellshift/data/file_info.hpp"

#include "guarded_read.hpp"
#include "hdf5_io.hpp"

namespace cellshift::data {

static FileInfo read_file_info_in_process(const std::string& path) {
    h5::Reader in(path);
    if (!in.has_attribute("/", "format")) {
        in.fail("not a cellshift file (no root attribute 'format')");
    }
    FileInfo info;
    info.format = in.string_attribute("/", "format");
    if (!in.has_attribute("/", "format_version")) {
        in.fail("missing root attribute 'format_version'");
    }
    info.format_version = in.int_attribute("/", "format_version");
    return info;
}

// The HDF5 library first reads the file in a child (guarded_read.hpp).
FileInfo read_file_info(const std::string& path) {
    return detail::guarded_read(path, [&] { return read_file_info_in_process(path); });
}

} // namespace cellshift::data
