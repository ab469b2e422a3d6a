#pragma once
// Elements and whole cells as flat byte buffers: the messages of the ghost
// exchange, of migration and of checkpoint gathering. Ranks run the same binary,
// so records are copied as they are in memory.

#include "cellshift/sim/tissue.hpp"

#include <cstdint>
#include <vector>

namespace cellshift::sim {

struct ElementRecord {
    double x, y, z;
    std::int64_t id, cell;
    std::int64_t adhesive;
};

// Appends element i of `elements` to `out`.
void append_element(std::vector<ElementRecord>& out, const Elements& elements, std::size_t i);

// A rank's elements plus ghosts, merged in id order (the canonical order every
// backend's sums follow), with active = 1 for the rank's own and the index of
// each own element in its Elements.
struct LocalView {
    Elements elements;
    std::vector<std::uint8_t> active;
    std::vector<std::size_t> own_index; // for active entries: index in the owned Elements
};
void merge_with_ghosts(const Elements& owned, const std::vector<ElementRecord>& ghosts,
                       LocalView& view);

// Cells with all their elements. pack_cells removes the cells whose `owner` is
// not `keep` from the tissue and returns one buffer per destination rank;
// unpack_cells adds a buffer's cells and restores the tissue's sort invariants.
std::vector<std::vector<char>> pack_cells(Tissue& tissue, const std::vector<int>& owner, int keep,
                                          int ranks);
void unpack_cells(Tissue& tissue, const char* data, std::size_t bytes);
// Serialises every cell (for gathering the tissue to one rank).
std::vector<char> pack_all_cells(const Tissue& tissue);

} // namespace cellshift::sim
