#pragma once
// Workload traces (format "cellshift.trace", docs/design.md section 6): the cost of each
// slice in each rebalancing event. A trace holds no rank count; the evaluator
// chooses P. The same table can be read from CSV (one row per event, one column
// per slice), so users can bring workload histories from their own codes.

#include "cellshift/data/array2d.hpp"

#include <optional>
#include <string>
#include <vector>

namespace cellshift::data {

inline constexpr const char* kTraceFormat = "cellshift.trace";
inline constexpr int kTraceFormatVersion = 1;

struct Trace {
    Matrix workload;                                // [E, S], finite, >= 0
    std::optional<Matrix> growth_events;            // [E, S], finite, >= 0
    std::optional<std::vector<double>> cycle_phase; // [E], finite
    std::string source;                             // free text: who made it, how
    std::optional<double> slice_width;              // physical width of one slice, > 0
    // [S], finite, >= 0: the load that sets the workload-aware initial partition
    // when it is not row 0 (the simulator's initial workload score); optional.
    std::optional<std::vector<double>> initial_load;
    // [E, S], finite, >= 0: what a live policy observed per slice when `workload` is
    // a modelled cost it never sees (the simulator's per-slab estimate at each
    // interval's last step). A replay shows the policy this row and charges `workload`;
    // optional.
    std::optional<Matrix> estimate;

    std::size_t events() const { return workload.rows; }
    std::size_t slices() const { return workload.cols; }
};

// Whether the first CSV line holds column names.
enum class CsvHeader {
    Auto,    // a header if no cell of the first line is a number
    Present, // the first line is always a header
    Absent,  // every line is data
};

void validate(const Trace& trace, const std::string& where);

Trace read_trace_hdf5(const std::string& path);
Trace read_trace_csv(const std::string& path, CsvHeader header = CsvHeader::Auto);
// By extension: ".csv" (any case) is read as CSV, everything else as HDF5.
Trace read_trace(const std::string& path);

void write_trace(const std::string& path, const Trace& trace);

} // namespace cellshift::data
