#pragma once
// The one exception type of the data layer. Its message is a single line that
// names the file and the problem, ready to print to a user as it is.

#include <stdexcept>
#include <string>

namespace cellshift::data {

class Error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Throws Error("<path>: <problem>").
[[noreturn]] void fail(const std::string& path, const std::string& problem);

} // namespace cellshift::data
