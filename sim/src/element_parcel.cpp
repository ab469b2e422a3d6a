#include "cellshift/sim/element_parcel.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace cellshift::sim {

void append_element(std::vector<ElementRecord>& out, const Elements& e, std::size_t i) {
    out.push_back({e.x[i], e.y[i], e.z[i], e.id[i], e.cell[i], e.adhesive[i]});
}

void merge_with_ghosts(const Elements& owned, const std::vector<ElementRecord>& ghosts,
                       LocalView& v) {
    // Both inputs are sorted by id (ghosts: the caller concatenates two sorted runs
    // and sorts them, a few hundred records).
    const std::size_t n = owned.size() + ghosts.size();
    Elements& e = v.elements;
    e.x.resize(n);
    e.y.resize(n);
    e.z.resize(n);
    e.id.resize(n);
    e.cell.resize(n);
    e.adhesive.resize(n);
    v.active.resize(n);
    v.own_index.resize(n);
    std::size_t i = 0, g = 0;
    for (std::size_t k = 0; k < n; ++k) {
        if (g == ghosts.size() || (i < owned.size() && owned.id[i] < ghosts[g].id)) {
            e.x[k] = owned.x[i];
            e.y[k] = owned.y[i];
            e.z[k] = owned.z[i];
            e.id[k] = owned.id[i];
            e.cell[k] = owned.cell[i];
            e.adhesive[k] = owned.adhesive[i];
            v.active[k] = 1;
            v.own_index[k] = i++;
        } else {
            const ElementRecord& r = ghosts[g++];
            e.x[k] = r.x;
            e.y[k] = r.y;
            e.z[k] = r.z;
            e.id[k] = r.id;
            e.cell[k] = r.cell;
            e.adhesive[k] = static_cast<std::uint8_t>(r.adhesive);
            v.active[k] = 0;
            v.own_index[k] = 0;
        }
    }
}

namespace {

template <typename T>
void put(std::vector<char>& out, const T& value) {
    const auto* p = reinterpret_cast<const char*>(&value);
    out.insert(out.end(), p, p + sizeof(T));
}

template <typename T>
T take(const char*& p, const char* end) {
    if (static_cast<std::size_t>(end - p) < sizeof(T))
        throw std::runtime_error("truncated cell message");
    T value;
    std::memcpy(&value, p, sizeof(T));
    p += sizeof(T);
    return value;
}

// Cell, element count, elements: one parcel per cell.
void put_cell(std::vector<char>& out, const Cell& cell, const std::vector<ElementRecord>& records) {
    put(out, cell);
    put(out, static_cast<std::int64_t>(records.size()));
    for (const ElementRecord& r : records)
        put(out, r);
}

std::vector<std::vector<ElementRecord>> records_by_cell(const Tissue& t) {
    std::vector<std::vector<ElementRecord>> by_cell(t.cells.size());
    for (std::size_t i = 0; i < t.elements.size(); ++i)
        append_element(by_cell[static_cast<std::size_t>(t.find_cell(t.elements.cell[i]))],
                       t.elements, i);
    return by_cell;
}

} // namespace

std::vector<std::vector<char>> pack_cells(Tissue& t, const std::vector<int>& owner, int keep,
                                          int ranks) {
    if (owner.size() != t.cells.size())
        throw std::logic_error("pack_cells: one owner per cell");
    std::vector<std::vector<char>> out(static_cast<std::size_t>(ranks));
    if (std::all_of(owner.begin(), owner.end(), [&](int o) { return o == keep; }))
        return out;
    const auto by_cell = records_by_cell(t);
    Tissue kept;
    kept.next_cell_id = t.next_cell_id;
    kept.step = t.step;
    kept.time = t.time;
    for (std::size_t c = 0; c < t.cells.size(); ++c) {
        if (owner[c] == keep) {
            kept.cells.push_back(t.cells[c]);
            for (const ElementRecord& r : by_cell[c])
                kept.elements.push_back(r.x, r.y, r.z, r.id, r.cell, r.adhesive != 0);
        } else {
            put_cell(out[static_cast<std::size_t>(owner[c])], t.cells[c], by_cell[c]);
        }
    }
    kept.elements.sort_by_id();
    t = std::move(kept);
    return out;
}

std::vector<char> pack_all_cells(const Tissue& t) {
    std::vector<char> out;
    const auto by_cell = records_by_cell(t);
    for (std::size_t c = 0; c < t.cells.size(); ++c)
        put_cell(out, t.cells[c], by_cell[c]);
    return out;
}

void unpack_cells(Tissue& t, const char* data, std::size_t bytes) {
    if (bytes == 0)
        return;
    const char* p = data;
    const char* end = data + bytes;
    while (p < end) {
        const Cell cell = take<Cell>(p, end);
        const auto count = take<std::int64_t>(p, end);
        for (std::int64_t k = 0; k < count; ++k) {
            const auto r = take<ElementRecord>(p, end);
            t.elements.push_back(r.x, r.y, r.z, r.id, r.cell, r.adhesive != 0);
        }
        t.cells.push_back(cell);
    }
    std::sort(t.cells.begin(), t.cells.end(),
              [](const Cell& a, const Cell& b) { return a.id < b.id; });
    t.elements.sort_by_id();
}

} // namespace cellshift::sim
