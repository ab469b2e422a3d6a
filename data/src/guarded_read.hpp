#pragma once
// Internal: a defence against the HDF5 library itself. Fuzzing found corrupt files
// that make Debian's libhdf5 crash (H5HG_read), exhaust memory (H5T__conv_vlen) or
// loop (H5C_protect) inside H5Aread/H5Dread, where no error code can help. So every
// HDF5 reader first runs in a forked child that only validates; a crash, an
// out-of-memory or a hang there becomes one line, `FILE: corrupt HDF5 file: ...`,
// and the tool never goes down with it. Only when the child succeeded does the
// process read the file itself (the same code on the same bytes).
//
// CELLSHIFT_READ_IN_PROCESS=1 turns the child off (for debugging, and for fuzzing
// cellshift's own code under the sanitizers); CELLSHIFT_READ_TIMEOUT sets the
// child's time limit in seconds (default 120).

#include <functional>
#include <string>

namespace cellshift::data::detail {

void validate_in_child(const std::string& path, const std::function<void()>& read);

template <typename Read>
auto guarded_read(const std::string& path, Read&& read) {
    validate_in_child(path, [&] { (void)read(); });
    return read();
}

} // namespace cellshift::data::detail
