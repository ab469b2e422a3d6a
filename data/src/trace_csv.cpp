// CSV import of workload traces: one row per event, one column per slice,
// comma-separated, optional header line, '#' comment lines and blank lines ignored.
// Errors name the line and column, so a user can fix a file from the message alone.

#include "cellshift/data/error.hpp"
#include "cellshift/data/trace.hpp"

#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string_view>

namespace cellshift::data {
namespace {

std::string_view trim(std::string_view s) {
    const char* space = " \t\r\n";
    auto begin = s.find_first_not_of(space);
    if (begin == std::string_view::npos) {
        return {};
    }
    auto end = s.find_last_not_of(space);
    return s.substr(begin, end - begin + 1);
}

std::vector<std::string_view> split(std::string_view line) {
    std::vector<std::string_view> cells;
    std::size_t start = 0;
    while (true) {
        auto comma = line.find(',', start);
        cells.push_back(trim(line.substr(start, comma - start)));
        if (comma == std::string_view::npos) {
            return cells;
        }
        start = comma + 1;
    }
}

// A number in C locale notation, or nothing. std::from_chars ignores the locale.
std::optional<double> parse_number(std::string_view cell) {
    if (!cell.empty() && cell.front() == '+') {
        cell.remove_prefix(1);
    }
    if (cell.empty()) {
        return std::nullopt;
    }
    double value = 0.0;
    auto [end, ec] = std::from_chars(cell.data(), cell.data() + cell.size(), value);
    if (ec != std::errc() || end != cell.data() + cell.size()) {
        return std::nullopt;
    }
    return value;
}

std::string where(const std::string& path, std::size_t line, std::size_t column) {
    return path + ":" + std::to_string(line) + ": column " + std::to_string(column);
}

} // namespace

Trace read_trace_csv(const std::string& path, CsvHeader header) {
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) {
        fail(path, "no such file");
    }
    if (std::filesystem::is_directory(path, ec)) {
        fail(path, "is a directory, not a file");
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        fail(path, "cannot open for reading");
    }

    Trace trace;
    trace.source = "CSV import of " + std::filesystem::path(path).filename().string();
    std::size_t columns = 0;      // set by the first line (header or data)
    std::size_t columns_line = 0; // the line that set it
    std::string line;
    std::size_t line_number = 0;
    bool first = true;
    while (std::getline(in, line)) {
        ++line_number;
        std::string_view text = trim(line);
        if (text.empty() || text.front() == '#') {
            continue;
        }
        if (line_number == 1 && text.substr(0, 3) == "\xEF\xBB\xBF") { // UTF-8 byte order mark
            text = trim(text.substr(3));
        }
        auto cells = split(text);
        if (first) {
            first = false;
            columns = cells.size();
            columns_line = line_number;
            bool is_header = header == CsvHeader::Present;
            if (header == CsvHeader::Auto) {
                is_header = true;
                for (auto cell : cells) {
                    if (parse_number(cell)) {
                        is_header = false;
                        break;
                    }
                }
            }
            if (is_header) {
                continue;
            }
        }
        if (cells.size() != columns) {
            fail(path + ":" + std::to_string(line_number),
                 "ragged row: " + std::to_string(cells.size()) + " columns, expected " +
                     std::to_string(columns) + " (as on line " + std::to_string(columns_line) +
                     ")");
        }
        std::size_t row = trace.workload.rows;
        trace.workload.values.resize(trace.workload.values.size() + columns);
        for (std::size_t c = 0; c < columns; ++c) {
            auto value = parse_number(cells[c]);
            if (!value) {
                fail(where(path, line_number, c + 1),
                     cells[c].empty() ? std::string("empty cell, expected a number")
                                      : "'" + std::string(cells[c]) + "' is not a number");
            }
            if (!std::isfinite(*value)) {
                fail(where(path, line_number, c + 1),
                     "'" + std::string(cells[c]) + "' is not finite (values must be finite)");
            }
            if (*value < 0.0) {
                fail(where(path, line_number, c + 1),
                     "negative workload " + std::string(cells[c]) + " (values must be >= 0)");
            }
            trace.workload.values[row * columns + c] = *value;
        }
        trace.workload.rows = row + 1;
        trace.workload.cols = columns;
    }
    if (in.bad()) {
        fail(path, "read error");
    }
    if (trace.workload.rows == 0) {
        fail(path, "empty trace: no data rows (one row per event, one column per slice)");
    }
    validate(trace, path);
    return trace;
}

} // namespace cellshift::data
