#pragma once
// The GPU backends, written once on Thrust and compiled for two device systems
// (docs/simulator.md, "One source, two device systems"): by nvcc for CUDA
// (cuda_system.cu: cuda-binned, cuda-allpairs) and by the host compiler for
// Thrust's OpenMP system (omp_system.cpp: thrust-omp-binned, thrust-omp-allpairs),
// so every line below also runs in CI on machines without a GPU, where it is
// tested against the CPU backends.
//
// A System supplies `template <class T> using vector`, `policy()` and `prefix`; each
// translation unit defines its System in an anonymous namespace, so the backends it
// instantiates are its own (the two device systems' code never meets at link time).
//
// Binned step: bin index per element; stable sort of (bin, index) so the canonical
// id order survives within a bin; bin starts by vectorised binary search; gather
// into sorted structure-of-arrays; one work item per element sums its neighbour
// columns in the same order as cpu-binned, then the fused Euler step. No atomics:
// every element's force is formed by one work item in a fixed order, so results do
// not depend on the device, thread count or schedule.

#include "cellshift/sim/bin_grid.hpp"
#include "cellshift/sim/force_backend.hpp"
#include "cellshift/sim/sem_physics.hpp"

#include <thrust/binary_search.h>
#include <thrust/copy.h>
#include <thrust/fill.h>
#include <thrust/for_each.h>
#include <thrust/gather.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/reduce.h>
#include <thrust/sort.h>

#include <cstdint>
#include <string>
#include <vector>

namespace cellshift::sim::portable {

template <typename T, typename Vector>
void upload(const std::vector<T>& host, Vector& device) {
    device.assign(host.begin(), host.end());
}

template <typename T, typename Vector>
void download(const Vector& device, std::size_t n, std::vector<T>& host) {
    host.resize(n);
    thrust::copy(device.begin(), device.begin() + static_cast<std::ptrdiff_t>(n), host.begin());
}

template <typename T, typename Vector>
T* raw(Vector& v) {
    return thrust::raw_pointer_cast(v.data());
}

// The device-resident state both algorithms share: element arrays, the ghost mask
// and per-work-item pair counters (summed once, when stats are read).
template <typename System>
struct DeviceElements {
    template <typename T>
    using vector = typename System::template vector<T>;

    std::int32_t n = 0;
    vector<double> x, y, z;
    vector<std::int64_t> id, cell;
    vector<std::uint8_t> adhesive, active;
    vector<long long> candidates, interactions;

    void upload_from(const Elements& e, const std::vector<std::uint8_t>* mask) {
        n = static_cast<std::int32_t>(e.size());
        upload(e.x, x);
        upload(e.y, y);
        upload(e.z, z);
        upload(e.id, id);
        upload(e.cell, cell);
        upload(e.adhesive, adhesive);
        if (mask != nullptr)
            upload(*mask, active);
        else
            active.assign(e.size(), std::uint8_t{1});
        candidates.assign(e.size(), 0LL);
        interactions.assign(e.size(), 0LL);
    }

    ForceStats stats() {
        ForceStats s;
        s.candidates = thrust::reduce(System::policy(), candidates.begin(), candidates.end(), 0LL);
        s.interactions =
            thrust::reduce(System::policy(), interactions.begin(), interactions.end(), 0LL);
        return s;
    }
};

// What one step does with an element's total force: store it (compute_forces) or
// take the Euler step (advance).
struct ForceSink {
    EulerIntegrator integrator;
    std::int64_t step = 0;
    bool integrate = false;
    double *x, *y, *z;    // positions, updated when integrating
    double *fx, *fy, *fz; // forces, written otherwise

    CELLSHIFT_HD void finish(std::int32_t i, std::int64_t id, double xi, double yi, double zi,
                             double f_x, double f_y, double f_z) const {
        if (integrate) {
            integrator.update(xi, yi, zi, f_x, f_y, f_z, id, step);
            x[i] = xi;
            y[i] = yi;
            z[i] = zi;
        } else {
            fx[i] = f_x;
            fy[i] = f_y;
            fz[i] = f_z;
        }
    }
};

struct BinOf {
    BinGrid grid;
    const double *x, *y, *z;
    std::int32_t* bin;
    std::int32_t* index;
    CELLSHIFT_HD void operator()(std::int32_t i) const {
        bin[i] = grid.bin_of(x[i], y[i], z[i]);
        index[i] = i;
    }
};

// One work item per sorted position s: its element's force from the neighbour
// columns, in the order cpu-binned uses.
struct BinnedForce {
    BinGrid grid;
    SemPairEvaluator pair;
    ExternalEvaluator external;
    ForceSink sink;
    const std::int32_t *order, *sorted_bin, *start;
    const double *sx, *sy, *sz;
    const std::int64_t *scell, *id;
    const std::uint8_t *adhesive, *active;
    long long *candidates, *interactions;

