// Atomic writes: an interrupted, failed or refused write never leaves a half
// file under the real name and never destroys the file that was there.

#include "../../data/src/hdf5_io.hpp"
#include "../support/expect_error.hpp"
#include "../support/samples.hpp"
#include "../support/temp_dir.hpp"
#include "cellshift/data/atomic_file.hpp"
#include "cellshift/data/trace.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <stdexcept>

#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace cellshift;
using cellshift::test::TempDir;

namespace {

// Runs `write` in a child process whose files may not grow past `limit_bytes`
// (RLIMIT_FSIZE: the kernel answers EFBIG, as a full disk answers ENOSPC).
// Returns the child's error message, or "" if the write succeeded.
template <typename F>
std::string with_file_size_limit(rlim_t limit_bytes, F&& write) {
    int fds[2];
    REQUIRE(::pipe(fds) == 0);
    pid_t pid = ::fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
        ::close(fds[0]);
        std::signal(SIGXFSZ, SIG_IGN);
        rlimit limit{limit_bytes, limit_bytes};
        ::setrlimit(RLIMIT_FSIZE, &limit);
        std::string message;
        try {
            write();
        } catch (const data::Error& e) {
            message = e.what();
        } catch (const std::exception& e) {
            message = std::string("unexpected exception: ") + e.what();
        }
        ssize_t ignored = ::write(fds[1], message.data(), message.size());
        (void)ignored;
        ::_exit(0);
    }
    ::close(fds[1]);
    std::string message;
    char buffer[512];
    ssize_t n;
    while ((n = ::read(fds[0], buffer, sizeof buffer)) > 0) {
        message.append(buffer, static_cast<std::size_t>(n));
    }
    ::close(fds[0]);
    int status = 0;
    ::waitpid(pid, &status, 0);
    CHECK(WIFEXITED(status));
    return message;
}

} // namespace

TEST_CASE("atomic write: success leaves exactly the final file", "[data][atomic]") {
    TempDir dir;
    auto path = dir.file("trace.h5");
    data::write_trace(path, test::sample_trace());
    data::write_trace(path, test::sample_trace(3, 3)); // replaces it
    CHECK(dir.entries() == std::vector<std::string>{"trace.h5"});
    CHECK(data::read_trace(path).slices() == 3);
}

TEST_CASE("atomic write: outputs get the usual permissions, not mkstemp's 0600", "[data][atomic]") {
    TempDir dir;
    mode_t old = ::umask(022);
    data::write_text_atomically(dir.file("table.csv"), "a,b\n");
    ::umask(old);
    struct stat st {};
    REQUIRE(::stat(dir.file("table.csv").c_str(), &st) == 0);
    CHECK((st.st_mode & 0777) == 0644);
}

TEST_CASE("atomic write: a refused write keeps the old file byte for byte", "[data][atomic]") {
    TempDir dir;
    auto path = dir.file("trace.h5");
    data::write_trace(path, test::sample_trace());
    std::string before = test::read_file(path);
    data::Trace bad = test::sample_trace();
    bad.workload(0, 0) = -1.0;
    CHECK_DATA_ERROR(data::write_trace(path, bad), path, "negative");
    CHECK(test::read_file(path) == before);
    CHECK(dir.entries() == std::vector<std::string>{"trace.h5"});
}

TEST_CASE("atomic write: an exception in the middle of a write removes the temporary file",
          "[data][atomic]") {
    TempDir dir;
    auto path = dir.file("out.h5");
    data::write_text_atomically(path, "old content");
    CHECK_THROWS_WITH(data::h5::write_atomically(path, "cellshift.test", 1,
                                                 [](data::h5::Writer& out) {
                                                     out.vector("x", {1.0, 2.0});
                                                     throw std::runtime_error("interrupted");
                                                 }),
                      "interrupted");
    CHECK(test::read_file(path) == "old content");
    CHECK(dir.entries() == std::vector<std::string>{"out.h5"});
}

TEST_CASE("atomic write: a full disk gives one line and keeps the old file", "[data][atomic]") {
    TempDir dir;
    auto path = dir.file("trace.h5");
    data::write_trace(path, test::sample_trace());
    std::string before = test::read_file(path);

    data::Trace big = test::sample_trace(400, 1000, false); // 3.2 MB of workload
    std::string message = with_file_size_limit(64 * 1024, [&] { data::write_trace(path, big); });
    INFO("message: " << message);
    CHECK(message.rfind(path + ": write failed", 0) == 0);
    CHECK(message.find("File too large") != std::string::npos);
    CHECK(message.find('\n') == std::string::npos);
    CHECK(test::read_file(path) == before);
    CHECK(dir.entries() == std::vector<std::string>{"trace.h5"});

    std::string text_message = with_file_size_limit(
        1024, [&] { data::write_text_atomically(path, std::string(1 << 20, 'x')); });
    CHECK(text_message.rfind(path + ": write failed: File too large", 0) == 0);
    CHECK(test::read_file(path) == before);
    CHECK(dir.entries() == std::vector<std::string>{"trace.h5"});
}

TEST_CASE("atomic write: unwritable destinations are one-line errors", "[data][atomic]") {
    TempDir dir;
    auto missing = dir.file("no-such-dir/trace.h5");
    CHECK_DATA_ERROR(data::write_trace(missing, test::sample_trace()), missing,
                     "cannot create a temporary file beside it: No such file or directory");
    std::filesystem::create_directory(dir.file("a-directory"));
    CHECK_DATA_ERROR(data::write_trace(dir.file("a-directory"), test::sample_trace()),
                     dir.file("a-directory"), "is a directory");
}

TEST_CASE("atomic write: temporaries of a killed writer on this host are removed, others kept",
          "[data][atomic]") {
    TempDir dir;
    const std::string path = dir.file("ckpt.h5");
    char host[256] = {};
    REQUIRE(::gethostname(host, sizeof host - 1) == 0);
    std::string me = host;
    for (char& ch : me)
        if (ch == '/' || ch == '-')
            ch = '_';
    const pid_t dead = ::fork(); // a pid that no longer runs
    REQUIRE(dead >= 0);
    if (dead == 0)
        ::_exit(0);
    ::waitpid(dead, nullptr, 0);
    auto touch = [&](const std::string& name) {
        std::FILE* f = std::fopen(dir.file(name).c_str(), "w");
        REQUIRE(f != nullptr);
        std::fclose(f);
    };
    const std::string stale = "ckpt.h5.tmp-" + me + "-" + std::to_string(dead) + "-abcdef";
    const std::string alive = "ckpt.h5.tmp-" + me + "-" + std::to_string(::getpid()) + "-abcdef";
    const std::string remote = "ckpt.h5.tmp-otherhost-" + std::to_string(dead) + "-abcdef";
    const std::string other_file = "run.h5.tmp-" + me + "-" + std::to_string(dead) + "-abcdef";
    for (const auto& name : {stale, alive, remote, other_file})
        touch(name);
    data::write_trace(path, test::sample_trace());
    auto entries = dir.entries();
    CHECK(std::find(entries.begin(), entries.end(), stale) == entries.end());
    for (const auto& kept : {alive, remote, other_file, std::string("ckpt.h5")})
        CHECK(std::find(entries.begin(), entries.end(), kept) != entries.end());
}
