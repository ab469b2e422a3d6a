// cellshift-train: offline training of the residual GRU controller.
// The training loop itself arrives with the surrogate/trainer issue; for now the
// tool reports the LibTorch it was built against and the threads it would use.

#include "cellshift/data/run_tool.hpp"
#include "cellshift/version.hpp"

#include <ATen/Parallel.h>
#include <CLI/CLI.hpp>
#include <torch/version.h>

#include <iostream>

int main(int argc, char** argv) {
    CLI::App app{"cellshift-train: train the residual GRU load-balancing controller in the "
                 "differentiable surrogate (LibTorch, CPU) and export it as an HDF5 "
                 "controller file."};
    app.set_version_flag("--version", std::string("cellshift-train ") + CELLSHIFT_VERSION + " (" +
                                          CELLSHIFT_GIT_COMMIT + "), LibTorch " + TORCH_VERSION);
    bool show_build = false;
    app.add_flag("--build-info", show_build,
                 "print the LibTorch version and the intra-op thread count, then exit");
    return cellshift::data::run_tool<CLI::ParseError>("cellshift-train", app, argc, argv, [&] {
        if (show_build) {
            std::cout << "cellshift-train " << CELLSHIFT_VERSION << "\n"
                      << "LibTorch " << TORCH_VERSION << ", " << at::get_num_threads()
                      << " intra-op threads\n";
            return 0;
        }
        std::cout << app.help();
        std::cerr << "cellshift-train: training is not implemented in this version yet\n";
        return cellshift::data::kExitUsage;
    });
}
