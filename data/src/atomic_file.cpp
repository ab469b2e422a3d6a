#include "cellshift/data/atomic_file.hpp"

#include "cellshift/data/error.hpp"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <vector>

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

namespace cellshift::data {
namespace {

std::string errno_text() {
    return std::strerror(errno);
}

// fsync an existing path (file or directory); returns false with errno set.
bool sync_path(const std::string& path, int flags) {
    int fd = ::open(path.c_str(), flags | O_CLOEXEC);
    if (fd < 0) {
        return false;
    }
    bool ok = ::fsync(fd) == 0;
    int saved = errno;
    ::close(fd);
    errno = saved;
    return ok;
}

std::string host_name() {
    char name[256] = {};
    if (::gethostname(name, sizeof name - 1) != 0 || name[0] == '\0')
        return "host";
    std::string text = name;
    for (char& ch : text) // keep the temporary name one plain path component
        if (ch == '/' || ch == '-')
            ch = '_';
    return text;
}

// Removes "<path>.tmp-<host>-<pid>-*" files whose process is gone: what a killed
// writer on this host left. Other hosts' files (a shared file system) are kept.
void remove_stale_temporaries(const std::string& path, const std::string& host) {
    namespace fs = std::filesystem;
    const fs::path p(path);
    const fs::path dir = p.parent_path().empty() ? fs::path(".") : p.parent_path();
    const std::string prefix = p.filename().string() + ".tmp-" + host + "-";
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        if (name.compare(0, prefix.size(), prefix) != 0)
            continue;
        const std::string rest = name.substr(prefix.size());
        const std::size_t dash = rest.find('-');
        if (dash == std::string::npos || dash == 0)
            continue;
        char* end_digits = nullptr;
        const long pid = std::strtol(rest.c_str(), &end_digits, 10);
        if (end_digits != rest.c_str() + dash || pid <= 0)
            continue;
        if (::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH)
            fs::remove(it->path(), ec);
    }
}

void test_commit_delay() {
    const char* text = std::getenv("CELLSHIFT_TEST_COMMIT_DELAY_MS");
    const long ms = text != nullptr ? std::strtol(text, nullptr, 10) : 0;
    if (ms > 0)
        ::usleep(static_cast<useconds_t>(ms) * 1000u);
}

} // namespace

AtomicFile::AtomicFile(std::string path) : path_(std::move(path)) {
    if (path_.empty()) {
        throw Error("(empty path): no output file name given");
    }
    std::error_code ec;
    if (std::filesystem::is_directory(path_, ec)) {
        fail(path_, "is a directory, not a file");
    }
    const std::string host = host_name();
    remove_stale_temporaries(path_, host);
    const std::string suffix = ".tmp-" + host + "-" + std::to_string(::getpid()) + "-XXXXXX";
    std::vector<char> name(path_.begin(), path_.end());
    name.insert(name.end(), suffix.begin(), suffix.end());
    name.push_back('\0');
    int fd = ::mkstemp(name.data());
    if (fd < 0) {
        fail(path_, "cannot create a temporary file beside it: " + errno_text());
    }
    // mkstemp creates the file 0600; give the result the permissions a plain
    // fopen would have (0666 less the umask), so shared outputs stay readable.
    mode_t mask = ::umask(0);
    ::umask(mask);
    ::fchmod(fd, 0666 & ~mask);
    ::close(fd);
    temp_path_ = name.data();
}

AtomicFile::~AtomicFile() {
    if (!committed_ && !temp_path_.empty()) {
        std::remove(temp_path_.c_str());
    }
}

void AtomicFile::commit() {
    test_commit_delay();
    if (!sync_path(temp_path_, O_RDONLY)) {
        fail(path_, "cannot flush the file to disk: " + errno_text());
    }
    if (std::rename(temp_path_.c_str(), path_.c_str()) != 0) {
        fail(path_, "cannot rename " + temp_path_ + " into place: " + errno_text());
    }
    committed_ = true;
    // Make the rename itself durable. A failure here cannot un-write the file, so
    // it is not an error: the new content is already complete under its name.
    std::filesystem::path dir = std::filesystem::path(path_).parent_path();
    sync_path(dir.empty() ? "." : dir.string(), O_RDONLY | O_DIRECTORY);
}

void write_text_atomically(const std::string& path, const std::string& content) {
    AtomicFile file(path);
    std::FILE* out = std::fopen(file.temp_path().c_str(), "wb");
    if (out == nullptr) {
        fail(path, "cannot write: " + errno_text());
    }
    bool ok = std::fwrite(content.data(), 1, content.size(), out) == content.size();
    ok = (std::fflush(out) == 0) && ok;
    int saved = errno;
    ok = (std::fclose(out) == 0) && ok;
    if (!ok) {
        errno = saved != 0 ? saved : errno;
        fail(path, "write failed: " + errno_text());
    }
    file.commit();
}

} // namespace cellshift::data
