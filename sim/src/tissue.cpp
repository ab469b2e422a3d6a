#include "cellshift/sim/tissue.hpp"

#include <algorithm>
#include <numeric>

namespace cellshift::sim {

const char* to_string(CellType type) {
    switch (type) {
    case CellType::stem:
        return "stem";
    case CellType::transit_amplifying:
        return "transit-amplifying";
    case CellType::suprabasal:
        return "suprabasal";
    }
    return "unknown";
}

void Elements::reserve(std::size_t n) {
    x.reserve(n);
    y.reserve(n);
    z.reserve(n);
    id.reserve(n);
    cell.reserve(n);
    adhesive.reserve(n);
}

void Elements::push_back(double px, double py, double pz, std::int64_t element_id,
                         std::int64_t cell_id, bool is_adhesive) {
    x.push_back(px);
    y.push_back(py);
    z.push_back(pz);
    id.push_back(element_id);
    cell.push_back(cell_id);
    adhesive.push_back(is_adhesive ? 1 : 0);
}

namespace {
template <typename T>
void permute(std::vector<T>& values, const std::vector<std::size_t>& order) {
    std::vector<T> out(values.size());
    for (std::size_t k = 0; k < order.size(); ++k)
        out[k] = values[order[k]];
    values.swap(out);
}
} // namespace

void Elements::sort_by_id() {
    if (std::is_sorted(id.begin(), id.end()))
        return;
    std::vector<std::size_t> order(size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::sort(order.begin(), order.end(),
              [&](std::size_t a, std::size_t b) { return id[a] < id[b]; });
    permute(x, order);
    permute(y, order);
    permute(z, order);
    permute(id, order);
    permute(cell, order);
    permute(adhesive, order);
}

std::ptrdiff_t Tissue::find_cell(std::int64_t cell_id) const {
    auto it = std::lower_bound(cells.begin(), cells.end(), cell_id,
                               [](const Cell& c, std::int64_t v) { return c.id < v; });
    return it != cells.end() && it->id == cell_id ? it - cells.begin() : -1;
}

} // namespace cellshift::sim
