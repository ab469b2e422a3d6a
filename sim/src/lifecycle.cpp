#include "cellshift/sim/lifecycle.hpp"

#include "cellshift/sim/counter_noise.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace cellshift::sim {

namespace {

// Counter streams: the fourth key of counter_uniform, one per kind of decision.
enum Stream : std::uint64_t {
    kCycleTime = 1 << 20,
    kInitialAge,
    kElementPick,
    kElementOffset, // three components
    kDivisionPlane = kElementOffset + 4,
    kDivisionAngle,
    kDaughterFate,
    kPlacement, // initial elements, three components each
};

double uniform(const SemParams& p, std::int64_t cell, std::int64_t step, std::uint64_t stream) {
    return counter_uniform(p.seed, static_cast<std::uint64_t>(cell),
                           static_cast<std::uint64_t>(step), stream);
}

std::int64_t element_id(std::int64_t cell_id, std::int64_t serial) {
    if (serial >= kMaxElementsPerCellLifetime) {
        throw std::runtime_error("cell " + std::to_string(cell_id) + " exhausted its element ids");
    }
    return (cell_id << kElementSerialBits) | serial;
}

double clamp(double v, double hi) {
    return std::min(std::max(v, 0.0), hi);
}

// Element indices grouped by cell: members[offset[c] .. offset[c + 1]) belong to
// tissue.cells[c], in id order.
struct Membership {
    std::vector<std::size_t> offset;
    std::vector<std::size_t> members;
};

Membership group_by_cell(const Tissue& t) {
    Membership m;
    m.offset.assign(t.cells.size() + 1, 0);
    std::vector<std::size_t> cell_of(t.elements.size());
    for (std::size_t i = 0; i < t.elements.size(); ++i) {
        const std::ptrdiff_t c = t.find_cell(t.elements.cell[i]);
        if (c < 0)
            throw std::logic_error("element without a cell");
        cell_of[i] = static_cast<std::size_t>(c);
        ++m.offset[cell_of[i] + 1];
    }
    std::partial_sum(m.offset.begin(), m.offset.end(), m.offset.begin());
    m.members.resize(t.elements.size());
    std::vector<std::size_t> fill(m.offset.begin(), m.offset.end() - 1);
    for (std::size_t i = 0; i < t.elements.size(); ++i)
        m.members[fill[cell_of[i]]++] = i;
    return m;
}

Cell newborn(const SemParams& p, std::int64_t id, CellType type, std::int32_t generation,
             double x_birth) {
    Cell c;
    c.id = id;
    c.type = type;
    c.generation = generation;
    c.cycle_time = draw_cycle_time(p, id, x_birth);
    return c;
}

// Adds one element to `cell`, next to one of its elements (picked by a counter draw).
void add_element(Tissue& t, const SemParams& p, Cell& cell, const std::vector<std::size_t>& own,
                 std::int64_t draw) {
    const auto pick = static_cast<std::size_t>(uniform(p, cell.id, draw, kElementPick) *
                                               static_cast<double>(own.size()));
    const std::size_t k = own[std::min(pick, own.size() - 1)];
    const Elements& e = t.elements;
    // A random direction (uniform on the sphere), at half the intra-cell spacing.
    const double u = 2.0 * uniform(p, cell.id, draw, kElementOffset) - 1.0;
    const double phi = 6.283185307179586 * uniform(p, cell.id, draw, kElementOffset + 1);
    const double s = std::sqrt(std::max(0.0, 1.0 - u * u));
    const double d = 0.4;
    const double x = clamp(e.x[k] + d * s * std::cos(phi), p.Lx);
    const double y = clamp(e.y[k] + d * s * std::sin(phi), p.Ly);
    const double z = clamp(e.z[k] + d * u, p.Lz);
    t.elements.push_back(x, y, z, element_id(cell.id, cell.next_serial++), cell.id,
                         cell.adhesive());
    ++cell.elements;
}

// Splits `parent`'s elements between two new cells by a plane through its
// centroid; returns the two daughters (lower side first).
std::pair<Cell, Cell> divide(Tissue& t, const SemParams& p, const Cell& parent,
                             const std::vector<std::size_t>& own, std::int64_t first_id) {
    Elements& e = t.elements;
    double cx = 0.0, cy = 0.0, cz = 0.0;
    for (std::size_t k : own) {
        cx += e.x[k];
        cy += e.y[k];
        cz += e.z[k];
    }
    const double inv = 1.0 / static_cast<double>(own.size());
    cx *= inv;
    cy *= inv;
    cz *= inv;
    // Plane parallel to the membrane (normal z: daughters stacked, the tissue
    // stratifies) or perpendicular to it (normal in the xy plane: side by side).
    double nx = 0.0, ny = 0.0, nz = 1.0;
    if (uniform(p, parent.id, t.step, kDivisionPlane) >= p.p_plane_parallel) {
        const double theta = 6.283185307179586 * uniform(p, parent.id, t.step, kDivisionAngle);
        nx = std::cos(theta);
        ny = std::sin(theta);
        nz = 0.0;
    }
    std::vector<std::pair<double, std::size_t>> side(own.size());
    for (std::size_t m = 0; m < own.size(); ++m) {
        const std::size_t k = own[m];
        side[m] = {(e.x[k] - cx) * nx + (e.y[k] - cy) * ny + (e.z[k] - cz) * nz, k};
    }
    // Through the centroid; when that leaves a side nearly empty, the median plane
    // parallel to it (both daughters must be viable).
    auto below = static_cast<std::size_t>(
        std::count_if(side.begin(), side.end(), [](const auto& s) { return s.first < 0.0; }));
    const std::size_t minimum = std::max<std::size_t>(1, own.size() / 4);
    if (below < minimum || own.size() - below < minimum) {
        std::sort(side.begin(), side.end());
        for (std::size_t m = 0; m < side.size(); ++m)
            side[m].first = m < side.size() / 2 ? -1 : 1;
    }

    Cell lower, upper;
    if (parent.type == CellType::stem) {
        const bool asymmetric = uniform(p, parent.id, t.step, kDaughterFate) < p.p_asymmetric;
        lower = newborn(p, first_id, CellType::stem, 0, cx);
        upper = newborn(p, first_id + 1, asymmetric ? CellType::transit_amplifying : CellType::stem,
                        asymmetric ? 1 : 0, cx);
    } else {
        const std::int32_t g = parent.generation + 1;
        const CellType type =
            g > p.ta_generations ? CellType::suprabasal : CellType::transit_amplifying;
        lower = newborn(p, first_id, type, g, cx);
        upper = newborn(p, first_id + 1, type, g, cx);
    }
    for (const auto& [projection, k] : side) {
        Cell& d = projection < 0.0 ? lower : upper;
        e.cell[k] = d.id;
        ++d.elements;
    }
    return {lower, upper};
}

} // namespace

