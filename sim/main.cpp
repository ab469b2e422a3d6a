// cellshift-sim: the MPI + CUDA SEM tissue simulator. Subcommands: run (P ranks
// under mpirun, slab decomposition with live balancing), write-config,
// lattice-forces (the external LAMMPS check) and devices.

#include "cellshift/controller/registry.hpp"
#include "cellshift/data/atomic_file.hpp"
#include "cellshift/sim/collective_error.hpp"
#include "cellshift/sim/cuda_devices.hpp"
#include "cellshift/sim/force_backend.hpp"
#include "cellshift/tool/run_tool.hpp"
#include "cellshift/version.hpp"
#include "tool/calibrate_command.hpp"
#include "tool/lattice_command.hpp"
#include "tool/run_cli.hpp"
#include "tool/run_command.hpp"
#include "tool/sem_options.hpp"

#include <CLI/CLI.hpp>
#include <mpi.h>
#include <omp.h>

#include <algorithm>
#include <fstream>
#include <iostream>

namespace {

int print_devices(int rank, int size) {
    if (rank != 0) {
        return 0;
    }
    char library[MPI_MAX_LIBRARY_VERSION_STRING];
    int length = 0;
    MPI_Get_library_version(library, &length);
    std::string mpi(library, static_cast<std::size_t>(length));
    mpi = mpi.substr(0, mpi.find_first_of(",\n"));
    cellshift::sim::CudaProbe cuda = cellshift::sim::probe_cuda_devices();
    std::cout << "MPI: " << size << " rank(s) (" << mpi << ")\n"
              << "CPU: " << omp_get_max_threads() << " OpenMP thread(s) per rank\n"
              << "CUDA: " << cuda.status << "\n";
    for (const auto& d : cuda.devices) {
        std::cout << "  device " << d.index << ": " << d.name << ", compute " << d.compute_major
                  << "." << d.compute_minor << ", " << (d.memory_bytes >> 20) << " MiB\n";
    }
    std::cout << "backends runnable here:";
    for (const std::string& name : cellshift::sim::runnable_backends())
        std::cout << " " << name;
    std::cout << "\n";
    return 0;
}

// The options a restart must match: the model and the balancing setup, as
// "name = value" lines (the given value, or the default).
std::string configuration_of(const CLI::App& run, const std::vector<std::string>& skip_groups) {
    std::string text;
    for (const CLI::Option* opt : run.get_options()) {
        const std::string group = opt->get_group();
        if (opt->get_name().empty() || opt->get_name() == "--help" ||
            std::find(skip_groups.begin(), skip_groups.end(), group) != skip_groups.end())
            continue;
        std::string value;
        for (const std::string& r : opt->results())
            value += (value.empty() ? "" : " ") + r;
        if (opt->count() == 0)
            value = opt->get_default_str();
        text += opt->get_name() + " = " + value + "\n";
    }
    return text;
}

} // namespace

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    int rank = 0;
    int size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    CLI::App app{"cellshift-sim: MPI + CUDA subcellular-element (SEM) tissue simulator with "
                 "learned dynamic load balancing. Run with mpirun -n P."};
    app.set_version_flag("--version", std::string("cellshift-sim ") + CELLSHIFT_VERSION + " (" +
                                          CELLSHIFT_GIT_COMMIT + ")");
    app.require_subcommand(1);
    app.add_subcommand("devices", "print the MPI ranks, OpenMP threads and CUDA devices "
                                  "this run would use");

    cellshift::sim::tool::RunCommandLine line;
    line.balance.controller_file = CELLSHIFT_SHIPPED_CONTROLLER; // as in cellshift-eval
    CLI::App* run = cellshift::sim::tool::add_run_subcommand(app, line);
    const cellshift::sim::SemParams& params = line.params;
    const cellshift::sim::tool::RunOptions& run_options = line.run;
    const cellshift::sim::BalanceOptions& balance = line.balance;
    const char* run_group = cellshift::sim::tool::kRunGroup;

    std::string config_out;
    CLI::App* write_config = app.add_subcommand(
        "write-config", "write every run option with its description and default as a TOML file");
    write_config->add_option("file", config_out, "the config file to write")->required();

    std::string backends;
    for (const auto& b : cellshift::sim::backend_names())
        backends += (backends.empty() ? "" : ", ") + b;
    cellshift::sim::tool::LatticeOptions lattice;
    CLI::App* lattice_cmd = app.add_subcommand(
        "lattice-forces", "forces on a jittered fcc lattice under one Morse parameter set, and "
                          "the same lattice as a LAMMPS data file (the external force check)");
    lattice_cmd->add_option("--cells", lattice.cells, "fcc unit cells per side (4 n^3 elements)")
        ->capture_default_str();
    lattice_cmd->add_option("--density", lattice.density, "number density (LAMMPS lattice fcc)")
        ->capture_default_str();
    lattice_cmd->add_option("--jitter", lattice.jitter, "random displacement in lattice constants")
        ->capture_default_str();
    lattice_cmd->add_option("--seed", lattice.seed, "seed of the displacements")
        ->capture_default_str();
    lattice_cmd->add_option("--D0", lattice.D0, "Morse well depth")->capture_default_str();
    lattice_cmd->add_option("--alpha", lattice.alpha, "Morse stiffness")->capture_default_str();
    lattice_cmd->add_option("--r0", lattice.r0, "Morse equilibrium distance")
        ->capture_default_str();
    lattice_cmd->add_option("--cutoff", lattice.cutoff, "cutoff")->capture_default_str();
    lattice_cmd->add_option("--backend", lattice.backend, "force backend: " + backends)
        ->capture_default_str();
    lattice_cmd->add_option("--forces", lattice.forces, "CSV of id,cell,x,y,z,fx,fy,fz")
        ->required();
    lattice_cmd->add_option("--lammps-data", lattice.lammps_data,
                            "LAMMPS data file (atom_style atomic)");

    cellshift::sim::tool::CalibrateOptions calibration;
    cellshift::sim::SemParams calibration_params;
    CLI::App* calibrate_cmd = app.add_subcommand(
        "calibrate", "measure the model clock's constants (seconds per pair interaction, "
                     "element, ghost and migrated element) on this machine, one process");
    calibrate_cmd->add_option("--backend", calibration.backend, "force backend to time")
        ->capture_default_str();
    calibrate_cmd->add_option("--steps", calibration.steps, "timed steps per tissue")
        ->capture_default_str();
    calibrate_cmd
        ->add_option("--repeats", calibration.repeats, "timed runs per tissue (the median counts)")
        ->capture_default_str();
    calibrate_cmd
        ->add_option("--rebalance-every", calibration.rebalance_every,
                     "steps between rebalancing events, for the migration cost mu it prints")
        ->check(CLI::Range(std::int64_t{1}, std::int64_t{1} << 40))
        ->capture_default_str();

    int code = cellshift::tool::run_tool<CLI::ParseError>(
        "cellshift-sim", app, argc, argv,
        [&] {
            if (app.got_subcommand("devices")) {
                return print_devices(rank, size);
            }
            if (app.got_subcommand("run")) {
                try {
                    return cellshift::sim::tool::run_simulation(
                        MPI_COMM_WORLD, params, balance, run_options,
                        configuration_of(*run, {run_group}));
                } catch (const cellshift::sim::CollectiveError&) {
                    throw; // every rank has it: rank 0 reports it once
                } catch (const std::exception& error) {
                    if (size == 1)
                        throw;
                    // One rank failed alone: the others would wait for it forever.
                    std::cerr << "cellshift-sim: error: rank " << rank << ": "
                              << cellshift::tool::one_line(error.what()) << "\n";
                    MPI_Abort(MPI_COMM_WORLD, cellshift::tool::kExitFailure);
                }
            }
            if (size > 1 && rank != 0) {
                return 0; // the other subcommands run on rank 0
            }
            if (app.got_subcommand("write-config")) {
                std::string text =
                    "# cellshift-sim configuration: cellshift-sim --config FILE run\n" +
                    run->config_to_str(true, true);
                cellshift::data::write_text_atomically(config_out, "[run]\n" + text);
                std::cout << "wrote " << config_out << "\n";
                return 0;
            }
            if (app.got_subcommand("calibrate")) {
                return cellshift::sim::tool::calibrate(calibration_params, calibration);
            }
            if (app.got_subcommand("lattice-forces")) {
                return cellshift::sim::tool::lattice_forces(lattice);
            }
            return 0;
        },
        /*report_errors=*/rank == 0,
        /*agree_on_parse=*/
        [&](bool parsed) {
            int mine = parsed ? size : rank;
            int first = size;
            MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
            using cellshift::tool::ParseAgreement;
            if (first == size)
                return ParseAgreement::all_parsed;
            return first == rank ? ParseAgreement::failed_here_first
                                 : ParseAgreement::failed_elsewhere;
        });
    MPI_Finalize();
    return code;
}
