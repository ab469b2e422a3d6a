// Catch2's main for the MPI tests: every rank runs every test case, in the same
// order, so the collective calls inside them match. The exit code is this
// rank's failure count; mpirun fails when any rank fails.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <mpi.h>

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    Catch::Session session;
    // Only rank 0 reports successes; every rank reports its failures.
    int failures = session.run(argc, argv);
    int all = 0;
    MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0 && all == 0)
        std::printf("mpi tests: all ranks passed\n");
    MPI_Finalize();
    return failures == 0 ? 0 : 1;
}
