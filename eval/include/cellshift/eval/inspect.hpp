#pragma once
// `cellshift-eval inspect`: validate any cellshift file and summarise it in one line.

#include <string>

namespace cellshift::eval {

// Reads `path` with the full validation of its format (HDF5 controller, trace or
// run record, or a CSV trace) and returns a one-line summary; throws
// cellshift::data::Error with one line naming the file and the problem.
std::string describe_file(const std::string& path);

} // namespace cellshift::eval
