#pragma once
// The error contract shared by every command-line tool: a bad option or a bad
// input file gives exactly one line on stderr ("<tool>: error: <problem>") and a
// non-zero exit, never a stack trace. It lives in the data layer because that is
// the one library every tool links; it is templated on CLI11's ParseError so that
// CLI11 itself is included only by each tool's main translation unit.

#include "cellshift/data/error.hpp"

#include <iostream>
#include <new>
#include <string>

namespace cellshift::data {

// Exit codes: 0 success, 1 bad input or failed run, 2 bad command line.
inline constexpr int kExitFailure = 1;
inline constexpr int kExitUsage = 2;

// Collapses a message to one line (CLI11 and the OS sometimes add newlines).
inline std::string one_line(std::string text) {
    for (char& ch : text) {
        if (ch == '\n' || ch == '\r') {
            ch = ' ';
        }
    }
    while (!text.empty() && text.back() == ' ') {
        text.pop_back();
    }
    return text;
}

// Parses the command line with `app`, then runs `body` (which returns the exit
// code). `report_errors` is false on MPI ranks other than 0, so that a mistake
// made on every rank is reported once.
template <typename ParseError, typename App, typename Body>
int run_tool(const std::string& tool, App& app, int argc, char** argv, Body&& body,
             bool report_errors = true) {
    auto report = [&](const std::string& message) {
        if (report_errors) {
            std::cerr << tool << ": error: " << one_line(message) << "\n";
        }
    };
    try {
        app.parse(argc, argv);
    } catch (const ParseError& e) {
        if (e.get_exit_code() == 0) { // --help, --version
            return report_errors ? app.exit(e) : 0;
        }
        report(std::string(e.what()) + " (run with --help for usage)");
        return kExitUsage;
    }
    try {
        return body();
    } catch (const Error& e) {
        report(e.what());
    } catch (const std::bad_alloc&) {
        report("out of memory");
    } catch (const std::exception& e) {
        report(e.what());
    }
    return kExitFailure;
}

} // namespace cellshift::data
