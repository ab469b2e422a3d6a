#pragma once
// The few communication patterns of the slab decomposition, written
// once over MPI's C API.

#include "cellshift/sim/collective_error.hpp"

#include <mpi.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace cellshift::sim::mpi {

inline int checked_count(std::size_t n) {
    if (n > static_cast<std::size_t>(INT_MAX))
        throw std::runtime_error("MPI message over 2 GiB");
    return static_cast<int>(n);
}

inline std::string broadcast_string(MPI_Comm comm, std::string text, int root) {
    int n = static_cast<int>(text.size());
    MPI_Bcast(&n, 1, MPI_INT, root, comm);
    text.resize(static_cast<std::size_t>(n));
    MPI_Bcast(text.data(), n, MPI_CHAR, root, comm);
    return text;
}

// Runs `setup` on every rank; when it throws on any rank, every rank throws
// CollectiveError with the message of the lowest failing rank (so the
// tool prints one line and no rank waits forever for the others).
inline void agree(MPI_Comm comm, const std::function<void()>& setup) {
    int rank = 0, size = 1;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    std::string problem;
    int mine = size;
    try {
        setup();
    } catch (const std::exception& error) {
        problem = error.what();
        mine = rank;
    }
    int first = size;
    MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm);
    if (first < size)
        throw CollectiveError(broadcast_string(comm, problem, first));
}

// Sends `to_left` to rank - 1 and `to_right` to rank + 1 (where they exist) and
// receives theirs: non-blocking point-to-point, counts first, then records.
template <typename Record>
void exchange_with_neighbours(MPI_Comm comm, int rank, int size, const std::vector<Record>& to_left,
                              const std::vector<Record>& to_right, std::vector<Record>& from_left,
                              std::vector<Record>& from_right, int tag_count, int tag_data) {
    const int left = rank > 0 ? rank - 1 : MPI_PROC_NULL;
    const int right = rank + 1 < size ? rank + 1 : MPI_PROC_NULL;
    long long send[2] = {static_cast<long long>(to_left.size()),
                         static_cast<long long>(to_right.size())};
    long long recv[2] = {0, 0};
    MPI_Request counts[4];
    MPI_Irecv(&recv[0], 1, MPI_LONG_LONG, left, tag_count, comm, &counts[0]);
    MPI_Irecv(&recv[1], 1, MPI_LONG_LONG, right, tag_count, comm, &counts[1]);
    MPI_Isend(&send[0], 1, MPI_LONG_LONG, left, tag_count, comm, &counts[2]);
    MPI_Isend(&send[1], 1, MPI_LONG_LONG, right, tag_count, comm, &counts[3]);
    MPI_Waitall(4, counts, MPI_STATUSES_IGNORE);
    from_left.resize(static_cast<std::size_t>(recv[0]));
    from_right.resize(static_cast<std::size_t>(recv[1]));
    const auto bytes = [](std::size_t n) { return checked_count(n * sizeof(Record)); };
    MPI_Request data[4];
    MPI_Irecv(from_left.data(), bytes(from_left.size()), MPI_BYTE, left, tag_data, comm, &data[0]);
    MPI_Irecv(from_right.data(), bytes(from_right.size()), MPI_BYTE, right, tag_data, comm,
              &data[1]);
    MPI_Isend(to_left.data(), bytes(to_left.size()), MPI_BYTE, left, tag_data, comm, &data[2]);
    MPI_Isend(to_right.data(), bytes(to_right.size()), MPI_BYTE, right, tag_data, comm, &data[3]);
    MPI_Waitall(4, data, MPI_STATUSES_IGNORE);
}

// Every rank's values, concatenated and sorted, on every rank.
inline std::vector<std::int64_t> all_gather_sorted(MPI_Comm comm,
                                                   const std::vector<std::int64_t>& mine) {
    int size = 1;
    MPI_Comm_size(comm, &size);
    int n = checked_count(mine.size());
    std::vector<int> counts(static_cast<std::size_t>(size)), offsets(counts.size(), 0);
    MPI_Allgather(&n, 1, MPI_INT, counts.data(), 1, MPI_INT, comm);
    for (std::size_t p = 1; p < counts.size(); ++p)
        offsets[p] = offsets[p - 1] + counts[p - 1];
    std::vector<std::int64_t> all(static_cast<std::size_t>(offsets.back() + counts.back()));
    MPI_Allgatherv(mine.data(), n, MPI_INT64_T, all.data(), counts.data(), offsets.data(),
                   MPI_INT64_T, comm);
    std::sort(all.begin(), all.end());
    return all;
}

// out[q] goes to rank q; returns what every rank sent to this one, in rank order.
inline std::vector<char> all_to_all_bytes(MPI_Comm comm,
                                          const std::vector<std::vector<char>>& out) {
    const std::size_t size = out.size();
    std::vector<int> send_counts(size), recv_counts(size), send_offsets(size, 0),
        recv_offsets(size, 0);
    for (std::size_t q = 0; q < size; ++q)
        send_counts[q] = checked_count(out[q].size());
    MPI_Alltoall(send_counts.data(), 1, MPI_INT, recv_counts.data(), 1, MPI_INT, comm);
    std::vector<char> send;
    for (std::size_t q = 0; q < size; ++q) {
        send_offsets[q] = checked_count(send.size());
        send.insert(send.end(), out[q].begin(), out[q].end());
    }
    std::size_t total = 0;
    for (std::size_t q = 0; q < size; ++q) {
        recv_offsets[q] = checked_count(total);
        total += static_cast<std::size_t>(recv_counts[q]);
    }
    std::vector<char> in(total);
    MPI_Alltoallv(send.data(), send_counts.data(), send_offsets.data(), MPI_BYTE, in.data(),
                  recv_counts.data(), recv_offsets.data(), MPI_BYTE, comm);
    return in;
}

// Every rank's bytes on `root`, one buffer per rank (empty elsewhere).
inline std::vector<std::vector<char>> gather_bytes(MPI_Comm comm, const std::vector<char>& mine,
                                                   int root) {
    int rank = 0, size = 1;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    int n = checked_count(mine.size());
    std::vector<int> counts(static_cast<std::size_t>(size)), offsets(counts.size(), 0);
    MPI_Gather(&n, 1, MPI_INT, counts.data(), 1, MPI_INT, root, comm);
    std::size_t total = 0;
    for (std::size_t p = 0; p < counts.size(); ++p) {
        offsets[p] = checked_count(total);
        total += static_cast<std::size_t>(counts[p]);
    }
    std::vector<char> all(rank == root ? total : 0);
    MPI_Gatherv(mine.data(), n, MPI_BYTE, all.data(), counts.data(), offsets.data(), MPI_BYTE, root,
                comm);
    std::vector<std::vector<char>> parts;
    if (rank == root) {
        for (std::size_t p = 0; p < counts.size(); ++p)
            parts.emplace_back(all.begin() + offsets[p], all.begin() + offsets[p] + counts[p]);
    }
    return parts;
}

} // namespace cellshift::sim::mpi
