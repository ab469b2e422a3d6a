#pragma once
// Simulator snapshots (format "cellshift.snapshot", docs/design.md section 6): one HDF5
// file per output step with positions, element and cell ids and cell types, and
// an XDMF sidecar that lists every snapshot of a run as a time series, so
// ParaView (or VisIt) opens the run directly.

#include "cellshift/data/array2d.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace cellshift::data {

inline constexpr const char* kSnapshotFormat = "cellshift.snapshot";
inline constexpr int kSnapshotFormatVersion = 1;

struct Snapshot {
    std::int64_t step = 0;
    double time = 0.0;
    Matrix positions;                     // [N, 3] float64, finite
    std::vector<std::int64_t> element_id; // [N]
    std::vector<std::int64_t> cell_id;    // [N]
    std::vector<std::int64_t> cell_type;  // [N]: 0 stem, 1 transit-amplifying, 2 suprabasal
    std::vector<std::int64_t> rank;       // [N] owning MPI rank, or empty (not written)
    std::vector<double> domain;           // [3]: Lx, Ly, Lz
    std::string source;
};

// The names of the datasets, as the XDMF sidecar refers to them.
inline constexpr const char* kSnapshotPositions = "positions";
inline constexpr const char* kSnapshotCellId = "cell_id";
inline constexpr const char* kSnapshotCellType = "cell_type";
inline constexpr const char* kSnapshotElementId = "element_id";
inline constexpr const char* kSnapshotRank = "rank";
// 0..N-1: the sidecar's Polyvertex connectivity, one vertex cell per element, so that
// ParaView's default Surface view draws the elements (without it the reader finds 0
// cells). Written for viewers; read_snapshot does not need it.
inline constexpr const char* kSnapshotVertices = "vertices";

void validate(const Snapshot& snapshot, const std::string& where);
void write_snapshot(const std::string& path, const Snapshot& snapshot);
Snapshot read_snapshot(const std::string& path);

// One entry of the XDMF time series: the snapshot file (relative to the XDMF
// file's folder), its time and element count.
struct XdmfFrame {
    std::string file;
    double time = 0.0;
    std::int64_t elements = 0;
    bool has_rank = false; // the snapshot holds the owning rank of each element
};

std::string xdmf_document(const std::vector<XdmfFrame>& frames);
// Rewritten atomically after every snapshot, so it always lists complete files.
void write_xdmf(const std::string& path, const std::vector<XdmfFrame>& frames);

} // namespace cellshift::data
