#pragma once
// Atomic replacement of an output file: write everything under a temporary name
// in the same directory, flush it to disk, then rename it over the real name.
// A crash, a full disk or an exception never leaves a half-written file under the
// real name and never destroys the file that was there before.

#include <string>

namespace cellshift::data {

class AtomicFile {
public:
    // Creates "<path>.tmp-<host>-<pid>-XXXXXX" beside `path`; throws Error if it
    // cannot. Temporary files of `path` left by a killed process of this host
    // (its pid no longer runs) are removed first.
    explicit AtomicFile(std::string path);
    AtomicFile(const AtomicFile&) = delete;
    AtomicFile& operator=(const AtomicFile&) = delete;
    // Removes the temporary file unless commit() succeeded.
    ~AtomicFile();

    const std::string& path() const { return path_; }
    const std::string& temp_path() const { return temp_path_; }

    // fsync the temporary file, rename it to path(), fsync the directory.
    // CELLSHIFT_TEST_COMMIT_DELAY_MS=N waits N ms first (fault-injection tests
    // use it to kill a tool while a write is in flight).
    void commit();

private:
    std::string path_;
    std::string temp_path_;
    bool committed_ = false;
};

// Convenience for text outputs (CSV, Markdown, HTML, logs).
void write_text_atomically(const std::string& path, const std::string& content);

} // namespace cellshift::data
