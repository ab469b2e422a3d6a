#pragma once
// Run records (format "cellshift.run", docs/design.md section 6), written by the
// simulator and by the evaluator: what every rank did at every rebalancing event.

#include "cellshift/data/array2d.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cellshift::data {

inline constexpr const char* kRunRecordFormat = "cellshift.run";
inline constexpr int kRunRecordFormatVersion = 1;

// Which clock produced rank_time. Every report names it.
//   measured: wall clock (steady clock or CUDA events) per rank
//   model:    the simulator's calibrated cost model
//   workload: sum of the per-slice workload a rank owns (controller-level evaluation)
inline const std::vector<std::string>& known_clocks() {
    static const std::vector<std::string> clocks{"measured", "model", "workload"};
    return clocks;
}

// A simulator run's totals under both clocks (the evaluator has none). Runtime =
// sum over steps of the slowest rank's time, plus migration.
struct RunTotals {
    std::int64_t steps = 0;
    double model_runtime = 0.0;    // model clock [s]
    double model_migration = 0.0;  // of which migration [s]
    double model_mean = 0.0;       // sum over steps of the mean rank time (perfect balance) [s]
    double measured_runtime = 0.0; // steady clock around each rank's compute [s]
    double wall_seconds = 0.0;     // the run's wall time [s]
    std::int64_t ghosts = 0;       // ghost elements received, summed over steps and ranks
};

struct RunRecord {
    Matrix rank_time;                          // [E, P], finite, >= 0
    IntMatrix boundaries;                      // [E, P+1], b_0 = 0, b_P = slices
    std::vector<std::int64_t> migrated_slices; // [E], >= 0
    std::vector<double> imbalance;             // [E], max/mean - 1 of that interval, >= 0
    std::optional<IntMatrix> elements;         // [E, P]: simulator runs only (the
                                               // controller-level evaluator has no elements)
    std::string clock;                         // one of known_clocks()
    std::string policy;                        // registry name of the balancing policy
    std::int64_t slices = 0;                   // S
    std::int64_t w_min = 1;                    // minimum slices per rank
    std::string configuration;                 // the run's configuration, as text
    std::string source;                        // free text: tool, scenario, trace file
    std::optional<RunTotals> totals;           // simulator runs only (group "totals")

    std::size_t events() const { return rank_time.rows; }
    std::size_t ranks() const { return rank_time.cols; }
};

void validate(const RunRecord& record, const std::string& where);
RunRecord read_run_record(const std::string& path);
void write_run_record(const std::string& path, const RunRecord& record);

} // namespace cellshift::data
