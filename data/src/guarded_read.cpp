#include "guarded_read.hpp"

#include "cellshift/data/error.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <new>

#if defined(__has_include)
#if __has_include(<sanitizer/common_interface_defs.h>)
#include <sanitizer/common_interface_defs.h>
#define CELLSHIFT_HAVE_SANITIZER_INTERFACE 1
#endif
#endif

#if defined(__SANITIZE_ADDRESS__)
#define CELLSHIFT_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CELLSHIFT_ASAN 1
#endif
#endif

namespace cellshift::data::detail {

namespace {

constexpr int kChildOk = 0;
constexpr int kChildError = 3; // data::Error, message on the pipe
constexpr int kChildOutOfMemory = 4;

double timeout_seconds() {
    const char* text = std::getenv("CELLSHIFT_READ_TIMEOUT");
    const double t = text != nullptr ? std::atof(text) : 0.0;
    return t > 0.0 ? t : 120.0;
}

[[noreturn]] void run_child(int out, const std::function<void()>& read, const std::string& path) {
    // Quiet (a crashing HDF5 or a sanitizer report is the parent's one line), and
    // bounded in memory so that a corrupt length fails instead of swapping.
    const int null = ::open("/dev/null", O_WRONLY);
    if (null >= 0)
        ::dup2(null, STDERR_FILENO);
    // Die plainly: a crash handler inherited from the parent (libFuzzer's, which
    // would save the input as a finding of its own and exit) must not run here,
    // the parent reports the signal.
    for (const int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT})
        ::signal(sig, SIG_DFL);
#if defined(CELLSHIFT_ASAN) && defined(CELLSHIFT_HAVE_SANITIZER_INTERFACE)
    __sanitizer_set_death_callback(nullptr);
#endif
#ifdef CELLSHIFT_ASAN // ASan reserves terabytes of address space: no limit
    (void)path;
#else
    struct stat st {};
    const double size = ::stat(path.c_str(), &st) == 0 ? static_cast<double>(st.st_size) : 0.0;
    const double limit = std::max(8.0 * (1ull << 30), 64.0 * size);
    const rlimit memory{static_cast<rlim_t>(limit), static_cast<rlim_t>(limit)};
    ::setrlimit(RLIMIT_AS, &memory);
#endif
    int code = kChildOk;
    try {
        read();
    } catch (const Error& e) {
        const std::string message = e.what();
        (void)!::write(out, message.data(), message.size());
        code = kChildError;
    } catch (const std::bad_alloc&) {
        code = kChildOutOfMemory;
    } catch (...) {
        code = 5;
    }
    ::_exit(code);
}

} // namespace

void validate_in_child(const std::string& path, const std::function<void()>& read) {
    const char* in_process = std::getenv("CELLSHIFT_READ_IN_PROCESS");
    if (in_process != nullptr && std::strcmp(in_process, "1") == 0)
        return;
    int pipe_fds[2];
    if (::pipe(pipe_fds) != 0)
        return; // no child possible: read in process, as before
    const pid_t pid = ::fork();
    if (pid < 0) {
        ::close(pipe_fds[0]);
        ::close(pipe_fds[1]);
        return;
    }
    if (pid == 0) {
        ::close(pipe_fds[0]);
        run_child(pipe_fds[1], read, path);
    }
    ::close(pipe_fds[1]);
    std::string message;
    const auto deadline =
        std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_seconds());
    int status = 0;
    bool done = false;
    while (!done) {
        pollfd p{pipe_fds[0], POLLIN, 0};
        if (::poll(&p, 1, 20) > 0 && (p.revents & POLLIN) != 0) {
            char buffer[4096];
            const ssize_t n = ::read(pipe_fds[0], buffer, sizeof buffer);
            if (n > 0)
                message.append(buffer, static_cast<std::size_t>(n));
        }
        const pid_t r = ::waitpid(pid, &status, WNOHANG);
        if (r == pid) {
            done = true;
        } else if (std::chrono::steady_clock::now() > deadline) {
            ::kill(pid, SIGKILL);
            ::waitpid(pid, &status, 0);
            ::close(pipe_fds[0]);
            fail(path, "corrupt HDF5 file: reading it did not finish in " +
                           std::to_string(static_cast<int>(timeout_seconds())) +
                           " s (the HDF5 library loops on it)");
        }
    }
    // What the child wrote after its last poll.
    char buffer[4096];
    ssize_t n = 0;
    while ((n = ::read(pipe_fds[0], buffer, sizeof buffer)) > 0)
        message.append(buffer, static_cast<std::size_t>(n));
    ::close(pipe_fds[0]);
    if (WIFEXITED(status)) {
        switch (WEXITSTATUS(status)) {
        case kChildOk:
            return;
        case kChildError:
            throw Error(message);
        case kChildOutOfMemory:
            fail(path, "corrupt HDF5 file: reading it runs out of memory");
        default:
            break;
        }
        fail(path, "corrupt HDF5 file: the HDF5 library failed reading it (exit " +
                       std::to_string(WEXITSTATUS(status)) + ")");
    }
    fail(path, "corrupt HDF5 file: the HDF5 library crashed reading it (signal " +
                   std::to_string(WIFSIGNALED(status) ? WTERMSIG(status) : 0) + ")");
}

} // namespace cellshift::data::detail