    CELLSHIFT_HD void operator()(std::int32_t s) const {
        const std::int32_t i = order[s];
        if (active[i] == 0)
            return; // a ghost: partner only
        const int b = sorted_bin[s];
        int bx = 0, by = 0, bz = 0;
        grid.coordinates(b, bx, by, bz);
        const double xi = sx[s], yi = sy[s], zi = sz[s];
        const std::int64_t ci = scell[s];
        double fx = 0.0, fy = 0.0, fz = 0.0, energy = 0.0;
        long long cand = -1, inter = 0; // -1: the element itself
        const NeighbourColumns columns(pair.cutoff2);
        columns.for_each(grid, start, xi, yi, zi, bx, by, bz,
                         [&](std::int32_t j0, std::int32_t j1) {
                             cand += j1 - j0;
                             for (std::int32_t j = j0; j < j1; ++j) {
                                 if (j != s && pair.accumulate(xi, yi, zi, ci, sx[j], sy[j], sz[j],
                                                               scell[j], fx, fy, fz))
                                     ++inter;
                             }
                         });
        external.evaluate(xi, yi, zi, adhesive[i] != 0, fx, fy, fz, energy);
        candidates[s] += cand;
        interactions[s] += inter;
        // In place is safe: every work item reads only the sorted copies.
        sink.finish(i, id[i], xi, yi, zi, fx, fy, fz);
    }
};

// One work item per element: every other element in index (= id) order, as
// cpu-allpairs. Reads the `x, y, z` copies, writes through the sink.
struct AllPairsForce {
    SemPairEvaluator pair;
    ExternalEvaluator external;
    ForceSink sink;
    std::int32_t n;
    const double *x, *y, *z;
    const std::int64_t *cell, *id;
    const std::uint8_t *adhesive, *active;
    long long *candidates, *interactions;

    CELLSHIFT_HD void operator()(std::int32_t i) const {
        if (active[i] == 0)
            return;
        const double xi = x[i], yi = y[i], zi = z[i];
        const std::int64_t ci = cell[i];
        double fx = 0.0, fy = 0.0, fz = 0.0, energy = 0.0;
        long long inter = 0;
        for (std::int32_t j = 0; j < n; ++j) {
            if (j != i && pair.accumulate(xi, yi, zi, ci, x[j], y[j], z[j], cell[j], fx, fy, fz))
                ++inter;
        }
        external.evaluate(xi, yi, zi, adhesive[i] != 0, fx, fy, fz, energy);
        candidates[i] += n - 1;
        interactions[i] += inter;
        sink.finish(i, id[i], xi, yi, zi, fx, fy, fz);
    }
};

// The lifecycle both algorithms share: upload once per call, `steps` device steps,
// download the result. Subclasses supply one step.
template <typename System>
class PortableBackend : public ForceBackend {
public:
    PortableBackend(const SemParams& p, std::string name)
        : pair_(p), external_(p), integrator_(p), name_(std::move(name)) {}

    std::string name() const override { return name_; }

    ForceStats compute_forces(const Elements& e, ForceField& f) override {
        d_.upload_from(e, active_);
        resize_outputs();
        if (d_.n > 0)
            step(sink(0, false));
        download(fx_, e.size(), f.x);
        download(fy_, e.size(), f.y);
        download(fz_, e.size(), f.z);
        return d_.stats();
    }

    ForceStats advance(Elements& e, std::int64_t first_step, int steps) override {
        d_.upload_from(e, active_);
        resize_outputs();
        for (int k = 0; d_.n > 0 && k < steps; ++k)
            step(sink(first_step + k, true));
        download(d_.x, e.size(), e.x);
        download(d_.y, e.size(), e.y);
        download(d_.z, e.size(), e.z);
        return d_.stats();
    }

protected:
    template <typename T>
    using vector = typename System::template vector<T>;

    virtual void step(const ForceSink& sink) = 0;
    auto policy() const { return System::policy(); }
    thrust::counting_iterator<std::int32_t> first() const {
        return thrust::counting_iterator<std::int32_t>(0);
    }
    thrust::counting_iterator<std::int32_t> last() const {
        return thrust::counting_iterator<std::int32_t>(d_.n);
    }

