#pragma once
// The tissue: elements in structure-of-arrays layout and the cells they belong
// to. Invariant: elements are sorted by id, so every backend sees the same
// canonical order whatever the history of insertions (and, with MPI, whatever
// the decomposition).

#include <cstdint>
#include <vector>

namespace cellshift::sim {

// An element id is its cell's id at birth times 2^20 plus a serial within that
// cell: unique, and a pure function of the lineage, never of a global counter.
inline constexpr int kElementSerialBits = 20;
inline constexpr std::int64_t kMaxElementsPerCellLifetime = std::int64_t{1} << kElementSerialBits;

enum class CellType : std::int32_t {
    stem = 0,               // basal, divides without limit
    transit_amplifying = 1, // basal, divides a limited number of generations
    suprabasal = 2,         // differentiated: neither grows nor divides
};

const char* to_string(CellType type);

struct Cell {
    std::int64_t id = 0;
    CellType type = CellType::stem;
    std::int32_t generation = 0;  // TA divisions so far (stem cells: 0)
    double age = 0.0;             // time since birth
    double cycle_time = 0.0;      // this cell's growth time to division size
    double growth_credit = 0.0;   // fractional elements owed by growth
    std::int64_t next_serial = 0; // serial of this cell's next new element
    std::int32_t elements = 0;    // current element count

    bool adhesive() const { return type != CellType::suprabasal; }
    bool proliferating() const { return type != CellType::suprabasal; }
};

struct Elements {
    std::vector<double> x, y, z;
    std::vector<std::int64_t> id;
    std::vector<std::int64_t> cell;     // owning cell's id
    std::vector<std::uint8_t> adhesive; // 1 when the owning cell adheres to the membrane

    std::size_t size() const { return id.size(); }
    void reserve(std::size_t n);
    void push_back(double px, double py, double pz, std::int64_t element_id, std::int64_t cell_id,
                   bool is_adhesive);
    // Reorders every array by element id (the canonical order).
    void sort_by_id();
};

struct Tissue {
    Elements elements;
    std::vector<Cell> cells;       // sorted by id
    std::int64_t next_cell_id = 0; // id of the next cell born
    std::int64_t step = 0;         // steps taken so far
    double time = 0.0;

    // Index of the cell with this id in `cells` (binary search); -1 when absent.
    std::ptrdiff_t find_cell(std::int64_t id) const;
};

} // namespace cellshift::sim
