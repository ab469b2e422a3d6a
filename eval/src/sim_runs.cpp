#include "cellshift/eval/sim_runs.hpp"

#include "cellshift/data/error.hpp"

#include <cmath>
#include <filesystem>
#include <iomanip>
#include <limits>
#include <numeric>
#include <sstream>

namespace cellshift::eval {
namespace {

// The value of the configuration text's `KEY = VALUE` line, or "" (the text is
// the run's CLI11 configuration, one option per line).
std::string configuration_value(const data::RunRecord& r, const std::string& option) {
    std::istringstream lines(r.configuration);
    const std::string key = option + " = ";
    for (std::string line; std::getline(lines, line);) {
        const std::size_t at = line.find(key);
        if (at != std::string::npos && line.find_first_not_of(' ') == at) {
            return line.substr(at + key.size());
        }
    }
    return "";
}

// The row name: the policy; for a learned policy the stem of the controller file it
// ran ("rnn (default)"), so that runs of several controllers are told apart; and
// the parameters the run overrode ("holt [calibrate=0.9]").
std::string row_name(const data::RunRecord& r) {
    std::string name = r.policy;
    if (r.policy == "rnn") {
        const std::string path = configuration_value(r, "--controller");
        if (!path.empty()) {
            name += " (" + std::filesystem::path(path).stem().string() + ")";
        }
    }
    std::istringstream overrides(configuration_value(r, "--param"));
    std::string shown;
    for (std::string p; overrides >> p;) {
        const std::string prefix = r.policy + ".";
        shown +=
            (shown.empty() ? "" : " ") + (p.rfind(prefix, 0) == 0 ? p.substr(prefix.size()) : p);
    }
    return shown.empty() ? name : name + " [" + shown + "]";
}

} // namespace

std::vector<SimRunRow> compare_sim_runs(const std::vector<std::string>& files,
                                        const std::string& baseline) {
    std::vector<SimRunRow> rows;
    std::int64_t slices = -1;
    for (const std::string& file : files) {
        const data::RunRecord r = data::read_run_record(file);
        if (!r.totals)
            throw data::Error(file + ": not a simulator run record (no totals); write one with "
                                     "cellshift-sim run --run-record");
        if (!rows.empty() && (r.ranks() != rows.front().ranks || r.slices != slices))
            throw data::Error(file + ": " + std::to_string(r.ranks()) + " ranks and " +
                              std::to_string(r.slices) + " slabs, but " + rows.front().file +
                              " has " + std::to_string(rows.front().ranks) + " and " +
                              std::to_string(slices) + ": compare runs of the same setup");
        slices = r.slices;
        SimRunRow row;
        row.file = file;
        row.policy = row_name(r);
        row.style = r.policy;
        row.clock = r.clock;
        row.ranks = r.ranks();
        row.events = r.events();
        row.mean_imbalance = r.events() > 0
                                 ? std::accumulate(r.imbalance.begin(), r.imbalance.end(), 0.0) /
                                       static_cast<double>(r.events())
                                 : 0.0;
        row.model_runtime = r.totals->model_runtime;
        row.measured_runtime = r.totals->measured_runtime;
        row.wall_seconds = r.totals->wall_seconds;
        row.migrated_slices =
            std::accumulate(r.migrated_slices.begin(), r.migrated_slices.end(), std::int64_t{0});
        rows.push_back(row);
    }
    double reference = std::numeric_limits<double>::quiet_NaN();
    for (const SimRunRow& row : rows) {
        if ((row.style == baseline || row.policy == baseline) && row.clock == "model") {
            reference = row.model_runtime;
            break;
        }
    }
    for (SimRunRow& row : rows)
        row.runtime_vs_baseline = row.model_runtime / reference - 1.0;
    return rows;
}

std::string sim_runs_table(const std::vector<SimRunRow>& rows, const std::string& baseline) {
    std::ostringstream out;
    out << "| policy | clock seen | mean imbalance | runtime, model clock | vs " << baseline
        << " | runtime, measured clock | wall | migrated slabs |\n"
        << "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |\n";
    out << std::fixed;
    for (const SimRunRow& r : rows) {
        out << "| " << r.policy << " | " << r.clock << " | " << std::setprecision(2)
            << 100.0 * r.mean_imbalance << "% | " << std::setprecision(3) << r.model_runtime
            << " s | ";
        if (std::isnan(r.runtime_vs_baseline))
            out << "- | ";
        else
            out << std::showpos << std::setprecision(1) << 100.0 * r.runtime_vs_baseline << "%"
                << std::noshowpos << " | ";
        out << std::setprecision(3) << r.measured_runtime << " s | " << std::setprecision(1)
            << r.wall_seconds << " s | " << r.migrated_slices << " |\n";
    }
    return out.str();
}

std::string sim_runs_csv(const std::vector<SimRunRow>& rows) {
    std::ostringstream out;
    out.precision(10);
    out << "file,policy,clock,ranks,events,mean_imbalance,model_runtime_s,runtime_vs_baseline,"
           "measured_runtime_s,wall_s,migrated_slices\n";
    for (const SimRunRow& r : rows) {
        out << r.file << ',' << r.policy << ',' << r.clock << ',' << r.ranks << ',' << r.events
            << ',' << r.mean_imbalance << ',' << r.model_runtime << ',' << r.runtime_vs_baseline
            << ',' << r.measured_runtime << ',' << r.wall_seconds << ',' << r.migrated_slices
            << '\n';
    }
    return out.str();
}

} // namespace cellshift::eval
