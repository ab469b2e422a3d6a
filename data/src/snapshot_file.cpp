#include "cellshift/data/snapshot.hpp"

#include "cellshift/data/atomic_file.hpp"
#include "cellshift/data/error.hpp"

#include "checks.hpp"
#include "guarded_read.hpp"
#include "hdf5_io.hpp"

#include <cmath>
#include <numeric>
#include <sstream>

namespace cellshift::data {

void validate(const Snapshot& s, const std::string& where) {
    const std::size_t n = s.positions.rows;
    if (s.positions.cols != 3 && n > 0) {
        throw Error(where + ": positions must have 3 columns, got " +
                    std::to_string(s.positions.cols));
    }
    for (const auto& [name, size] : {std::pair{kSnapshotElementId, s.element_id.size()},
                                     std::pair{kSnapshotCellId, s.cell_id.size()},
                                     std::pair{kSnapshotCellType, s.cell_type.size()}}) {
        if (size != n) {
            throw Error(where + ": " + name + " has " + std::to_string(size) + " entries for " +
                        std::to_string(n) + " elements");
        }
    }
    if (!s.rank.empty() && s.rank.size() != n)
        throw Error(where + ": rank has " + std::to_string(s.rank.size()) + " entries for " +
                    std::to_string(n) + " elements");
    for (double v : s.positions.values) {
        if (!std::isfinite(v))
            throw Error(where + ": positions contain a non-finite value");
    }
    for (std::int64_t t : s.cell_type) {
        if (t < 0 || t > 2)
            throw Error(where + ": cell_type " + std::to_string(t) + " is not 0, 1 or 2");
    }
    for (std::int64_t r : s.rank) {
        if (r < 0)
            throw Error(where + ": rank " + std::to_string(r) + " is negative");
    }
    if (s.domain.size() != 3)
        throw Error(where + ": domain must hold Lx, Ly, Lz");
    for (double L : s.domain) {
        if (!std::isfinite(L) || L <= 0.0)
            throw Error(where + ": domain sizes must be finite and > 0");
    }
    if (s.step < 0 || !std::isfinite(s.time) || s.time < 0.0)
        throw Error(where + ": step and time must be >= 0 (and time finite)");
}

void write_snapshot(const std::string& path, const Snapshot& s) {
    validate(s, path);
    h5::write_atomically(path, kSnapshotFormat, kSnapshotFormatVersion, [&](h5::Writer& out) {
        out.attribute("/", "step", s.step);
        out.attribute("/", "time", s.time);
        out.attribute("/", "domain", s.domain);
        out.attribute("/", "source", s.source);
        Matrix positions = s.positions;
        if (positions.rows == 0)
            positions.cols = 3;
        out.matrix(kSnapshotPositions, positions);
        out.int_vector(kSnapshotElementId, s.element_id);
        out.int_vector(kSnapshotCellId, s.cell_id);
        out.int_vector(kSnapshotCellType, s.cell_type);
        if (!s.rank.empty())
            out.int_vector(kSnapshotRank, s.rank);
        std::vector<std::int64_t> vertices(s.element_id.size());
        std::iota(vertices.begin(), vertices.end(), std::int64_t{0});
        out.int_vector(kSnapshotVertices, vertices);
    });
}

static Snapshot read_snapshot_in_process(const std::string& path) {
    h5::Reader in(path, kSnapshotFormat, kSnapshotFormatVersion);
    Snapshot s;
    s.step = in.int_attribute("/", "step");
    s.time = in.double_attribute("/", "time");
    s.domain = in.double_list_attribute("/", "domain");
    s.source = in.string_attribute("/", "source");
    s.positions = in.matrix(kSnapshotPositions);
    s.element_id = in.int_vector(kSnapshotElementId);
    s.cell_id = in.int_vector(kSnapshotCellId);
    s.cell_type = in.int_vector(kSnapshotCellType);
    if (in.has_object(kSnapshotRank))
        s.rank = in.int_vector(kSnapshotRank);
    validate(s, path);
    return s;
}

std::string xdmf_document(const std::vector<XdmfFrame>& frames) {
    std::ostringstream x;
    x.precision(17);
    x << "<?xml version=\"1.0\" ?>\n"
      << "<!DOCTYPE Xdmf SYSTEM \"Xdmf.dtd\" []>\n"
      << "<Xdmf Version=\"3.0\">\n  <Domain>\n"
      << "    <Grid Name=\"tissue\" GridType=\"Collection\" CollectionType=\"Temporal\">\n";
    for (const XdmfFrame& f : frames) {
        const std::string n = std::to_string(f.elements);
        const auto item = [&](const char* dataset, const char* type, const std::string& dims) {
            return std::string("<DataItem Dimensions=\"") + dims + "\" NumberType=\"" + type +
                   "\" Precision=\"8\" Format=\"HDF\">" + f.file + ":/" + dataset + "</DataItem>";
        };
        x << "      <Grid Name=\"elements\" GridType=\"Uniform\">\n"
          << "        <Time Value=\"" << f.time << "\"/>\n"
          << "        <Topology TopologyType=\"Polyvertex\" NumberOfElements=\"" << n
          << "\" NodesPerElement=\"1\">\n          " << item(kSnapshotVertices, "Int", n)
          << "\n        </Topology>\n"
          << "        <Geometry GeometryType=\"XYZ\">\n          "
          << item(kSnapshotPositions, "Float", n + " 3") << "\n        </Geometry>\n";
        std::vector<const char*> attributes{kSnapshotCellId, kSnapshotCellType};
        if (f.has_rank)
            attributes.push_back(kSnapshotRank);
        for (const char* attribute : attributes) {
            x << "        <Attribute Name=\"" << attribute
              << "\" AttributeType=\"Scalar\" Center=\"Node\">\n          "
              << item(attribute, "Int", n) << "\n        </Attribute>\n";
        }
        x << "      </Grid>\n";
    }
    x << "    </Grid>\n  </Domain>\n</Xdmf>\n";
    return x.str();
}

void write_xdmf(const std::string& path, const std::vector<XdmfFrame>& frames) {
    write_text_atomically(path, xdmf_document(frames));
}

// The HDF5 library first reads the file in a child (guarded_read.hpp).
Snapshot read_snapshot(const std::string& path) {
    return detail::guarded_read(path, [&] { return read_snapshot_in_process(path); });
}

} // namespace cellshift::data
