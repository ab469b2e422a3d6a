// `cellshift-eval report`: the main job's HTML report. The report is a matplotlib
// script (no hand-written plotting); this runs it with Debian's python3 and passes
// its exit code on.
#include "command.hpp"

#include <cstdlib>
#include <filesystem>
#include <stdexcept>

namespace cellshift::eval::tool {
namespace {

std::string shell_quote(const std::string& s) {
    std::string q = "'";
    for (char c : s)
        q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

class ReportCommand final : public Command {
public:
    void add_to(CLI::App& app) override {
        sub_ = app.add_subcommand(
            "report",
            "one self-contained HTML page (plus Markdown, CSV and PNG figures) from the main "
            "job's outputs: controller table, imbalance over events, per-rank times, "
            "trade-off, force-kernel scaling, end-to-end summary, the tissue by rank "
            "(matplotlib and h5py, Debian's python3-matplotlib and python3-h5py)");
        sub_->add_option("--in", in_, "the main job's output folder")->capture_default_str();
        sub_->add_option("--out", out_, "folder for the report (default: IN/report)");
    }

    int run() override {
        const std::string script = CELLSHIFT_REPORT_SCRIPT;
        const std::string out = out_.empty() ? in_ + "/report" : out_;
        if (!std::filesystem::exists(script))
            throw std::runtime_error(script + ": the report script is missing");
        if (!std::filesystem::is_directory(in_))
            throw std::runtime_error(in_ + ": no such folder (run scripts/main.sh first)");
        const std::string probe = "/usr/bin/python3 -c 'import h5py, matplotlib' 2>/dev/null";
        if (std::system(probe.c_str()) != 0)
            throw std::runtime_error("the report needs python3-matplotlib and python3-h5py "
                                     "(bash scripts/setup.sh installs them)");
        const int code = std::system(("/usr/bin/python3 " + shell_quote(script) + " --in " +
                                      shell_quote(in_) + " --out " + shell_quote(out))
                                         .c_str());
        return code == 0 ? 0 : 1;
    }

private:
    std::string in_ = "out";
    std::string out_;
};

} // namespace

std::unique_ptr<Command> make_report_command() {
    return std::make_unique<ReportCommand>();
}

} // namespace cellshift::eval::tool
