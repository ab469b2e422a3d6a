#pragma once
// A fresh directory per test, removed at the end of the test.

#include <filesystem>
#include <string>
#include <vector>

namespace cellshift::test {

class TempDir {
public:
    TempDir();
    ~TempDir();
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;

    const std::filesystem::path& path() const { return path_; }
    std::string file(const std::string& name) const { return (path_ / name).string(); }
    // Names of the entries in the directory, sorted.
    std::vector<std::string> entries() const;

private:
    std::filesystem::path path_;
};

// Writes `content` to `path` (plain, non-atomic: test input files).
void write_file(const std::string& path, const std::string& content);
std::string read_file(const std::string& path);

} // namespace cellshift::test
