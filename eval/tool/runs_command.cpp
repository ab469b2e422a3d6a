// `cellshift-eval runs`: simulator run records of one tissue under several policies.
#include "command.hpp"
#include "manifest.hpp"

#include "cellshift/data/atomic_file.hpp"
#include "cellshift/eval/sim_runs.hpp"

#include <filesystem>
#include <iostream>

namespace cellshift::eval::tool {
namespace {

class RunsCommand final : public Command {
public:
    void add_to(CLI::App& app) override {
        sub_ = app.add_subcommand(
            "runs", "compare simulator run records (cellshift-sim run --run-record) of one "
                    "tissue under several policies: mean imbalance, runtime vs the baseline on "
                    "the model clock, measured runtime, migrated slabs");
        sub_->add_option("files", files_, "run records to compare, one row each")->required();
        sub_->add_option("--baseline", baseline_,
                         "policy whose model-clock run the runtimes are compared with")
            ->capture_default_str();
        sub_->add_option("--out", out_, "also write runs.md and runs.csv to this folder");
    }

    int run() override {
        const auto rows = compare_sim_runs(files_, baseline_);
        const std::string table = sim_runs_table(rows, baseline_);
        std::cout << table;
        if (!out_.empty()) {
            std::filesystem::create_directories(out_);
            data::write_text_atomically(out_ + "/runs.md", table);
            data::write_text_atomically(out_ + "/runs.csv", sim_runs_csv(rows));
            // The records by absolute path: the report reads them with the table.
            std::vector<std::string> records;
            for (const std::string& f : files_)
                records.push_back(std::filesystem::absolute(f).lexically_normal().string());
            write_manifest(
                out_, *sub_,
                {{"table", {"runs.csv"}}, {"markdown", {"runs.md"}}, {"records", records}});
            std::cout << "wrote " << out_ << "/runs.md, runs.csv and manifest.json\n";
        }
        return 0;
    }

private:
    std::vector<std::string> files_;
    std::string baseline_ = "static";
    std::string out_;
};

} // namespace

std::unique_ptr<Command> make_runs_command() {
    return std::make_unique<RunsCommand>();
}

} // namespace cellshift::eval::tool
