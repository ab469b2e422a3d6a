// `cellshift-eval write-scenario`: one held-out generator scenario as a trace file.
#include "command.hpp"
#include "compare_options.hpp"

#include "cellshift/data/trace.hpp"
#include "cellshift/scenarios/scenario.hpp"
#include "cellshift/scenarios/seeds.hpp"

#include <iostream>

namespace cellshift::eval::tool {
namespace {

class WriteScenarioCommand final : public Command {
public:
    void add_to(CLI::App& app) override {
        sub_ = app.add_subcommand("write-scenario",
                                  "write one held-out scenario (evaluation seed) as a trace file");
        sub_->add_option("output", out_, "trace file to write")->required();
        sub_->add_option("--ranks", ranks_, "P the scenario is drawn for")
            ->check(CLI::Range(std::int64_t{1}, std::int64_t{1} << 20))
            ->capture_default_str();
        sub_->add_option("--events", events_, "events (the trace has events + 1 rows)")
            ->check(CLI::Range(std::int64_t{1}, std::int64_t{1000000}))
            ->capture_default_str();
        sub_->add_option("--index", index_, "evaluation seed index")->capture_default_str();
        add_family_option(sub_, family_);
    }

    int run() override {
        scenarios::ScenarioConfig config;
        config.family = family_;
        config.ranks = ranks_;
        config.events = events_;
        const auto s = scenarios::generate_scenario(config, scenarios::evaluation_seed(index_));
        data::write_trace(out_, scenarios::to_trace(s, family_));
        std::cout << "wrote " << out_ << ": " << s.workload.rows << " events x " << s.workload.cols
                  << " slices (P = " << s.layout.ranks << ", w_min = " << s.layout.w_min << ")\n";
        return 0;
    }

private:
    std::string out_;
    std::int64_t ranks_ = 16;
    std::int64_t events_ = 100;
    std::uint64_t index_ = 0;
    std::string family_ = "paper";
};

} // namespace

std::unique_ptr<Command> make_write_scenario_command() {
    return std::make_unique<WriteScenarioCommand>();
}

} // namespace cellshift::eval::tool
