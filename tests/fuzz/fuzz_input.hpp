#pragma once
// What every fuzz target does first: the input bytes become a file, because the
// readers and the tools take paths, as users give them. One scratch file per
// fuzzing process, rewritten for every input.

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace cellshift::fuzz {

// Writes `data` to $TMPDIR/cellshift-fuzz-<name>-<pid><suffix> and returns the path.
inline std::string input_file(const char* name, const char* suffix, const std::uint8_t* data,
                              std::size_t size) {
    static const std::string path = [&] {
        const char* dir = std::getenv("TMPDIR");
        return std::string(dir ? dir : "/tmp") + "/cellshift-fuzz-" + name + "-" +
               std::to_string(::getpid()) + suffix;
    }();
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (f == nullptr)
        std::abort();
    if (size > 0 && std::fwrite(data, 1, size, f) != size)
        std::abort();
    std::fclose(f);
    return path;
}

} // namespace cellshift::fuzz
