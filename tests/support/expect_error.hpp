#pragma once
// Asserting on the data layer's error contract: the call throws
// cellshift::data::Error whose message is one line, starts with the file name
// and names the problem.

#include "cellshift/data/error.hpp"

#include <catch2/catch.hpp>

#include <string>

namespace cellshift::test {

template <typename F>
std::string error_of(F&& f) {
    try {
        f();
    } catch (const data::Error& e) {
        return e.what();
    }
    return "<no error was thrown>";
}

} // namespace cellshift::test

#define CHECK_DATA_ERROR(expr, where, fragment)                                                    \
    do {                                                                                           \
        const std::string message_ = cellshift::test::error_of([&] { (void)(expr); });             \
        INFO("message: " << message_);                                                             \
        CHECK(message_.rfind(std::string(where), 0) == 0);                                         \
        CHECK(message_.find(fragment) != std::string::npos);                                       \
        CHECK(message_.find('\n') == std::string::npos);                                           \
    } while (0)
