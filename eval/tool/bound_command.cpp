// `cellshift-eval bound`: the least imbalance any policy can reach within a
// migration budget (a proven lower bound, eval/migration_bound.hpp).
#include "command.hpp"
#include "compare_options.hpp"
#include "manifest.hpp"

#include "cellshift/data/atomic_file.hpp"
#include "cellshift/eval/migration_bound.hpp"

#include <cstdio>
#include <filesystem>
#include <iostream>

namespace cellshift::eval::tool {
namespace {

class BoundCommand final : public Command {
public:
    void add_to(CLI::App& app) override {
        bd_.ranks = {8, 16, 32};
        bd_.count = 64;
        sub_ = app.add_subcommand(
            "bound",
            "the least time-averaged imbalance that ANY policy, clairvoyant ones included, "
            "can reach on the held-out scenarios while migrating at most a fraction of the "
            "slices a reference policy migrates (a proven lower bound, docs/research_log.md): "
            "tells a migration target no policy can meet from one training has not met");
        sub_->add_option("--reference", reference_, "policy whose migration sets the budget")
            ->capture_default_str();
        sub_->add_option("--param", params_,
                         "override a parameter of the reference, POLICY.NAME=VALUE (repeatable)");
        sub_->add_option("--fractions", fractions_,
                         "budgets as fractions of the reference's mean migration")
            ->delimiter(',')
            ->check(CLI::Range(0.0, 1000.0))
            ->capture_default_str();
        add_rollout_options(sub_, bd_);
        sub_->add_option("--first-index", bd_.first_index, "index of the first evaluation seed")
            ->capture_default_str();
        sub_->add_option("--tolerance", tolerance_,
                         "bisection tolerance, in units of imbalance (the bound is rounded down)")
            ->check(CLI::Range(1e-9, 1.0))
            ->capture_default_str();
        sub_->add_option("--out", out_, "directory for bound.md and bound.csv")
            ->capture_default_str();
        sub_->add_flag("-q,--quiet", quiet_, "no progress on stderr");
    }

    int run() override {
        CompareOptions reference;
        reference.policies = reference_;
        reference.params = params_;
        auto weights = reference_ == "rnn" ? load_controller(reference) : std::nullopt;
        const auto specs = policy_specs(reference, weights ? &*weights : nullptr);
        if (specs.size() != 1) {
            throw std::invalid_argument("--reference names one policy");
        }
        if (!quiet_) {
            bd_.progress = [](std::int64_t ranks, std::int64_t done, std::int64_t total) {
                if (done == total) {
                    std::fprintf(stderr, "[bound] P = %lld: %lld scenarios done\n",
                                 static_cast<long long>(ranks), static_cast<long long>(done));
                }
            };
        }
        const auto rows = bound_on_scenarios(specs.front(), fractions_, bd_, tolerance_);
        const std::string table = bound_to_markdown(rows);
        std::cout << table;
        std::filesystem::create_directories(out_);
        const std::string base = (std::filesystem::path(out_) / "bound").string();
        data::write_text_atomically(base + ".md", table);
        data::write_text_atomically(base + ".csv", bound_to_csv(rows));
        write_manifest(out_, *sub_, {{"table", {"bound.csv"}}, {"markdown", {"bound.md"}}});
        std::cout << "wrote " << base << ".md, " << base << ".csv, manifest.json\n";
        return 0;
    }

private:
    ScenarioComparison bd_ = default_comparison();
    std::string reference_ = "reactive";
    std::vector<std::string> params_;
    std::vector<double> fractions_{0.2, 0.5, 1.0};
    double tolerance_ = 1e-4;
    std::string out_ = "out/bound";
    bool quiet_ = false;
};

} // namespace

std::unique_ptr<Command> make_bound_command() {
    return std::make_unique<BoundCommand>();
}

} // namespace cellshift::eval::tool
