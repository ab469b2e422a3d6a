#pragma once
// An error every rank raises alike (same data, same decision): the tool exits
// cleanly with one line from rank 0 instead of aborting the MPI job. Any other
// exception during a multi-rank run is local to one rank and aborts the job.

#include <stdexcept>

namespace cellshift::sim {

struct CollectiveError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

} // namespace cellshift::sim
