// `cellshift-eval report`: the HTML report from explicit inputs. The report is a
// matplotlib script (no hand-written plotting), installed with the tools
// (share/cellshift/report.py beside bin/); this runs it with Debian's python3,
// passes the inputs on, and passes its exit code back.
#include "command.hpp"

#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

namespace cellshift::eval::tool {
namespace {

std::string shell_quote(const std::string& s) {
    std::string q = "'";
    for (char c : s)
        q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

// The installed script beside this executable (PREFIX/bin -> PREFIX/share/cellshift),
// else the source tree's (a build-tree run).
std::string report_script() {
    std::error_code error;
    const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", error);
    if (!error) {
        const auto installed = self.parent_path().parent_path() / "share/cellshift/report.py";
        if (std::filesystem::exists(installed))
            return installed.string();
    }
    return CELLSHIFT_REPORT_SCRIPT;
}

class ReportCommand final : public Command {
public:
    void add_to(CLI::App& app) override {
        sub_ = app.add_subcommand(
            "report",
            "one self-contained HTML page (plus Markdown, CSV and PNG figures) from explicit "
            "inputs, each a folder a cellshift-eval command wrote (its manifest.json says "
            "what it holds): controller table, imbalance over events, per-rank times, "
            "trade-off, runtime against mu, force-kernel scaling, end-to-end summary, the "
            "tissue by rank (matplotlib and h5py). Script: " +
                report_script());
        sub_->add_option("--out", out_, "folder for the report")->required();
        sub_->add_option("--scenarios", scenarios_,
                         "cellshift-eval scenarios --records --out folder: the controller "
                         "table and imbalance over events");
        sub_->add_option("--runtime-mu", runtime_mu_,
                         "cellshift-eval scenarios --out folder at one --migration-cost "
                         "(repeatable): runtime against mu");
        sub_->add_option("--sweep", sweeps_,
                         "cellshift-eval sweep --out folder (repeatable): the baselines' curves");
        sub_->add_option("--lambda", lambdas_,
                         "cellshift-eval scenarios --out folder of a controller trained at one "
                         "lambda (repeatable; scripts/lambda_sweep.sh)");
        sub_->add_option("--bound", bound_, "cellshift-eval bound --out folder");
        sub_->add_option("--e2e", e2e_, "cellshift-eval runs --out folder (scripts/e2e.sh)");
        sub_->add_option("--tissue", tissue_,
                         "cellshift-sim run --out folder with snapshots: the tissue by rank");
        sub_->add_option("--bench", bench_,
                         "cellshift-bench-sem output, JSON lines (repeatable): scaling and "
                         "LAMMPS side by side");
    }

    int run() override {
        const std::string script = report_script();
        if (!std::filesystem::exists(script))
            throw std::runtime_error(script + ": the report script is missing");
        const std::string probe = "/usr/bin/python3 -c 'import h5py, matplotlib' 2>/dev/null";
        if (std::system(probe.c_str()) != 0)
            throw std::runtime_error("the report needs python3-matplotlib and python3-h5py "
                                     "(bash scripts/setup.sh installs them)");
        std::string command =
            "/usr/bin/python3 " + shell_quote(script) + " --out " + shell_quote(out_);
        const auto pass = [&command](const std::string& flag, const std::string& value) {
            if (!value.empty())
                command += " " + flag + " " + shell_quote(value);
        };
        pass("--scenarios", scenarios_);
        for (const auto& d : runtime_mu_)
            pass("--runtime-mu", d);
        for (const auto& d : sweeps_)
            pass("--sweep", d);
        for (const auto& d : lambdas_)
            pass("--lambda", d);
        pass("--bound", bound_);
        pass("--e2e", e2e_);
        pass("--tissue", tissue_);
        for (const auto& f : bench_)
            pass("--bench", f);
        return std::system(command.c_str()) == 0 ? 0 : 1;
    }

private:
    std::string out_, scenarios_, bound_, e2e_, tissue_;
    std::vector<std::string> runtime_mu_, sweeps_, lambdas_, bench_;
};

} // namespace

std::unique_ptr<Command> make_report_command() {
    return std::make_unique<ReportCommand>();
}

} // namespace cellshift::eval::tool
