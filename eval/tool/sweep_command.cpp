// `cellshift-eval sweep`: one policy over a grid of parameter values on the same
// scenarios (how baseline defaults and tuned points are chosen, on training seeds).
#include "command.hpp"
#include "compare_options.hpp"
#include "manifest.hpp"

#include "cellshift/data/atomic_file.hpp"
#include "cellshift/eval/sweep.hpp"
#include "cellshift/scenarios/scenario.hpp"
#include "cellshift/scenarios/seeds.hpp"

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <sstream>

namespace cellshift::eval::tool {
namespace {

// "NAME=V1,V2,..." -> a sweep axis.
SweepAxis parse_axis(const std::string& text) {
    const auto eq = text.find('=');
    if (eq == std::string::npos || eq == 0) {
        throw std::invalid_argument("--grid '" + text + "' is not NAME=V1,V2,...");
    }
    SweepAxis axis{text.substr(0, eq), {}};
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

class SweepCommand final : public Command {
public:
    void add_to(CLI::App& app) override {
        sw_.ranks = {4, 8, 16, 32};
        sw_.events = 50;
        sw_.count = 16;
        sw_.cost = {kDefaultMigrationCost, 0.0};
        sub_ = app.add_subcommand(
            "sweep", "run a policy over a grid of parameter values on the same scenarios: its "
                     "imbalance-vs-migration curve, and the point with the best training "
                     "objective");
        sub_->add_option("--policy", policy_, "policy to sweep")->capture_default_str();
        sub_->add_option("--grid", grid_, "NAME=V1,V2,... (repeatable; the grid is the product)")
            ->required()
            ->delimiter('\0');
        add_rollout_options(sub_, sw_);
        sub_->add_option("--seeds", seeds_,
                         "seed range: training (how defaults are chosen) or evaluation")
            ->check(CLI::IsMember({"training", "evaluation"}))
            ->capture_default_str();
        sub_->add_option("--lambda", sw_.lambda,
                         "migration weight per moved slice in the objective")
            ->check(CLI::NonNegativeNumber)
            ->capture_default_str();
        add_cost_options(sub_, sw_.cost);
        sub_->add_option("--select", select_,
                         "what the best point minimises: runtime (relative to static, the "
                         "yardstick) or objective (the training loss with --lambda)")
            ->check(CLI::IsMember({"runtime", "objective"}))
            ->capture_default_str();
        sub_->add_option("--out", out_, "directory for sweep.csv")->capture_default_str();
        sub_->add_option("--families", families_,
                         "scenario families the sweep averages over (comma-separated; "
                         "docs/scenarios.md)")
            ->delimiter(',')
            ->check(CLI::IsMember(scenarios::family_names()))
            ->capture_default_str();
        sub_->add_flag("-q,--quiet", quiet_, "no progress on stderr");
        sub_->add_option("--controller", controller_,
                         "controller file when --policy rnn (default: the shipped default.h5)")
            ->check(CLI::ExistingFile);
    }

    int run() override {
        std::vector<SweepAxis> grid;
        for (const auto& g : grid_) {
            grid.push_back(parse_axis(g));
        }
        sw_.seed_base =
            seeds_ == "training" ? scenarios::kTrainingSeedBase : scenarios::kEvaluationSeedBase;
        if (!quiet_) {
            sw_.progress = [](std::int64_t ranks, std::int64_t done, std::int64_t total) {
                if (done == total) {
                    std::fprintf(stderr, "[sweep] P = %lld: %lld scenarios done\n",
                                 static_cast<long long>(ranks), static_cast<long long>(total));
                }
            };
        }
        controller::PolicySettings settings;
        CompareOptions with_controller;
        with_controller.controller = controller_;
        const std::optional<data::Controller> controller =
            policy_ == "rnn" ? load_controller(with_controller) : std::nullopt;
        settings.controller = controller ? &*controller : nullptr;
        const auto points = sweep_over_families(policy_, grid, settings, sw_, families_);
        std::cout << format_sweep(points, caption(),
                                  select_ == "runtime" ? SweepCriterion::Runtime
                                                       : SweepCriterion::Objective);
        std::filesystem::create_directories(out_);
        const std::string file = (std::filesystem::path(out_) / "sweep.csv").string();
        data::write_text_atomically(file, sweep_to_csv(points));
        write_manifest(out_, *sub_, {{"table", {"sweep.csv"}}});
        std::cout << "wrote " << file << " and manifest.json\n";
        return 0;
    }

private:
    std::string caption() const {
        std::ostringstream c;
        c << policy_ << " on " << seeds_ << " seeds of famil"
          << (families_.size() > 1 ? "ies " : "y ");
        for (std::size_t i = 0; i < families_.size(); ++i) {
            c << (i ? "," : "") << families_[i];
        }
        c << ", P in {";
        for (std::size_t i = 0; i < sw_.ranks.size(); ++i) {
            c << (i ? "," : "") << sw_.ranks[i];
        }
        c << "}, " << sw_.count << " scenarios x " << sw_.events << " events; "
          << cost_caption(sw_.cost) << "; objective = mean_t(G + spread + " << sw_.lambda
          << " * migrated); both averaged over P and families; best by " << select_;
        return c.str();
    }

    ScenarioComparison sw_ = default_comparison();
    std::string policy_ = "reactive";
    std::vector<std::string> grid_;
    std::string seeds_ = "training";
    std::string out_ = "out/sweep";
    std::string select_ = "runtime";
    std::string controller_;
    std::vector<std::string> families_{"paper"};
    bool quiet_ = false;
};

} // namespace

std::unique_ptr<Command> make_sweep_command() {
    return std::make_unique<SweepCommand>();
}

} // namespace cellshift::eval::tool
