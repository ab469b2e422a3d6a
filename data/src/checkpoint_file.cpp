#include "cellshift/data/checkpoint.hpp"

#include "cellshift/data/error.hpp"

#include "checks.hpp"
#include "guarded_read.hpp"
#include "hdf5_io.hpp"

#include <algorithm>
#include <cmath>

namespace cellshift::data {

namespace {

// The int64 per-element and per-cell arrays, by dataset name.
struct IntColumn {
    const char* name;
    std::vector<std::int64_t> Checkpoint::*member;
};
constexpr IntColumn kElementInts[] = {{"elements/id", &Checkpoint::element_id},
                                      {"elements/cell", &Checkpoint::element_cell},
                                      {"elements/adhesive", &Checkpoint::element_adhesive}};
constexpr IntColumn kCellInts[] = {{"cells/id", &Checkpoint::cell_id},
                                   {"cells/type", &Checkpoint::cell_type},
                                   {"cells/generation", &Checkpoint::cell_generation},
                                   {"cells/next_serial", &Checkpoint::cell_next_serial},
                                   {"cells/elements", &Checkpoint::cell_elements},
                                   {"cells/owner", &Checkpoint::cell_owner}};
struct RealColumn {
    const char* name;
    std::vector<double> Checkpoint::*member;
};
constexpr RealColumn kCellReals[] = {{"cells/age", &Checkpoint::cell_age},
                                     {"cells/cycle_time", &Checkpoint::cell_cycle_time},
                                     {"cells/growth_credit", &Checkpoint::cell_growth_credit}};

// A name map as a group of datasets a0, a1, ... with their names in an attribute
// (the names contain '/', which HDF5 would read as subgroups).
void write_arrays(h5::Writer& out, const std::string& group, const NamedArrays& arrays) {
    out.group(group);
    std::vector<std::string> names;
    for (const auto& [name, values] : arrays) {
        out.vector(group + "/a" + std::to_string(names.size()), values);
        names.push_back(name);
    }
    out.attribute(group, "names", names);
}

NamedArrays read_arrays(const h5::Reader& in, const std::string& group) {
    NamedArrays arrays;
    const std::vector<std::string> names = in.string_list_attribute(group, "names");
    for (std::size_t k = 0; k < names.size(); ++k) {
        arrays[names[k]] = in.vector(group + "/a" + std::to_string(k));
        checks::finite(in.path(), group + "/" + names[k], arrays[names[k]]);
    }
    return arrays;
}

void strictly_increasing(const std::string& where, const char* name,
                         const std::vector<std::int64_t>& ids) {
    for (std::size_t k = 1; k < ids.size(); ++k) {
        if (ids[k] <= ids[k - 1])
            throw Error(where + ": " + name + " is not sorted and unique");
    }
}

} // namespace

void validate(const Checkpoint& c, const std::string& where) {
    const std::size_t n = c.element_id.size();
    const std::size_t cells = c.cell_id.size();
    checks::matrix_shape(where, "elements/positions", c.positions.rows,
                         n == 0 ? 3 : c.positions.cols, n, 3);
    checks::finite(where, "elements/positions", c.positions);
    for (const IntColumn& col : kElementInts)
        checks::vector_size(where, col.name, (c.*col.member).size(), n);
    for (const IntColumn& col : kCellInts)
        checks::vector_size(where, col.name, (c.*col.member).size(), cells);
    for (const RealColumn& col : kCellReals) {
        checks::vector_size(where, col.name, (c.*col.member).size(), cells);
        checks::finite(where, col.name, c.*col.member, true);
    }
    if (c.ranks < 1 || c.slices < c.ranks)
        throw Error(where + ": needs 1 <= ranks <= slices");
    if (c.step < 0 || !std::isfinite(c.time))
        throw Error(where + ": step and time must be finite and >= 0");
    strictly_increasing(where, "elements/id", c.element_id);
    strictly_increasing(where, "cells/id", c.cell_id);
    if (cells > 0 && c.next_cell_id <= c.cell_id.back())
        throw Error(where + ": next_cell_id is not above every cell id");
    std::vector<std::int64_t> counted(cells, 0);
    for (std::int64_t cell : c.element_cell) {
        const auto it = std::lower_bound(c.cell_id.begin(), c.cell_id.end(), cell);
        if (it == c.cell_id.end() || *it != cell)
            throw Error(where + ": an element belongs to cell " + std::to_string(cell) +
                        ", which is not in cells/id");
        ++counted[static_cast<std::size_t>(it - c.cell_id.begin())];
    }
    for (std::size_t k = 0; k < cells; ++k) {
        if (counted[k] != c.cell_elements[k])
            throw Error(where + ": cell " + std::to_string(c.cell_id[k]) + " lists " +
                        std::to_string(c.cell_elements[k]) + " elements, the file holds " +
                        std::to_string(counted[k]));
        if (c.cell_type[k] < 0 || c.cell_type[k] > 2)
            throw Error(where + ": cells/type must be 0, 1 or 2");
        if (c.cell_owner[k] < 0 || c.cell_owner[k] >= c.ranks)
            throw Error(where + ": cells/owner must be in [0, ranks)");
    }
}

void write_checkpoint(const std::string& path, const Checkpoint& c) {
    validate(c, path);
    h5::write_atomically(path, kCheckpointFormat, kCheckpointFormatVersion, [&](h5::Writer& out) {
        out.attribute("/", "step", c.step);
        out.attribute("/", "time", c.time);
        out.attribute("/", "next_cell_id", c.next_cell_id);
        out.attribute("/", "ranks", c.ranks);
        out.attribute("/", "slices", c.slices);
        out.attribute("/", "policy", c.policy);
        out.attribute("/", "configuration", c.configuration);
        out.group("elements");
        out.group("cells");
        Matrix positions = c.positions;
        positions.cols = 3;
        out.matrix("elements/positions", positions);
        for (const IntColumn& col : kElementInts)
            out.int_vector(col.name, c.*col.member);
        for (const IntColumn& col : kCellInts)
            out.int_vector(col.name, c.*col.member);
        for (const RealColumn& col : kCellReals)
            out.vector(col.name, c.*col.member);
        write_arrays(out, "policy_state", c.policy_state);
        write_arrays(out, "balancer_state", c.balancer_state);
    });
}

static Checkpoint read_checkpoint_in_process(const std::string& path) {
    h5::Reader in(path, kCheckpointFormat, kCheckpointFormatVersion);
    Checkpoint c;
    c.step = in.int_attribute("/", "step");
    c.time = in.double_attribute("/", "time");
    c.next_cell_id = in.int_attribute("/", "next_cell_id");
    c.ranks = in.int_attribute("/", "ranks");
    c.slices = in.int_attribute("/", "slices");
    c.policy = in.string_attribute("/", "policy");
    c.configuration = in.string_attribute("/", "configuration");
    c.positions = in.matrix("elements/positions");
    for (const IntColumn& col : kElementInts)
        c.*col.member = in.int_vector(col.name);
    for (const IntColumn& col : kCellInts)
        c.*col.member = in.int_vector(col.name);
    for (const RealColumn& col : kCellReals)
        c.*col.member = in.vector(col.name);
    c.policy_state = read_arrays(in, "policy_state");
    c.balancer_state = read_arrays(in, "balancer_state");
    validate(c, path);
    return c;
}

// The HDF5 library first reads the file in a child (guarded_read.hpp).
Checkpoint read_checkpoint(const std::string& path) {
    return detail::guarded_read(path, [&] { return read_checkpoint_in_process(path); });
}

} // namespace cellshift::data
