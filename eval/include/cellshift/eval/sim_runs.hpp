#pragma once
// The end-to-end comparison (issue 6): simulator run records of the same tissue
// under different policies, side by side: mean global imbalance, runtime
// relative to a baseline run (model clock), migrated slabs, and the gap between
// the model and the measured clock.

#include "cellshift/data/run_record.hpp"

#include <string>
#include <vector>

namespace cellshift::eval {

struct SimRunRow {
    std::string file;
    std::string policy; // row name: the registry name, "rnn (STEM)" for a controller file
    std::string style;  // the registry name alone
    std::string clock;  // the clock the policy saw
    std::size_t ranks = 0;
    std::size_t events = 0;
    double mean_imbalance = 0.0;      // mean over events of max/mean - 1 (the policy's clock)
    double model_runtime = 0.0;       // [s]
    double runtime_vs_baseline = 0.0; // model_runtime / baseline's - 1; NaN without baseline
    double measured_runtime = 0.0;    // [s]
    double wall_seconds = 0.0;
    std::int64_t migrated_slices = 0;
};

// One row per file (in the given order). Every file must be a simulator run
// record (with totals) of the same rank count and slab count; the baseline is
// the first run of policy `baseline` on the model clock.
std::vector<SimRunRow> compare_sim_runs(const std::vector<std::string>& files,
                                        const std::string& baseline);
std::string sim_runs_table(const std::vector<SimRunRow>& rows, const std::string& baseline);
std::string sim_runs_csv(const std::vector<SimRunRow>& rows);

} // namespace cellshift::eval
