#include "compare_options.hpp"

#include "manifest.hpp"

#include "cellshift/data/atomic_file.hpp"
#include "cellshift/eval/tables.hpp"
#include "cellshift/scenarios/scenario.hpp"

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <thread>

namespace cellshift::eval::tool {

const char* const kDefaultPolicies =
    "static,reactive,persistence,holt,seam,hoomd,lammps-shift,oracle,rnn-zero,rnn";

namespace {

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

} // namespace

void add_cost_options(CLI::App* cmd, MigrationCost& cost) {
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

void add_family_option(CLI::App* cmd, std::string& family) {
    std::string help = "scenario family:";
    for (const auto& f : scenarios::family_names())
        help += " " + f;
    cmd->add_option("--family", family, help + " (docs/scenarios.md)")
        ->check(CLI::IsMember(scenarios::family_names()))
        ->capture_default_str();
}

std::string cost_caption(const MigrationCost& cost) {
    std::ostringstream s;
    s << "runtime: mu = " << cost.mu << ", kappa = " << cost.kappa;
    return s.str();
}

void add_rollout_options(CLI::App* cmd, ScenarioComparison& s) {
    cmd->add_option("--ranks", s.ranks, "rank counts P")->delimiter(',')->capture_default_str();
    cmd->add_option("--events", s.events, "events per rollout")
        ->check(CLI::Range(1, 1000000))
        ->capture_default_str();
    cmd->add_option("--count", s.count, "scenarios per rank count")
        ->check(CLI::Range(1, 1000000))
        ->capture_default_str();
    cmd->add_option("--threads", s.threads, "threads (results do not depend on it)")
        ->check(CLI::Range(1, 1024))
        ->capture_default_str();
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

std::vector<PolicySpec> policy_specs(const CompareOptions& o, const data::Controller* controller) {
    std::vector<PolicySpec> specs;
    for (const auto& name : split(o.policies, ',')) {
        controller::policy_style(name); // unknown names fail here, with the list of known ones
        if (name == "rnn" && controller == nullptr && o.policies == kDefaultPolicies) {
            continue; // the default list without a controller: see rnn_note()
        }
        PolicySpec spec{name, name, {}};
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
        bool found = false;
        for (auto& spec : specs) {
            if (spec.name == param.policy) {
                spec.settings.overrides[param.name] = param.value;
                found = true;
            }
        }
        if (!found) {
            throw std::invalid_argument("--param '" + p + "': policy '" + param.policy +
                                        "' is not among --policies");
        }
    }
    for (const auto& spec : specs) {
        (void)controller::make_policy(spec.name, spec.settings); // bad parameters fail here
    }
    return specs;
}

void write_outputs(const CLI::App& command, const CompareOptions& o, const ComparisonResult& result,
                   const std::string& stem, const std::string& caption) {
    std::filesystem::create_directories(o.out_dir);
    const std::string base = (std::filesystem::path(o.out_dir) / stem).string();
    data::write_text_atomically(base + ".csv", to_csv(result.rows));
    data::write_text_atomically(base + ".md", to_markdown(result.rows, caption));
    if (!o.json.empty()) {
        data::write_text_atomically(o.json, to_json(result.rows));
    }
    ManifestFiles files{{"table", {stem + ".csv"}}, {"markdown", {stem + ".md"}}};
    if (o.records) {
        std::filesystem::path runs = std::filesystem::path(o.out_dir) / "runs";
        std::filesystem::create_directories(runs);
        std::vector<std::string> written;
        for (const auto& r : result.records) {
            std::string name = stem + "_P" + std::to_string(r.ranks()) + "_" + r.policy + ".h5";
            data::write_run_record((runs / name).string(), r);
            written.push_back("runs/" + name);
        }
        files.push_back({"records", written});
    }
    write_manifest(o.out_dir, command, files);
    std::cout << "wrote " << base << ".csv, " << base << ".md"
              << (o.json.empty() ? "" : ", " + o.json)
              << (o.records ? ", " + (std::filesystem::path(o.out_dir) / "runs").string() + "/"
                            : "")
              << "\n";
}

std::optional<data::Controller> load_controller(const CompareOptions& o) {
    std::string file = o.controller.empty() ? shipped_controller() : o.controller;
    if (file.empty()) {
        return std::nullopt;
    }
    return data::read_controller(file);
}

std::string rnn_note(const std::vector<PolicySpec>& specs, bool have_controller) {
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

ScenarioComparison default_comparison() {
    ScenarioComparison c;
    c.threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    return c;
}

} // namespace cellshift::eval::tool
