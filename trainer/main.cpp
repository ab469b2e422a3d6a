// cellshift-train: offline training of the GRU controller, by BPTT through the
// differentiable surrogate (train.hpp) or by evolution strategies on the hard loop
// (evolution.hpp), exported as an HDF5 controller file.

#include "evolution.hpp"
#include "train.hpp"

#include "cellshift/data/atomic_file.hpp"
#include "cellshift/data/error.hpp"
#include "cellshift/tool/run_tool.hpp"
#include "cellshift/version.hpp"

#include <ATen/Parallel.h>
#include <CLI/CLI.hpp>
#include <c10/util/Exception.h>
#include <torch/version.h>

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <sstream>
#include <unistd.h>

namespace {

std::string duration(double seconds) {
    char buffer[32];
    if (seconds >= 60) {
        std::snprintf(buffer, sizeof buffer, "%dm%02ds", static_cast<int>(seconds) / 60,
                      static_cast<int>(seconds) % 60);
    } else {
        std::snprintf(buffer, sizeof buffer, "%.0fs", seconds);
    }
    return buffer;
}

} // namespace

int main(int argc, char** argv) {
    using namespace cellshift;
    CLI::App app{"cellshift-train: train the GRU load-balancing controller, by back-propagation "
                 "through the differentiable surrogate (LibTorch, CPU) or by evolution strategies "
                 "on the deployed loop, and export it as an HDF5 controller file."};
    app.set_version_flag("--version", std::string("cellshift-train ") + CELLSHIFT_VERSION + " (" +
                                          CELLSHIFT_GIT_COMMIT + "), LibTorch " + TORCH_VERSION);
    trainer::TrainCommandLine command_line;
    trainer::add_train_options(app, command_line);
    trainer::TrainConfig& c = command_line.config;
    std::string& out = command_line.out;
    std::string& log = command_line.log;
    const bool& quiet = command_line.quiet;
    const bool& show_build = command_line.show_build;

    return tool::run_tool<CLI::ParseError>("cellshift-train", app, argc, argv, [&] {
        if (show_build) {
            std::cout << "cellshift-train " << CELLSHIFT_VERSION << "\n"
                      << "LibTorch " << TORCH_VERSION << ", " << at::get_num_threads()
                      << " intra-op threads\n";
            return 0;
        }
        trainer::validate(c);
        // Fail on an unwritable output before spending minutes training.
        std::filesystem::path parent = std::filesystem::path(out).parent_path();
        std::error_code ec;
        if (!parent.empty()) {
            std::filesystem::create_directories(parent, ec);
            if (ec) {
                data::fail(out, "cannot create its directory: " + ec.message());
            }
        }
        { data::AtomicFile probe(out); } // creates and removes a temporary beside it
        if (log.empty()) {
            std::string stem = out.size() > 3 && out.substr(out.size() - 3) == ".h5"
                                   ? out.substr(0, out.size() - 3)
                                   : out;
            log = stem + ".log.csv";
        }
        const std::string config_text = app.config_to_str(true, false);
        std::ostringstream csv;
        csv << "step,loss,imbalance,migrated,temperature,lr,validation,seconds\n";
        const bool tty = ::isatty(2) != 0;
        auto progress = [&](const trainer::StepReport& r) {
            csv << r.step << "," << r.loss << "," << r.imbalance << "," << r.migrated << ","
                << r.temperature << "," << r.lr << "," << r.validation << "," << r.seconds << "\n";
            if (quiet) {
                return;
            }
            const int width = 24;
            const int done = static_cast<int>(width * r.step / c.steps);
            const double eta =
                r.seconds / static_cast<double>(r.step) * static_cast<double>(c.steps - r.step);
            char line[256];
            std::snprintf(line, sizeof line,
                          "[train] %5lld/%lld [%-*s] loss %.4f imbalance %.2f%% migrated %.1f "
                          "T %.3f lr %.1e%s ETA %s",
                          static_cast<long long>(r.step), static_cast<long long>(c.steps), width,
                          std::string(static_cast<std::size_t>(done), '#').c_str(), r.loss,
                          100.0 * r.imbalance, r.migrated, r.temperature, r.lr,
                          r.validation >= 0
                              ? (" val " + std::to_string(r.validation).substr(0, 7)).c_str()
                              : "",
                          duration(eta).c_str());
            if (tty) {
                std::fprintf(stderr, "\r%s\033[K", line);
            } else if (r.validation >= 0 || r.step == c.steps) {
                std::fprintf(stderr, "%s\n", line);
            }
        };
        trainer::TrainResult result = [&] {
            try {
                return c.optimiser == "es" ? trainer::train_evolution(c, config_text, progress)
                                           : trainer::train(c, config_text, progress);
            } catch (const c10::Error& e) { // one line, never LibTorch's backtrace
                const std::string what = e.what_without_backtrace();
                throw std::runtime_error("LibTorch: " + what.substr(0, what.find('\n')));
            }
        }();
        if (tty && !quiet) {
            std::fprintf(stderr, "\n");
        }
        data::write_controller(out, result.best);
        data::write_text_atomically(log, csv.str());
        std::printf("wrote %s (%zu parameters, %lld steps) and %s\n"
                    "validation objective: %.5f at the zero-head start (= %s), %.5f best "
                    "(%+.1f%%)\n",
                    out.c_str(), result.best.parameter_count(),
                    static_cast<long long>(result.steps_done), log.c_str(),
                    result.initial_validation,
                    result.best.base == data::kReactiveBase ? "reactive"
                    : result.best.hold_horizon > 0.0        ? "holt with the cost gate"
                                                            : "holt",
                    result.best_validation,
                    100.0 * (result.best_validation / result.initial_validation - 1.0));
        return 0;
    });
}
