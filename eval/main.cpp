// cellshift-eval: compare load-balancing policies on held-out scenarios and on
// user traces, list the policies, and work with cellshift files.

#include "cellshift/controller/registry.hpp"
#include "cellshift/data/atomic_file.hpp"
#include "cellshift/data/run_tool.hpp"
#include "cellshift/data/trace.hpp"
#include "cellshift/eval/comparison.hpp"
#include "cellshift/eval/inspect.hpp"
#include "cellshift/eval/migration_bound.hpp"
#include "cellshift/eval/sim_runs.hpp"
#include "cellshift/eval/sweep.hpp"
#include "cellshift/eval/tables.hpp"
#include "cellshift/scenarios/seeds.hpp"
#include "cellshift/version.hpp"

#include <CLI/CLI.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>
#include <thread>
#include <unistd.h>

namespace {

using namespace cellshift;

// The CPU simulator's mu at its default rebalance interval, 100 steps (the model clock's
// constants; `cellshift-sim calibrate` prints it, docs/runtime.md derives it).
constexpr double kDefaultMigrationCost = controller::kDefaultMigrationCost;

const char* kDefaultPolicies =
    "static,reactive,persistence,holt,seam,hoomd,lammps-shift,oracle,rnn-zero,rnn";

// The controller `rnn` uses when no --controller is given: the one shipped in
// the source tree, else the installed copy.
std::string shipped_controller() {
    for (const char* path : {CELLSHIFT_SHIPPED_CONTROLLER, CELLSHIFT_INSTALLED_CONTROLLER}) {
        std::error_code ec;
        if (std::filesystem::exists(path, ec)) {
            return path;
        }
    }
    return "";
}

// Options shared by the `scenarios` and `trace` subcommands.
struct CompareOptions {
    std::vector<std::int64_t> ranks{2, 4, 8, 16, 32};
    std::string policies = kDefaultPolicies;
    std::vector<std::string> params;
    std::string controller;
    std::string out_dir = "out/eval";
    std::string json;
    bool records = false;
    bool quiet = false;
    eval::MigrationCost cost{kDefaultMigrationCost, 0.0};
};

// --migration-cost and --rebalance-cost, shared by scenarios, trace and sweep.
void add_cost_options(CLI::App* cmd, eval::MigrationCost& cost) {
    cmd->add_option("--migration-cost", cost.mu,
                    "mu: cost of moving a slice relative to computing it for one rebalancing "
                    "interval (charged to sender and receiver; ~1e-2 for a CPU rank, ~1e-1 for "
                    "a GPU rank: docs/runtime.md)")
        ->check(CLI::Range(0.0, 1e6))
        ->capture_default_str();
    cmd->add_option("--rebalance-cost", cost.kappa,
                    "kappa: fixed cost of an event that moves anything, as a fraction of the "
                    "interval's mean rank time")
        ->check(CLI::Range(0.0, 1e6))
        ->capture_default_str();
}

// --family, shared by scenarios, sweep and write-scenario.
void add_family_option(CLI::App* cmd, std::string& family) {
    std::string help = "scenario family:";
    for (const auto& f : scenarios::family_names())
        help += " " + f;
    cmd->add_option("--family", family, help + " (docs/scenarios.md)")
        ->check(CLI::IsMember(scenarios::family_names()))
        ->capture_default_str();
}

// "mu = 0.01, kappa = 0" for captions.
std::string cost_caption(const eval::MigrationCost& cost) {
    std::ostringstream s;
    s << "runtime: mu = " << cost.mu << ", kappa = " << cost.kappa;
    return s.str();
}

void add_compare_options(CLI::App* cmd, CompareOptions& o) {
    cmd->add_option("--ranks", o.ranks, "rank counts P to evaluate")
        ->delimiter(',')
        ->capture_default_str();
    cmd->add_option("--policies", o.policies,
                    "comma-separated policies (see `cellshift-eval policies`); `rnn` uses "
                    "--controller, or the shipped data/controllers/default.h5")
        ->capture_default_str();
    cmd->add_option("--param", o.params,
                    "override a policy parameter, POLICY.NAME=VALUE (repeatable), e.g. "
                    "reactive.alpha=0.4");
    cmd->add_option("--controller", o.controller,
                    "controller file for the `rnn` policy (default: the shipped default.h5)")
        ->check(CLI::ExistingFile);
    cmd->add_option("--out", o.out_dir, "directory for the CSV, Markdown and run records")
        ->capture_default_str();
    cmd->add_option("--json", o.json, "also write the rows as JSON to this file");
    cmd->add_flag("--records", o.records,
                  "write the run record (cellshift.run) of the first scenario of every (P, "
                  "policy) to OUT/runs/");
    cmd->add_flag("-q,--quiet", o.quiet, "no progress on stderr");
    add_cost_options(cmd, o.cost);
}

std::vector<std::string> split(const std::string& text, char sep) {
    std::vector<std::string> parts;
    std::stringstream in(text);
    std::string part;
    while (std::getline(in, part, sep)) {
        if (!part.empty()) {
            parts.push_back(part);
        }
    }
    return parts;
}

// Policy list + --param overrides + the controller, checked against the registry.
std::vector<eval::PolicySpec> policy_specs(const CompareOptions& o,
                                           const data::Controller* controller) {
    std::vector<eval::PolicySpec> specs;
    for (const auto& name : split(o.policies, ',')) {
        controller::policy_style(name); // unknown names fail here, with the list of known ones
        if (name == "rnn" && controller == nullptr && o.policies == kDefaultPolicies) {
            continue; // the default list without a controller: see rnn_note()
        }
        eval::PolicySpec spec{name, name, {}};
        spec.settings.controller = controller;
        if (name == "rnn" && controller == nullptr) {
            throw std::invalid_argument("policy 'rnn' needs a controller file (--controller FILE; "
                                        "no shipped data/controllers/default.h5 was found)");
        }
        specs.push_back(spec);
    }
    if (specs.empty()) {
        throw std::invalid_argument("--policies is empty");
    }
    for (const auto& p : o.params) {
        const controller::ParameterOverride param = controller::parse_parameter_override(p);
        const std::string& policy = param.policy;
        bool found = false;
        for (auto& spec : specs) {
            if (spec.name == policy) {
                spec.settings.overrides[param.name] = param.value;
                found = true;
            }
        }
        if (!found) {
            throw std::invalid_argument("--param '" + p + "': policy '" + policy +
                                        "' is not among --policies");
        }
    }
    for (const auto& spec : specs) {
        (void)controller::make_policy(spec.name, spec.settings); // bad parameters fail here
    }
    return specs;
}

void write_outputs(const CompareOptions& o, const eval::ComparisonResult& result,
                   const std::string& stem, const std::string& caption) {
    std::filesystem::create_directories(o.out_dir);
    const std::string base = (std::filesystem::path(o.out_dir) / stem).string();
    data::write_text_atomically(base + ".csv", eval::to_csv(result.rows));
    data::write_text_atomically(base + ".md", eval::to_markdown(result.rows, caption));
    if (!o.json.empty()) {
        data::write_text_atomically(o.json, eval::to_json(result.rows));
    }
    if (o.records) {
        std::filesystem::path runs = std::filesystem::path(o.out_dir) / "runs";
        std::filesystem::create_directories(runs);
        for (std::size_t i = 0; i < result.records.size(); ++i) {
            const auto& r = result.records[i];
            std::string name = stem + "_P" + std::to_string(r.ranks()) + "_" + r.policy + ".h5";
            data::write_run_record((runs / name).string(), r);
        }
    }
    std::cout << "wrote " << base << ".csv, " << base << ".md"
              << (o.json.empty() ? "" : ", " + o.json)
              << (o.records ? ", " + (std::filesystem::path(o.out_dir) / "runs").string() + "/"
                            : "")
              << "\n";
}

// "NAME=V1,V2,..." -> a sweep axis.
eval::SweepAxis parse_axis(const std::string& text) {
    auto eq = text.find('=');
    if (eq == std::string::npos || eq == 0) {
        throw std::invalid_argument("--grid '" + text + "' is not NAME=V1,V2,...");
    }
    eval::SweepAxis axis{text.substr(0, eq), {}};
    for (const auto& v : split(text.substr(eq + 1), ',')) {
        try {
            std::size_t used = 0;
            axis.values.push_back(std::stod(v, &used));
            if (used != v.size()) {
                throw std::invalid_argument(v);
            }
        } catch (const std::exception&) {
            throw std::invalid_argument("--grid '" + text + "': '" + v + "' is not a number");
        }
    }
    return axis;
}

std::optional<data::Controller> load_controller(const CompareOptions& o) {
    std::string file = o.controller.empty() ? shipped_controller() : o.controller;
    if (file.empty()) {
        return std::nullopt;
    }
    return data::read_controller(file);
}

// Said under the table when the default policy list had to leave `rnn` out
// (no controller could be loaded); not when the user's list did not name it.
std::string rnn_note(const std::vector<eval::PolicySpec>& specs, bool have_controller) {
    if (have_controller) {
        return "";
    }
    for (const auto& s : specs) {
        if (s.name == "rnn") {
            return "";
        }
    }
    return "(rnn not evaluated: no --controller given and no shipped "
           "data/controllers/default.h5 found)\n";
}

int list_policies() {
    for (const auto& s : controller::policy_styles()) {
        std::cout << s.name << ": " << s.summary;
        if (s.needs_slice_workload) {
            std::cout << " [needs per-slice workload estimates]";
        }
        if (s.clairvoyant) {
            std::cout << " [clairvoyant: not causal]";
        }
        std::cout << "\n";
        for (const auto& p : s.parameters) {
            std::cout << "    " << s.name << "." << p.name << " = " << p.default_value << "  in ["
                      << p.min_value << ", " << p.max_value << "]  " << p.meaning << "\n";
        }
    }
    return 0;
}

} // namespace

