// cellshift-sim: the MPI + CUDA SEM tissue simulator. The model and the run loop
// arrive with the SEM and MPI issues; for now the tool reports what it would run
// on: MPI ranks, OpenMP threads and CUDA devices.

#include "cellshift/data/run_tool.hpp"
#include "cellshift/sim/cuda_devices.hpp"
#include "cellshift/version.hpp"

#include <CLI/CLI.hpp>
#include <mpi.h>
#include <omp.h>

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

    int code = cellshift::data::run_tool<CLI::ParseError>(
        "cellshift-sim", app, argc, argv,
        [&] {
            if (app.got_subcommand("devices")) {
                return print_devices(rank, size);
            }
            return 0;
        },
        /*report_errors=*/rank == 0);
    MPI_Finalize();
    return code;
}
