// cellshift-sim: the MPI + CUDA SEM tissue simulator. Subcommands: run (one rank
// for now; the MPI slab decomposition is the next step), write-config,
// lattice-forces (the external LAMMPS check) and devices.

#include "cellshift/data/atomic_file.hpp"
#include "cellshift/data/run_tool.hpp"
#include "cellshift/sim/cuda_devices.hpp"
#include "cellshift/sim/force_backend.hpp"
#include "cellshift/version.hpp"
#include "tool/lattice_command.hpp"
#include "tool/run_command.hpp"
#include "tool/sem_options.hpp"

#include <CLI/CLI.hpp>
#include <mpi.h>
#include <omp.h>

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
    return 0;
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

    // run: the model's parameters are options and keys of the [run] section of a
    // TOML/INI config file (cellshift-sim --config FILE run ...).
    app.set_config("--config", "",
                   "read options from a TOML or INI file ([run] section); "
                   "`cellshift-sim write-config FILE` writes a documented one");
    app.allow_config_extras(CLI::config_extras_mode::error);
    cellshift::sim::SemParams params;
    cellshift::sim::tool::RunOptions run_options;
    CLI::App* run = app.add_subcommand("run", "run a tissue simulation on one rank, with "
                                              "per-interval statistics and snapshots");
    std::string backends;
    for (const auto& b : cellshift::sim::backend_names())
        backends += (backends.empty() ? "" : ", ") + b;
    const char* run_group = "Run";
    run->add_option("--steps", run_options.steps, "number of time steps")
        ->capture_default_str()
        ->group(run_group);
    run->add_option("--backend", run_options.backend, "force backend: " + backends)
        ->capture_default_str()
        ->group(run_group);
    run->add_option("--report-every", run_options.report_every, "steps between statistics lines")
        ->capture_default_str()
        ->group(run_group);
    run->add_option("--snapshot-every", run_options.snapshot_every,
                    "steps between snapshots (0: none); needs --out")
        ->capture_default_str()
        ->group(run_group);
    run->add_option("--out", run_options.out, "folder for snapshot_*.h5 and tissue.xdmf (ParaView)")
        ->group(run_group);
    run->add_option("--dump-forces", run_options.dump_forces,
                    "after the run, write id,cell,x,y,z,fx,fy,fz of every element to this CSV")
        ->group(run_group);
    run->add_flag("-q,--quiet", run_options.quiet, "no progress bar")->group(run_group);
    cellshift::sim::tool::add_model_options(*run, params);

    std::string config_out;
    CLI::App* write_config = app.add_subcommand(
        "write-config", "write every run option with its description and default as a TOML file");
    write_config->add_option("file", config_out, "the config file to write")->required();

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

    int code = cellshift::data::run_tool<CLI::ParseError>(
        "cellshift-sim", app, argc, argv,
        [&] {
            if (app.got_subcommand("devices")) {
                return print_devices(rank, size);
            }
            if (size > 1 && rank != 0) {
                return 0; // one rank for now: the MPI decomposition arrives next
            }
            if (app.got_subcommand("run")) {
                return cellshift::sim::tool::run_simulation(params, run_options);
            }
            if (app.got_subcommand("write-config")) {
                std::string text =
                    "# cellshift-sim configuration: cellshift-sim --config FILE run\n" +
                    run->config_to_str(true, true);
                cellshift::data::write_text_atomically(config_out, "[run]\n" + text);
                std::cout << "wrote " << config_out << "\n";
                return 0;
            }
            if (app.got_subcommand("lattice-forces")) {
                return cellshift::sim::tool::lattice_forces(lattice);
            }
            return 0;
        },
        /*report_errors=*/rank == 0);
    MPI_Finalize();
    return code;
}