// The report is a matplotlib script (no hand-written plotting); this runs it
// with Debian's python3 and passes its exit code on.
static int run_report(const std::string& in, const std::string& out) {
    const std::string script = CELLSHIFT_REPORT_SCRIPT;
    if (!std::filesystem::exists(script))
        throw std::runtime_error(script + ": the report script is missing");
    if (!std::filesystem::is_directory(in))
        throw std::runtime_error(in + ": no such folder (run scripts/main.sh first)");
    const auto quote = [](const std::string& s) {
        std::string q = "'";
        for (char c : s)
            q += c == '\'' ? std::string("'\\''") : std::string(1, c);
        return q + "'";
    };
    const std::string command = "/usr/bin/python3 -c 'import h5py, matplotlib' 2>/dev/null";
    if (std::system(command.c_str()) != 0)
        throw std::runtime_error("the report needs python3-matplotlib and python3-h5py "
                                 "(bash scripts/setup.sh installs them)");
    const int code = std::system(
        ("/usr/bin/python3 " + quote(script) + " --in " + quote(in) + " --out " + quote(out))
            .c_str());
    return code == 0 ? 0 : 1;
}

int main(int argc, char** argv) {
    CLI::App app{"cellshift-eval: evaluate load-balancing policies on held-out scenarios and "
                 "user traces, and inspect cellshift files."};
    app.set_version_flag("--version", std::string("cellshift-eval ") + CELLSHIFT_VERSION + " (" +
                                          CELLSHIFT_GIT_COMMIT + ")");
    app.set_config("--config", "", "read options from an INI or TOML file");
    app.require_subcommand(1);
    bool dry_run = false;
    app.add_flag("--dry-run", dry_run,
                 "check the command line and the config file, print the options as a config "
                 "file would set them, and stop without running");

    // --- scenarios ---------------------------------------------------------------
    CompareOptions sc_opt;
    eval::ScenarioComparison sc;
    sc.threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    auto* scen = app.add_subcommand(
        "scenarios", "every policy on the same held-out scenarios (evaluation seeds, never "
                     "trained on); prints one table per rank count");
    add_compare_options(scen, sc_opt);
    scen->add_option("--events", sc.events, "rebalancing events per rollout (400: stability)")
        ->check(CLI::Range(1, 1000000))
        ->capture_default_str();
    scen->add_option("--count", sc.count, "scenarios per rank count")
        ->check(CLI::Range(1, 1000000))
        ->capture_default_str();
    scen->add_option("--first-index", sc.first_index,
                     "index of the first evaluation seed (scenario i uses evaluation seed "
                     "first-index + i)")
        ->capture_default_str();
    std::vector<std::string> scenario_ranges;
    scen->add_option(
            "--scenario", scenario_ranges,
            "override a scenario parameter range, NAME=LO,HI (repeatable); names: " +
                [] {
                    std::string n;
                    for (const auto& r : scenarios::range_names()) {
                        n += (n.empty() ? "" : ", ") + r;
                    }
                    return n;
                }())
        ->delimiter('\0');
    scen->add_option("--threads", sc.threads, "threads (results do not depend on it)")
        ->check(CLI::Range(1, 1024))
        ->capture_default_str();
    add_family_option(scen, sc.base.family);

    // --- trace ---------------------------------------------------------------------
    CompareOptions tr_opt;
    tr_opt.ranks = {2, 4, 8, 16};
    std::string trace_file;
    std::int64_t trace_w_min = 1;
    double trace_jitter = 0.0;
    auto* trace = app.add_subcommand(
        "trace", "every policy on a user-supplied workload trace (HDF5 cellshift.trace or CSV: "
                 "one row per event, one column per slice)");
    trace->add_option("file", trace_file, "trace file (.h5 or .csv)")->required();
    add_compare_options(trace, tr_opt);
    trace->add_option("--w-min", trace_w_min, "minimum slices per rank")
        ->check(CLI::Range(std::int64_t{1}, std::int64_t{1} << 40))
        ->capture_default_str();
    trace
        ->add_option("--jitter", trace_jitter,
                     "sigma of log-normal noise on what policies observe (0: exact)")
        ->capture_default_str();

    // --- sweep -----------------------------------------------------------------------
    eval::ScenarioComparison sw = sc;
    sw.ranks = {4, 8, 16, 32};
    sw.events = 50;
    sw.count = 16;
    std::string sweep_policy_name = "reactive";
    std::vector<std::string> sweep_grid;
    std::string sweep_seeds = "training";
    std::string sweep_out = "out/sweep";
    bool sweep_quiet = false;
    auto* sweep = app.add_subcommand(
        "sweep", "run a policy over a grid of parameter values on the same scenarios: its "
                 "imbalance-vs-migration curve, and the point with the best training objective");
    sweep->add_option("--policy", sweep_policy_name, "policy to sweep")->capture_default_str();
    sweep->add_option("--grid", sweep_grid, "NAME=V1,V2,... (repeatable; the grid is the product)")
        ->required()
        ->delimiter('\0');
    sweep->add_option("--ranks", sw.ranks, "rank counts P")->delimiter(',')->capture_default_str();
    sweep->add_option("--events", sw.events, "events per rollout")
        ->check(CLI::Range(1, 1000000))
        ->capture_default_str();
    sweep->add_option("--count", sw.count, "scenarios per rank count")
        ->check(CLI::Range(1, 1000000))
        ->capture_default_str();
    sweep
        ->add_option("--seeds", sweep_seeds,
                     "seed range: training (how defaults are chosen) or evaluation")
        ->check(CLI::IsMember({"training", "evaluation"}))
        ->capture_default_str();
    sweep->add_option("--lambda", sw.lambda, "migration weight per moved slice in the objective")
        ->check(CLI::NonNegativeNumber)
        ->capture_default_str();
    sw.cost = {kDefaultMigrationCost, 0.0};
    add_cost_options(sweep, sw.cost);
    std::string sweep_select = "runtime";
    sweep
        ->add_option("--select", sweep_select,
                     "what the best point minimises: runtime (relative to static, the "
                     "yardstick) or objective (the training loss with --lambda)")
        ->check(CLI::IsMember({"runtime", "objective"}))
        ->capture_default_str();
    sweep->add_option("--threads", sw.threads, "threads (results do not depend on it)")
        ->check(CLI::Range(1, 1024))
        ->capture_default_str();
    sweep->add_option("--out", sweep_out, "directory for sweep.csv")->capture_default_str();
    std::vector<std::string> sweep_families{"paper"};
    sweep
        ->add_option("--families", sweep_families,
                     "scenario families the sweep averages over (comma-separated; "
                     "docs/scenarios.md)")
        ->delimiter(',')
        ->check(CLI::IsMember(scenarios::family_names()))
        ->capture_default_str();
    sweep->add_flag("-q,--quiet", sweep_quiet, "no progress on stderr");

    // --- bound -----------------------------------------------------------------------
    eval::ScenarioComparison bd = sc;
    bd.ranks = {8, 16, 32};
    bd.count = 64;
    std::string bound_reference = "reactive";
    std::vector<std::string> bound_params;
    std::vector<double> bound_fractions{0.2, 0.5, 1.0};
    double bound_tolerance = 1e-4;
    std::string bound_out = "out/bound";
    bool bound_quiet = false;
    auto* bound = app.add_subcommand(
        "bound", "the least time-averaged imbalance that ANY policy, clairvoyant ones included, "
                 "can reach on the held-out scenarios while migrating at most a fraction of the "
                 "slices a reference policy migrates (a proven lower bound, docs/research_log.md): "
                 "tells a migration target no policy can meet from one training has not met");
    bound->add_option("--reference", bound_reference, "policy whose migration sets the budget")
        ->capture_default_str();
    bound->add_option("--param", bound_params,
                      "override a parameter of the reference, POLICY.NAME=VALUE (repeatable)");
    bound
        ->add_option("--fractions", bound_fractions,
                     "budgets as fractions of the reference's mean migration")
        ->delimiter(',')
        ->check(CLI::Range(0.0, 1000.0))
        ->capture_default_str();
    bound->add_option("--ranks", bd.ranks, "rank counts P")->delimiter(',')->capture_default_str();
    bound->add_option("--events", bd.events, "events per rollout")
        ->check(CLI::Range(1, 1000000))
        ->capture_default_str();
    bound->add_option("--count", bd.count, "scenarios per rank count")
        ->check(CLI::Range(1, 1000000))
        ->capture_default_str();
    bound->add_option("--first-index", bd.first_index, "index of the first evaluation seed")
        ->capture_default_str();
    bound
        ->add_option("--tolerance", bound_tolerance,
                     "bisection tolerance, in units of imbalance (the bound is rounded down)")
        ->check(CLI::Range(1e-9, 1.0))
        ->capture_default_str();
    bound->add_option("--threads", bd.threads, "threads (results do not depend on it)")
        ->check(CLI::Range(1, 1024))
        ->capture_default_str();
    bound->add_option("--out", bound_out, "directory for bound.md and bound.csv")
        ->capture_default_str();
    bound->add_flag("-q,--quiet", bound_quiet, "no progress on stderr");

    // --- policies, inspect, convert-trace, write-scenario --------------------------
    auto* policies = app.add_subcommand("policies", "list the registered policies, their "
                                                    "parameters and defaults");

    std::vector<std::string> inspect_files;
    auto* inspect = app.add_subcommand(
        "inspect", "validate cellshift files (controller, trace, run record; .csv traces) and "
                   "print a one-line summary of each; exits non-zero on the first bad file");
    inspect->add_option("files", inspect_files, "files to check")->required();

    std::string report_in = "out";
    std::string report_out;
    auto* report = app.add_subcommand(
        "report", "one self-contained HTML page (plus Markdown, CSV and PNG figures) from the "
                  "main job's outputs: controller table, imbalance over events, per-rank times, "
                  "trade-off, force-kernel scaling, end-to-end summary, the tissue by rank "
                  "(matplotlib and h5py, Debian's python3-matplotlib and python3-h5py)");
    report->add_option("--in", report_in, "the main job's output folder")->capture_default_str();
    report->add_option("--out", report_out, "folder for the report (default: IN/report)");

    std::vector<std::string> run_files;
    std::string runs_baseline = "static";
    std::string runs_out;
    auto* runs = app.add_subcommand(
        "runs", "compare simulator run records (cellshift-sim run --run-record) of one tissue "
                "under several policies: mean imbalance, runtime vs the baseline on the model "
                "clock, measured runtime, migrated slabs");
    runs->add_option("files", run_files, "run records to compare, one row each")->required();
    runs->add_option("--baseline", runs_baseline,
                     "policy whose model-clock run the runtimes are compared with")
        ->capture_default_str();
    runs->add_option("--out", runs_out, "also write runs.md and runs.csv to this folder");

    std::string csv_in;
    std::string h5_out;
    std::string source;
    std::string header = "auto";
    std::optional<double> slice_width;
    auto* convert = app.add_subcommand(
        "convert-trace", "convert a CSV workload table (one row per event, one column per "
                         "slice) to an HDF5 trace file");
    convert->add_option("input", csv_in, "CSV file to read")->required();
    convert->add_option("output", h5_out, "HDF5 trace file to write (replaced atomically)")
        ->required();
    convert->add_option("--source", source, "free-text provenance stored in the trace");
    convert
        ->add_option("--header", header,
                     "does the first line hold column names: auto (if none of its cells is a "
                     "number), yes, no")
        ->check(CLI::IsMember({"auto", "yes", "no"}))
        ->capture_default_str();
    convert->add_option("--slice-width", slice_width, "physical width of one slice (> 0)");

    std::string scenario_out;
    std::int64_t scenario_ranks = 16;
    std::int64_t scenario_events = 100;
    std::uint64_t scenario_index = 0;
    auto* write_scenario = app.add_subcommand(
        "write-scenario", "write one held-out scenario (evaluation seed) as a trace file");
    write_scenario->add_option("output", scenario_out, "trace file to write")->required();
    write_scenario->add_option("--ranks", scenario_ranks, "P the scenario is drawn for")
        ->check(CLI::Range(std::int64_t{1}, std::int64_t{1} << 20))
        ->capture_default_str();
    write_scenario
        ->add_option("--events", scenario_events, "events (the trace has events + 1 rows)")
        ->check(CLI::Range(std::int64_t{1}, std::int64_t{1000000}))
        ->capture_default_str();
    write_scenario->add_option("--index", scenario_index, "evaluation seed index")
        ->capture_default_str();
    std::string scenario_family = "paper";
    add_family_option(write_scenario, scenario_family);

    return data::run_tool<CLI::ParseError>("cellshift-eval", app, argc, argv, [&] {
        if (dry_run) {
            std::cout << app.config_to_str(true, false);
            return 0;
        }
        if (scen->parsed()) {
            auto weights = load_controller(sc_opt);
            auto specs = policy_specs(sc_opt, weights ? &*weights : nullptr);
            sc.ranks = sc_opt.ranks;
            for (const auto& r : scenario_ranges) {
                auto eq = r.find('=');
                auto comma = r.find(',', eq == std::string::npos ? 0 : eq);
                if (eq == std::string::npos || comma == std::string::npos) {
                    throw std::invalid_argument("--scenario '" + r + "' is not NAME=LO,HI");
                }
                try {
                    scenarios::set_range(sc.base, r.substr(0, eq),
                                         {std::stod(r.substr(eq + 1, comma - eq - 1)),
                                          std::stod(r.substr(comma + 1))});
                } catch (const std::invalid_argument& e) {
                    if (std::string(e.what()).rfind("unknown scenario", 0) == 0) {
                        throw;
                    }
                    throw std::invalid_argument("--scenario '" + r + "': bounds are not numbers");
                }
            }
            sc.keep_records = sc_opt.records;
            sc.cost = sc_opt.cost;
            const bool tty = ::isatty(2) != 0;
            auto start = std::chrono::steady_clock::now();
            if (!sc_opt.quiet) {
                sc.progress = [&](std::int64_t ranks, std::int64_t done, std::int64_t total) {
                    double s =
                        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
                            .count();
                    if (tty || done == total) {
                        std::fprintf(stderr, "%s[eval] P = %lld: %lld/%lld scenarios, %.1f s%s",
                                     tty ? "\r" : "", static_cast<long long>(ranks),
                                     static_cast<long long>(done), static_cast<long long>(total), s,
                                     done == total ? "\n" : "");
                    }
                };
            }
            eval::ComparisonResult result = eval::compare_on_scenarios(specs, sc);
            double seconds =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            std::string caption = "family " + sc.base.family + ", evaluation seeds " +
                                  std::to_string(scenarios::kEvaluationSeedBase + sc.first_index) +
                                  "+; clock: workload (noise-free per-slice cost); " +
                                  cost_caption(sc.cost);
            std::cout << eval::format_table(result.rows, caption)
                      << rnn_note(specs, weights.has_value()) << std::flush;
            double decisions = static_cast<double>(specs.size() * sc.ranks.size()) *
                               static_cast<double>(sc.count * sc.events);
            if (!sc_opt.quiet) {
                std::fprintf(stderr,
                             "[eval] %.0f policy decisions in %.2f s (%.0f events/s, %d threads)\n",
                             decisions, seconds, decisions / seconds, sc.threads);
            }
            write_outputs(sc_opt, result, "scenarios", caption);
            return 0;
        }
        if (trace->parsed()) {
            auto weights = load_controller(tr_opt);
            auto specs = policy_specs(tr_opt, weights ? &*weights : nullptr);
            data::Trace t = data::read_trace(trace_file);
            eval::ComparisonResult result =
                eval::compare_on_trace(specs, t, tr_opt.ranks, trace_w_min, trace_jitter,
                                       tr_opt.records, trace_file, 5e-4, tr_opt.cost);
            std::string caption = "trace " + trace_file + "; clock: workload (the trace's cost); " +
                                  cost_caption(tr_opt.cost);
            std::cout << eval::format_table(result.rows, caption)
                      << rnn_note(specs, weights.has_value());
            write_outputs(tr_opt, result, "trace", caption);
            return 0;
        }
        if (sweep->parsed()) {
            std::vector<eval::SweepAxis> grid;
            for (const auto& g : sweep_grid) {
                grid.push_back(parse_axis(g));
            }
            sw.seed_base = sweep_seeds == "training" ? scenarios::kTrainingSeedBase
                                                     : scenarios::kEvaluationSeedBase;
            if (!sweep_quiet) {
                sw.progress = [](std::int64_t ranks, std::int64_t done, std::int64_t total) {
                    if (done == total) {
                        std::fprintf(stderr, "[sweep] P = %lld: %lld scenarios done\n",
                                     static_cast<long long>(ranks), static_cast<long long>(total));
                    }
                };
            }
            auto points =
                eval::sweep_over_families(sweep_policy_name, grid, {}, sw, sweep_families);
            std::ostringstream caption;
            caption << sweep_policy_name << " on " << sweep_seeds << " seeds of famil"
                    << (sweep_families.size() > 1 ? "ies " : "y ");
            for (std::size_t i = 0; i < sweep_families.size(); ++i) {
                caption << (i ? "," : "") << sweep_families[i];
            }
            caption << ", P in {";
            for (std::size_t i = 0; i < sw.ranks.size(); ++i) {
                caption << (i ? "," : "") << sw.ranks[i];
            }
            caption << "}, " << sw.count << " scenarios x " << sw.events << " events; "
                    << cost_caption(sw.cost) << "; objective = mean_t(G + spread + " << sw.lambda
                    << " * migrated); both averaged over P and families; best by " << sweep_select;
            std::cout << eval::format_sweep(points, caption.str(),
                                            sweep_select == "runtime"
                                                ? eval::SweepCriterion::Runtime
                                                : eval::SweepCriterion::Objective);
            std::filesystem::create_directories(sweep_out);
            std::string file = (std::filesystem::path(sweep_out) / "sweep.csv").string();
            data::write_text_atomically(file, eval::sweep_to_csv(points));
            std::cout << "wrote " << file << "\n";
            return 0;
        }
        if (bound->parsed()) {
            CompareOptions ref;
            ref.policies = bound_reference;
            ref.params = bound_params;
            auto weights = bound_reference == "rnn" ? load_controller(ref) : std::nullopt;
            const auto specs = policy_specs(ref, weights ? &*weights : nullptr);
            if (specs.size() != 1) {
                throw std::invalid_argument("--reference names one policy");
            }
            if (!bound_quiet) {
                bd.progress = [](std::int64_t ranks, std::int64_t done, std::int64_t total) {
                    if (done == total) {
                        std::fprintf(stderr, "[bound] P = %lld: %lld scenarios done\n",
                                     static_cast<long long>(ranks), static_cast<long long>(done));
                    }
                };
            }
            const auto rows =
                eval::bound_on_scenarios(specs.front(), bound_fractions, bd, bound_tolerance);
            const std::string table = eval::bound_to_markdown(rows);
            std::cout << table;
            std::filesystem::create_directories(bound_out);
            const std::string base = (std::filesystem::path(bound_out) / "bound").string();
            data::write_text_atomically(base + ".md", table);
            data::write_text_atomically(base + ".csv", eval::bound_to_csv(rows));
            std::cout << "wrote " << base << ".md, " << base << ".csv\n";
            return 0;
        }
        if (policies->parsed()) {
            return list_policies();
        }
        if (report->parsed()) {
            return run_report(report_in, report_out.empty() ? report_in + "/report" : report_out);
        }
        if (runs->parsed()) {
            const auto rows = eval::compare_sim_runs(run_files, runs_baseline);
            const std::string table = eval::sim_runs_table(rows, runs_baseline);
            std::cout << table;
            if (!runs_out.empty()) {
                std::filesystem::create_directories(runs_out);
                data::write_text_atomically(runs_out + "/runs.md", table);
                data::write_text_atomically(runs_out + "/runs.csv", eval::sim_runs_csv(rows));
                std::cout << "wrote " << runs_out << "/runs.md and runs.csv\n";
            }
            return 0;
        }
        if (inspect->parsed()) {
            for (const auto& file : inspect_files) {
                std::cout << eval::describe_file(file) << "\n";
            }
            return 0;
        }
        if (convert->parsed()) {
            static const std::map<std::string, data::CsvHeader> headers{
                {"auto", data::CsvHeader::Auto},
                {"yes", data::CsvHeader::Present},
                {"no", data::CsvHeader::Absent}};
            data::Trace t = data::read_trace_csv(csv_in, headers.at(header));
            if (!source.empty()) {
                t.source = source;
            }
            t.slice_width = slice_width;
            data::write_trace(h5_out, t);
            std::cout << "wrote " << h5_out << ": " << t.events() << " events x " << t.slices()
                      << " slices\n";
            return 0;
        }
        if (write_scenario->parsed()) {
            scenarios::ScenarioConfig config;
            config.family = scenario_family;
            config.ranks = scenario_ranks;
            config.events = scenario_events;
            auto s =
                scenarios::generate_scenario(config, scenarios::evaluation_seed(scenario_index));
            data::write_trace(scenario_out, scenarios::to_trace(s, scenario_family));
            std::cout << "wrote " << scenario_out << ": " << s.workload.rows << " events x "
                      << s.workload.cols << " slices (P = " << s.layout.ranks
                      << ", w_min = " << s.layout.w_min << ")\n";
            return 0;
        }
        return 0;
    });
}
