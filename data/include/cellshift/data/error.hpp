#pragma once
// The one exception type of the data layer. Its message is a single line that
// names the file and the problem, ready to print to a user as it is.

#include <stdexcept>
#include <string>

namespace cellshift::data {

class Error : public std::runtime_error {
public:
    // `message` as printable(): a corrupt file's strings end up in messages,
    // and a newline or a terminal escape in them must not reach the user's
    // terminal as such.
    explicit Error(const std::string& message);
};

// `text` as one printable line: newlines, carriage returns and tabs become
// spaces, every other control character (below 0x20, and 0x7f) \xNN.
std::string printable(const std::string& text);

// Throws Error("<path>: <problem>").
[[noreturn]] void fail(const std::string& path, const std::string& problem);

} // namespace cellshift::data
