#include "cellshift/eval/inspect.hpp"

#include "cellshift/data/checkpoint.hpp"
#include "cellshift/data/controller_file.hpp"
#include "cellshift/data/error.hpp"
#include "cellshift/data/file_info.hpp"
#include "cellshift/data/run_record.hpp"
#include "cellshift/data/snapshot.hpp"
#include "cellshift/data/trace.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <numeric>
#include <set>
#include <sstream>

namespace cellshift::eval {
namespace {

std::string describe_trace(const data::Trace& t) {
    double total = std::accumulate(t.workload.values.begin(), t.workload.values.end(), 0.0);
    std::ostringstream out;
    out << "trace, " << t.events() << " events x " << t.slices() << " slices, mean workload "
        << total / static_cast<double>(t.events()) << " per event";
    if (t.growth_events) {
        out << ", growth events";
    }
    if (t.cycle_phase) {
        out << ", cycle phase";
    }
    if (t.estimate) {
        out << ", the per-slice estimate a policy observes";
    }
    if (!t.source.empty()) {
        out << ", source: " << t.source;
    }
    return out.str();
}

std::string describe_controller(const data::Controller& c) {
    std::ostringstream out;
    out << "controller, GRU hidden " << c.hidden_size() << ", " << c.feature_count()
        << " features, " << c.parameter_count() << " parameters, " << c.base << " base";
    if (c.base == data::kForecastBase || c.base == data::kBlendBase) {
        out << " (holt level " << c.forecast_level_alpha << ", trend " << c.forecast_trend_beta;
        if (c.base == data::kBlendBase) {
            out << "; fast level " << c.fast_level_alpha << ", trend " << c.fast_trend_beta;
        }
        out << ")";
    }
    // The settings that change what the base decides, so two files can be told apart.
    if (c.hold_horizon > 0.0) {
        out << ", cost gate (hold horizon " << c.hold_horizon << " intervals"
            << (c.refine_split == data::kRefineMoves ? ", minimax refinement of its moves"
                : c.refine_split == data::kRefineMovesAndHolds
                    ? ", minimax refinement of its moves and holds"
                    : "")
            << ")";
    }
    if (c.calibration_keep < 1.0) {
        out << ", estimates calibrated (keep " << c.calibration_keep << " per event)";
    }
    out << ", alpha " << c.alpha << ", tau " << c.tau << ", ds_max " << c.ds_max_fraction
        << " x mean width, trained " << c.training.steps << " steps (seed " << c.training.seed
        << ", lambda " << c.training.lambda << ")";
    return out.str();
}

std::string describe_run(const data::RunRecord& r) {
    double mean_imbalance = std::accumulate(r.imbalance.begin(), r.imbalance.end(), 0.0) /
                            static_cast<double>(r.events());
    std::int64_t migrated =
        std::accumulate(r.migrated_slices.begin(), r.migrated_slices.end(), std::int64_t{0});
    std::ostringstream out;
    out << "run record, policy " << r.policy << ", clock " << r.clock << ", " << r.events()
        << " events, " << r.ranks() << " ranks, " << r.slices << " slices (w_min " << r.w_min
        << "), mean imbalance " << 100.0 * mean_imbalance << "%, " << migrated
        << " slices migrated";
    return out.str();
}

bool has_csv_extension(const std::string& path) {
    if (path.size() < 4) {
        return false;
    }
    std::string ext = path.substr(path.size() - 4);
    std::transform(ext.begin(), ext.end(), ext.begin(),
                   [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
    return ext == ".csv";
}

} // namespace

std::string describe_snapshot(const data::Snapshot& s) {
    std::array<std::int64_t, 3> types{};
    for (std::int64_t t : s.cell_type)
        ++types[static_cast<std::size_t>(t)];
    std::set<std::int64_t> cells(s.cell_id.begin(), s.cell_id.end());
    std::ostringstream out;
    out << "snapshot, step " << s.step << ", time " << s.time << ", " << s.positions.rows
        << " elements in " << cells.size() << " cells (elements by cell type: stem " << types[0]
        << ", transit-amplifying " << types[1] << ", suprabasal " << types[2] << ")";
    return out.str();
}

std::string describe_checkpoint(const data::Checkpoint& c) {
    std::ostringstream out;
    out << "checkpoint, step " << c.step << ", time " << c.time << ", " << c.element_id.size()
        << " elements in " << c.cell_id.size() << " cells on " << c.ranks << " ranks, " << c.slices
        << " slabs, policy " << c.policy << " (" << c.policy_state.size() << " state arrays), "
        << (c.balancer_state.count("history/step") ? c.balancer_state.at("history/step").size() : 0)
        << " events so far";
    return out.str();
}

std::string describe_file(const std::string& path) {
    if (has_csv_extension(path)) {
        return path + ": CSV " + describe_trace(data::read_trace_csv(path));
    }
    data::FileInfo info = data::read_file_info(path);
    std::string prefix =
        path + ": " + info.format + " v" + std::to_string(info.format_version) + ", ";
    if (info.format == data::kTraceFormat) {
        return prefix + describe_trace(data::read_trace_hdf5(path));
    }
    if (info.format == data::kControllerFormat) {
        return prefix + describe_controller(data::read_controller(path));
    }
    if (info.format == data::kRunRecordFormat) {
        return prefix + describe_run(data::read_run_record(path));
    }
    if (info.format == data::kCheckpointFormat) {
        return prefix + describe_checkpoint(data::read_checkpoint(path));
    }
    if (info.format == data::kSnapshotFormat) {
        return prefix + describe_snapshot(data::read_snapshot(path));
    }
    data::fail(path, "unknown format '" + info.format +
                         "' (expected cellshift.controller, "
                         "cellshift.trace or cellshift.run)");
}

} // namespace cellshift::eval
