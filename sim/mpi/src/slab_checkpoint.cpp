// SlabSimulation: gathering the tissue to rank 0, writing a checkpoint, and
// restarting from one (the balancer's state and history included).
#include "cellshift/sim/slab_simulation.hpp"

#include "cellshift/sim/mpi_helpers.hpp"

#include <algorithm>
#include <map>

namespace cellshift::sim {

namespace {

// Tissue of the cells a checkpoint assigns to `rank`.
Tissue tissue_from_checkpoint(const data::Checkpoint& c, int rank) {
    Tissue t;
    t.step = c.step;
    t.time = c.time;
    t.next_cell_id = c.next_cell_id;
    std::vector<std::uint8_t> mine(c.cell_id.size(), 0);
    for (std::size_t k = 0; k < c.cell_id.size(); ++k) {
        if (c.cell_owner[k] != rank)
            continue;
        mine[k] = 1;
        Cell cell;
        cell.id = c.cell_id[k];
        cell.type = static_cast<CellType>(c.cell_type[k]);
        cell.generation = static_cast<std::int32_t>(c.cell_generation[k]);
        cell.age = c.cell_age[k];
        cell.cycle_time = c.cell_cycle_time[k];
        cell.growth_credit = c.cell_growth_credit[k];
        cell.next_serial = c.cell_next_serial[k];
        cell.elements = static_cast<std::int32_t>(c.cell_elements[k]);
        t.cells.push_back(cell);
    }
    for (std::size_t i = 0; i < c.element_id.size(); ++i) {
        const auto k = static_cast<std::size_t>(
            std::lower_bound(c.cell_id.begin(), c.cell_id.end(), c.element_cell[i]) -
            c.cell_id.begin());
        if (mine[k])
            t.elements.push_back(c.positions(i, 0), c.positions(i, 1), c.positions(i, 2),
                                 c.element_id[i], c.element_cell[i], c.element_adhesive[i] != 0);
    }
    return t;
}

const std::vector<double>& state_of(const data::NamedArrays& arrays, const std::string& name,
                                    std::size_t size) {
    const auto it = arrays.find(name);
    if (it == arrays.end() || it->second.size() != size)
        throw std::invalid_argument("checkpoint: balancer state '" + name +
                                    "' is missing or has the wrong size");
    return it->second;
}

} // namespace

// Collective: the state of a checkpoint written by the same configuration and
// rank count (the constructor checked both).
void SlabSimulation::restore(const data::Checkpoint& c) {
    const controller::Layout layout{balance_.slabs, size_, balance_.w_min};
    mpi::agree(comm_, [&] {
        tissue_ = tissue_from_checkpoint(c, rank_);
        const auto& b = state_of(c.policy_state, "boundaries", static_cast<std::size_t>(size_) + 1);
        boundaries_.assign(b.begin(), b.end());
        policy_->reset(layout, boundaries_);
        policy_->restore_state(c.policy_state);
        interval_time_ =
            state_of(c.balancer_state, "interval_time", static_cast<std::size_t>(size_))[rank_];
        if (rank_ == 0) {
            growth_events_ = state_of(c.balancer_state, "growth_events", growth_events_.size());
            const auto& t = state_of(c.balancer_state, "totals", 12);
            totals_.model = {t[0], t[1], t[2]};
            totals_.measured = {t[3], t[4], t[5]};
            totals_.steps = static_cast<std::int64_t>(t[6]);
            totals_.ghosts = static_cast<std::int64_t>(t[7]);
            totals_.divisions = static_cast<std::int64_t>(t[8]);
            totals_.elements_added = static_cast<std::int64_t>(t[9]);
            totals_.differentiations = static_cast<std::int64_t>(t[10]);
            totals_.interactions = static_cast<std::int64_t>(t[11]);
            const auto& steps = c.balancer_state.count("history/step")
                                    ? c.balancer_state.at("history/step")
                                    : std::vector<double>{};
            const std::size_t E = steps.size();
            const std::size_t P = static_cast<std::size_t>(size_);
            const auto& rt = state_of(c.balancer_state, "history/rank_time", E * P);
            const auto& bd = state_of(c.balancer_state, "history/boundaries", E * (P + 1));
            const auto& el = state_of(c.balancer_state, "history/elements", E * P);
            const auto& sc = state_of(c.balancer_state, "history/scalars", E * 4);
            for (std::size_t e = 0; e < E; ++e) {
                BalanceEvent ev;
                ev.step = static_cast<std::int64_t>(steps[e]);
                ev.rank_time.assign(rt.begin() + static_cast<std::ptrdiff_t>(e * P),
                                    rt.begin() + static_cast<std::ptrdiff_t>((e + 1) * P));
                for (std::size_t k = 0; k <= P; ++k)
                    ev.boundaries.push_back(static_cast<std::int64_t>(bd[e * (P + 1) + k]));
                for (std::size_t k = 0; k < P; ++k)
                    ev.elements.push_back(static_cast<std::int64_t>(el[e * P + k]));
                ev.imbalance = sc[e * 4];
                ev.migrated_slices = static_cast<std::int64_t>(sc[e * 4 + 1]);
                ev.migrated_elements = static_cast<std::int64_t>(sc[e * 4 + 2]);
                ev.limited = static_cast<std::int64_t>(sc[e * 4 + 3]);
                events_.push_back(std::move(ev));
            }
        }
    });
}

Tissue SlabSimulation::gather(std::vector<int>* owners) const {
    const std::vector<std::vector<char>> parts =
        mpi::gather_bytes(comm_, pack_all_cells(tissue_), 0);
    Tissue whole;
    whole.step = tissue_.step;
    whole.time = tissue_.time;
    whole.next_cell_id = tissue_.next_cell_id;
    if (rank_ != 0)
        return whole;
    std::map<std::int64_t, int> owner_of;
    for (std::size_t p = 0; p < parts.size(); ++p) {
        Tissue part;
        unpack_cells(part, parts[p].data(), parts[p].size());
        for (const Cell& c : part.cells)
            owner_of[c.id] = static_cast<int>(p);
        unpack_cells(whole, parts[p].data(), parts[p].size());
    }
    if (owners != nullptr) {
        owners->clear();
        for (const Cell& c : whole.cells)
            owners->push_back(owner_of.at(c.id));
    }
    return whole;
}

data::Checkpoint SlabSimulation::checkpoint() const {
    std::vector<int> owners;
    const Tissue whole = gather(&owners);
    const auto P = static_cast<std::size_t>(size_);
    std::vector<double> interval(P);
    MPI_Gather(&interval_time_, 1, MPI_DOUBLE, interval.data(), 1, MPI_DOUBLE, 0, comm_);
    std::vector<double> growth(growth_events_.size(), 0.0);
    MPI_Reduce(growth_events_.data(), growth.data(), static_cast<int>(growth.size()), MPI_DOUBLE,
               MPI_SUM, 0, comm_);
    data::Checkpoint c;
    if (rank_ != 0)
        return c;
    c.step = whole.step;
    c.time = whole.time;
    c.next_cell_id = whole.next_cell_id;
    const Elements& e = whole.elements;
    c.positions = data::Matrix(e.size(), 3);
    for (std::size_t i = 0; i < e.size(); ++i) {
        c.positions(i, 0) = e.x[i];
        c.positions(i, 1) = e.y[i];
        c.positions(i, 2) = e.z[i];
        c.element_adhesive.push_back(e.adhesive[i]);
    }
    c.element_id = e.id;
    c.element_cell = e.cell;
    for (std::size_t k = 0; k < whole.cells.size(); ++k) {
        const Cell& cell = whole.cells[k];
        c.cell_id.push_back(cell.id);
        c.cell_type.push_back(static_cast<std::int64_t>(cell.type));
        c.cell_generation.push_back(cell.generation);
        c.cell_next_serial.push_back(cell.next_serial);
        c.cell_elements.push_back(cell.elements);
        c.cell_owner.push_back(owners[k]);
        c.cell_age.push_back(cell.age);
        c.cell_cycle_time.push_back(cell.cycle_time);
        c.cell_growth_credit.push_back(cell.growth_credit);
    }
    c.ranks = size_;
    c.slices = balance_.slabs;
    c.policy = balance_.policy;
    c.configuration = configuration_;
    c.policy_state = policy_->save_state();
    auto& b = c.balancer_state;
    b["interval_time"] = interval;
    b["growth_events"] = growth;
    const BalanceTotals& t = totals_;
    b["totals"] = {t.model.runtime,
                   t.model.mean,
                   t.model.migration,
                   t.measured.runtime,
                   t.measured.mean,
                   t.measured.migration,
                   static_cast<double>(t.steps),
                   static_cast<double>(t.ghosts),
                   static_cast<double>(t.divisions),
                   static_cast<double>(t.elements_added),
                   static_cast<double>(t.differentiations),
                   static_cast<double>(t.interactions)};
    auto& steps = b["history/step"];
    auto& rt = b["history/rank_time"];
    auto& bd = b["history/boundaries"];
    auto& el = b["history/elements"];
    auto& sc = b["history/scalars"];
    for (const BalanceEvent& ev : events_) {
        steps.push_back(static_cast<double>(ev.step));
        rt.insert(rt.end(), ev.rank_time.begin(), ev.rank_time.end());
        bd.insert(bd.end(), ev.boundaries.begin(), ev.boundaries.end());
        el.insert(el.end(), ev.elements.begin(), ev.elements.end());
        sc.insert(sc.end(),
                  {ev.imbalance, static_cast<double>(ev.migrated_slices),
                   static_cast<double>(ev.migrated_elements), static_cast<double>(ev.limited)});
    }
    return c;
}

} // namespace cellshift::sim