DaughterIds number_daughters_locally(const std::vector<std::int64_t>& dividing,
                                     std::int64_t next_cell_id) {
    DaughterIds ids;
    ids.total_divisions = static_cast<std::int64_t>(dividing.size());
    for (std::size_t k = 0; k < dividing.size(); ++k)
        ids.first.push_back(next_cell_id + 2 * static_cast<std::int64_t>(k));
    return ids;
}

double draw_cycle_time(const SemParams& p, std::int64_t cell_id, double x_birth) {
    const double u = uniform(p, cell_id, 0, kCycleTime);
    const double speedup = 1.0 + p.growth_gradient * (1.0 - 2.0 * x_birth / p.Lx);
    return p.cycle_time * (1.0 + p.growth_jitter * (2.0 * u - 1.0)) / speedup;
}

Tissue make_basal_patch(const SemParams& p) {
    Tissue t;
    const double s = p.patch_spacing;
    // Colony k covers [x_begin, x_end); one colony from 0 is the original patch, bit for bit.
    const double gap = p.patch_colonies > 1 ? p.patch_gap * p.Lx : 0.0;
    const double colony =
        (p.patch_fraction * p.Lx - static_cast<double>(p.patch_colonies - 1) * gap) /
        static_cast<double>(p.patch_colonies);
    for (int colony_index = 0; colony_index < p.patch_colonies; ++colony_index) {
        const double x_begin =
            p.patch_start * p.Lx + static_cast<double>(colony_index) * (colony + gap);
        const double x_end = std::max(x_begin + colony, x_begin + s);
        // Elements of a cell start uniformly in a ball of this radius around its centre.
        const double radius = 0.35 * s;
        const double cz = std::min(radius + 0.3, 0.5 * p.Lz);
        // Floating-point counters on purpose: the lattice positions are the sums
        // every result so far was computed from (an integer counter would round
        // differently and change every tissue bit for bit).
        // NOLINTNEXTLINE(clang-analyzer-security.FloatLoopCounter)
        for (double cx = x_begin + 0.5 * s; cx <= x_end - 0.5 * s + 1e-9 && cx <= p.Lx; cx += s) {
            // NOLINTNEXTLINE(clang-analyzer-security.FloatLoopCounter)
            for (double cy = 0.5 * s; cy <= p.Ly - 0.5 * s + 1e-9; cy += s) {
                Cell c = newborn(p, t.next_cell_id++, CellType::stem, 0, cx);
                // Desynchronised start: a random age, with the elements grown so far.
                c.age = 0.9 * c.cycle_time * uniform(p, c.id, 0, kInitialAge);
                const int grown = static_cast<int>(c.age / c.cycle_time *
                                                   (p.elements_division - p.elements_initial));
                const int n = p.elements_initial + grown;
                for (int k = 0; k < n; ++k) {
                    const auto draw = [&](int axis) {
                        return uniform(p, c.id, k, kPlacement + static_cast<std::uint64_t>(axis));
                    };
                    // Uniform in the ball: radius ~ u^(1/3), direction uniform.
                    const double r = radius * std::cbrt(draw(0));
                    const double u = 2.0 * draw(1) - 1.0;
                    const double phi = 6.283185307179586 * draw(2);
                    const double w = std::sqrt(std::max(0.0, 1.0 - u * u));
                    t.elements.push_back(clamp(cx + r * w * std::cos(phi), p.Lx),
                                         clamp(cy + r * w * std::sin(phi), p.Ly),
                                         clamp(cz + r * u, p.Lz), element_id(c.id, c.next_serial++),
                                         c.id, c.adhesive());
                    ++c.elements;
                }
                t.cells.push_back(c);
            }
        }
    }
    t.elements.sort_by_id();
    return t;
}

