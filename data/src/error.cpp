#include "cellshift/data/error.hpp"

#include <cstdio>

namespace cellshift::data {

std::string printable(const std::string& text) {
    std::string out;
    out.reserve(text.size());
    for (const char ch : text) {
        const auto byte = static_cast<unsigned char>(ch);
        if (ch == '\n' || ch == '\r' || ch == '\t') {
            out += ' '; // line breaks of a library's message: one line
        } else if (byte < 0x20 || byte == 0x7f) {
            char escaped[8];
            std::snprintf(escaped, sizeof escaped, "\\x%02x", byte);
            out += escaped;
        } else {
            out += ch;
        }
    }
    return out;
}

Error::Error(const std::string& message) : std::runtime_error(printable(message)) {}

void fail(const std::string& path, const std::string& problem) {
    throw Error(path + ": " + problem);
}

} // namespace cellshift::data
