// `cellshift-eval inspect`: validate cellshift files and summarise each in one line.
#include "command.hpp"

#include "cellshift/eval/inspect.hpp"

#include <iostream>

namespace cellshift::eval::tool {
namespace {

class InspectCommand final : public Command {
public:
    void add_to(CLI::App& app) override {
        sub_ = app.add_subcommand(
            "inspect", "validate cellshift files (controller, trace, run record; .csv traces) "
                       "and print a one-line summary of each; exits non-zero on the first bad "
                       "file");
        sub_->add_option("files", files_, "files to check")->required();
    }

    int run() override {
        for (const auto& file : files_) {
            std::cout << describe_file(file) << "\n";
        }
        return 0;
    }

private:
    std::vector<std::string> files_;
};

} // namespace

std::unique_ptr<Command> make_inspect_command() {
    return std::make_unique<InspectCommand>();
}

} // namespace cellshift::eval::tool