LifecycleEvents update_lifecycle(Tissue& t, const SemParams& p, double elapsed,
                                 const DaughterNumbering& numbering) {
    LifecycleEvents events;
    const int span = p.elements_division - p.elements_initial;
    Membership m = group_by_cell(t);

    // Growth: each proliferating cell earns (division - initial) elements per cycle.
    for (std::size_t c = 0; c < t.cells.size(); ++c) {
        Cell& cell = t.cells[c];
        cell.age += elapsed;
        if (!cell.proliferating())
            continue;
        cell.growth_credit += elapsed * span / cell.cycle_time;
        std::vector<std::size_t> own(m.members.begin() + static_cast<std::ptrdiff_t>(m.offset[c]),
                                     m.members.begin() +
                                         static_cast<std::ptrdiff_t>(m.offset[c + 1]));
        while (cell.growth_credit >= 1.0 && cell.elements < p.elements_division) {
            add_element(t, p, cell, own, t.step * 64 + cell.next_serial);
            own.push_back(t.elements.size() - 1);
            cell.growth_credit -= 1.0;
            ++events.elements_added;
        }
        if (cell.elements >= p.elements_division)
            cell.growth_credit = 0.0;
    }
    if (events.elements_added > 0) {
        t.elements.sort_by_id();
        m = group_by_cell(t);
    }

    // Division, in cell id order; daughters get the next ids (of the whole tissue).
    const auto divides = [&](const Cell& cell) {
        return cell.proliferating() && cell.elements >= p.elements_division;
    };
    std::vector<std::int64_t> dividing;
    for (const Cell& cell : t.cells) {
        if (divides(cell))
            dividing.push_back(cell.id);
    }
    const DaughterIds ids = numbering(dividing, t.next_cell_id);
    if (ids.first.size() != dividing.size())
        throw std::logic_error("daughter numbering returned the wrong number of ids");
    std::size_t division = 0;
    std::vector<Cell> next;
    next.reserve(t.cells.size() + 8);
    std::vector<Cell> born;
    for (std::size_t c = 0; c < t.cells.size(); ++c) {
        const Cell& cell = t.cells[c];
        if (divides(cell)) {
            const std::vector<std::size_t> own(
                m.members.begin() + static_cast<std::ptrdiff_t>(m.offset[c]),
                m.members.begin() + static_cast<std::ptrdiff_t>(m.offset[c + 1]));
            auto [lower, upper] = divide(t, p, cell, own, ids.first[division++]);
            born.push_back(lower);
            born.push_back(upper);
            ++events.divisions;
        } else {
            next.push_back(cell);
        }
    }
    // New ids exceed every existing one and grow with the parent's id: still sorted.
    next.insert(next.end(), born.begin(), born.end());
    t.cells.swap(next);
    t.next_cell_id += 2 * ids.total_divisions;

    // Differentiation: a basal cell whose lowest element has left the membrane.
    if (events.divisions > 0)
        m = group_by_cell(t);
    for (std::size_t c = 0; c < t.cells.size(); ++c) {
        Cell& cell = t.cells[c];
        if (cell.type == CellType::suprabasal)
            continue;
        double lowest = p.Lz;
        for (std::size_t k = m.offset[c]; k < m.offset[c + 1]; ++k) {
            lowest = std::min(lowest, t.elements.z[m.members[k]]);
        }
        if (lowest > p.basal_contact) {
            cell.type = CellType::suprabasal;
            ++events.differentiations;
        }
    }
    for (std::size_t c = 0; c < t.cells.size(); ++c) {
        const std::uint8_t adhesive = t.cells[c].adhesive() ? 1 : 0;
        for (std::size_t k = m.offset[c]; k < m.offset[c + 1]; ++k) {
            t.elements.adhesive[m.members[k]] = adhesive;
        }
    }
    return events;
}

} // namespace cellshift::sim
