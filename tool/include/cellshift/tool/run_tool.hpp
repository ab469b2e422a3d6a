#pragma once
// The error contract shared by every command-line tool: a bad option or a bad
// input file gives exactly one line on stderr ("<tool>: error: <problem>") and a
// non-zero exit, never a stack trace. The tools' own library (cellshift::tool), not
// the libraries' business; it is templated on CLI11's ParseError so that CLI11 itself
// is included only by each tool's main translation unit.

#include "cellshift/data/error.hpp"

#include <functional>
#include <iostream>
#include <new>
#include <string>

namespace cellshift::tool {

using data::Error;

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

// Process-wide settings every tool needs before its first HDF5 call: libhdf5's
// exit-time cleanup is turned off, because after a write that failed part way
// (a full disk) it closes the half-closed file again and crashes in
// H5F__close_cb, turning a clean one-line error into a segmentation fault. Every
// file cellshift writes is closed explicitly before it is renamed into place, so
// nothing is left for that cleanup to flush. (Libraries linking the controller
// do not call this: their host's HDF5 settings are its own.)
void prepare_tool_process();

// Whether every process of a parallel run parsed its command line: what an
// MPI tool's `agree_on_parse` returns (see run_tool).
enum class ParseAgreement { all_parsed, failed_here_first, failed_elsewhere };

// Parses the command line with `app`, then runs `body` (which returns the exit
// code). `report_errors` is false on MPI ranks other than 0, so that a mistake
// made on every rank is reported once. An MPI tool passes `agree_on_parse`,
// called on every rank right after parsing with whether this rank parsed: a rank
// alone with a bad command line (mpirun's MPMD form gives ranks different ones)
// must not leave the others waiting in a collective. The first failing rank
// reports, every rank exits with the usage code.
template <typename ParseError, typename App, typename Body>
int run_tool(const std::string& tool, App& app, int argc, char** argv, Body&& body,
             bool report_errors = true,
             const std::function<ParseAgreement(bool)>& agree_on_parse = {}) {
    auto report = [&](const std::string& message) {
        if (report_errors) {
            std::cerr << tool << ": error: " << one_line(message) << "\n";
        }
    };
    prepare_tool_process();
    std::string parse_problem;
    try {
        app.parse(argc, argv);
    } catch (const ParseError& e) {
        if (e.get_exit_code() == 0) { // --help, --version
            return report_errors ? app.exit(e) : 0;
        }
        parse_problem = std::string(e.what()) + " (run with --help for usage)";
        if (!agree_on_parse) {
            report(parse_problem);
            return kExitUsage;
        }
    }
    if (agree_on_parse) {
        switch (agree_on_parse(parse_problem.empty())) {
        case ParseAgreement::all_parsed:
            break;
        case ParseAgreement::failed_here_first:
            std::cerr << tool << ": error: " << one_line(parse_problem) << "\n";
            return kExitUsage;
        case ParseAgreement::failed_elsewhere:
            return kExitUsage;
        }
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

} // namespace cellshift::tool
