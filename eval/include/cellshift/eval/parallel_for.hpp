#pragma once
// body(i) for i in [0, n) on `threads` threads (the caller's among them). The
// first exception stops the other workers and is rethrown to the caller.

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace cellshift::eval {

inline void parallel_for(std::size_t n, int threads, const std::function<void(std::size_t)>& body) {
    std::atomic<std::size_t> next{0};
    std::mutex failed;
    std::exception_ptr failure;
    auto worker = [&] {
        try {
            for (std::size_t i = next++; i < n; i = next++) {
                body(i);
            }
        } catch (...) {
            std::lock_guard<std::mutex> lock(failed);
            if (!failure) {
                failure = std::current_exception();
            }
            next = n; // stop the other workers
        }
    };
    std::vector<std::thread> pool;
    for (int k = 1; k < std::min<int>(threads, static_cast<int>(n)); ++k) {
        pool.emplace_back(worker);
    }
    worker();
    for (auto& t : pool) {
        t.join();
    }
    if (failure) {
        std::rethrow_exception(failure);
    }
}

} // namespace cellshift::eval