    SemPairEvaluator pair_;
    ExternalEvaluator external_;
    EulerIntegrator integrator_;
    DeviceElements<System> d_;
    vector<double> fx_, fy_, fz_;

private:
    void resize_outputs() {
        for (auto* v : {&fx_, &fy_, &fz_})
            v->resize(static_cast<std::size_t>(d_.n));
    }
    ForceSink sink(std::int64_t step, bool integrate) {
        return ForceSink{integrator_,       step,
                         integrate,         raw<double>(d_.x),
                         raw<double>(d_.y), raw<double>(d_.z),
                         raw<double>(fx_),  raw<double>(fy_),
                         raw<double>(fz_)};
    }

    std::string name_;
};

template <typename System>
class PortableBinnedBackend final : public PortableBackend<System> {
    using Base = PortableBackend<System>;

public:
    explicit PortableBinnedBackend(const SemParams& p)
        : Base(p, std::string(System::prefix) + "-binned"),
          grid_(p.Lx, p.Ly, p.Lz, p.effective_bin_edge()) {}

private:
    void step(const ForceSink& sink) override {
        auto& d = this->d_;
        const auto n = static_cast<std::size_t>(d.n);
        for (auto* v : {&bin_, &index_, &start_})
            v->resize(n);
        start_.resize(static_cast<std::size_t>(grid_.count()) + 1);
        for (auto* v : {&sx_, &sy_, &sz_})
            v->resize(n);
        scell_.resize(n);
        thrust::for_each(this->policy(), this->first(), this->last(),
                         BinOf{grid_, raw<double>(d.x), raw<double>(d.y), raw<double>(d.z),
                               raw<std::int32_t>(bin_), raw<std::int32_t>(index_)});
        // After the sort, bin_ holds sorted bins and index_ the element order.
        thrust::stable_sort_by_key(this->policy(), bin_.begin(), bin_.end(), index_.begin());
        thrust::lower_bound(
            this->policy(), bin_.begin(), bin_.end(), thrust::counting_iterator<std::int32_t>(0),
            thrust::counting_iterator<std::int32_t>(grid_.count() + 1), start_.begin());
        thrust::gather(this->policy(), index_.begin(), index_.end(), d.x.begin(), sx_.begin());
        thrust::gather(this->policy(), index_.begin(), index_.end(), d.y.begin(), sy_.begin());
        thrust::gather(this->policy(), index_.begin(), index_.end(), d.z.begin(), sz_.begin());
        thrust::gather(this->policy(), index_.begin(), index_.end(), d.cell.begin(),
                       scell_.begin());
        thrust::for_each(this->policy(), this->first(), this->last(),
                         BinnedForce{grid_, this->pair_, this->external_, sink,
                                     raw<std::int32_t>(index_), raw<std::int32_t>(bin_),
                                     raw<std::int32_t>(start_), raw<double>(sx_), raw<double>(sy_),
                                     raw<double>(sz_), raw<std::int64_t>(scell_),
                                     raw<std::int64_t>(d.id), raw<std::uint8_t>(d.adhesive),
                                     raw<std::uint8_t>(d.active), raw<long long>(d.candidates),
                                     raw<long long>(d.interactions)});
    }

    template <typename T>
    using vector = typename System::template vector<T>;
    BinGrid grid_;
    vector<std::int32_t> bin_, index_, start_;
    vector<double> sx_, sy_, sz_;
    vector<std::int64_t> scell_;
};

template <typename System>
class PortableAllPairsBackend final : public PortableBackend<System> {
    using Base = PortableBackend<System>;

public:
    explicit PortableAllPairsBackend(const SemParams& p)
        : Base(p, std::string(System::prefix) + "-allpairs") {}

private:
    void step(const ForceSink& sink) override {
        auto& d = this->d_;
        // The work items read a copy: with the Euler step fused, positions change
        // while other items still need the old ones.
        x0_ = d.x;
        y0_ = d.y;
        z0_ = d.z;
        thrust::for_each(this->policy(), this->first(), this->last(),
                         AllPairsForce{this->pair_, this->external_, sink, d.n, raw<double>(x0_),
                                       raw<double>(y0_), raw<double>(z0_),
                                       raw<std::int64_t>(d.cell), raw<std::int64_t>(d.id),
                                       raw<std::uint8_t>(d.adhesive), raw<std::uint8_t>(d.active),
                                       raw<long long>(d.candidates),
                                       raw<long long>(d.interactions)});
    }

    template <typename T>
    using vector = typename System::template vector<T>;
    vector<double> x0_, y0_, z0_;
};

} // namespace cellshift::sim::portable
