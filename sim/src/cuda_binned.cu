// CUDA binned backend: the CPU binned algorithm as kernels. Each step: bin index
// per element, a stable radix sort of (bin, index) pairs (so within a bin the
// canonical id order survives), bin starts by binary search, a gather into sorted
// structure-of-arrays, then one thread per element gathers its 27 bins and applies
// the Euler update. No atomics anywhere in the force loop: every element's sum is
// formed by one thread in a fixed order, so results are deterministic.

#include "cuda_backends.hpp"
#include "cuda_buffers.cuh"

#include "cellshift/sim/bin_grid.hpp"
#include "cellshift/sim/sem_physics.hpp"

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>

#include <cstdint>

namespace cellshift::sim {

namespace {

constexpr int kThreads = 128;

__global__ void compute_bins(BinGrid grid, const double* x, const double* y, const double* z,
                             std::int32_t n, std::int32_t* bin, std::int32_t* index) {
    const std::int32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        bin[i] = grid.bin_of(x[i], y[i], z[i]);
        index[i] = i;
    }
}

// start[b] = first sorted position whose bin is >= b (b = 0..bins).
__global__ void bin_starts(const std::int32_t* sorted_bin, std::int32_t n, std::int32_t bins,
                           std::int32_t* start) {
    const std::int32_t b = blockIdx.x * blockDim.x + threadIdx.x;
    if (b > bins)
        return;
    std::int32_t lo = 0, hi = n;
    while (lo < hi) {
        const std::int32_t mid = lo + (hi - lo) / 2;
        if (sorted_bin[mid] < b)
            lo = mid + 1;
        else
            hi = mid;
    }
    start[b] = lo;
}

__global__ void gather_sorted(const std::int32_t* order, std::int32_t n, const double* x,
                              const double* y, const double* z, const std::int64_t* cell,
                              double* sx, double* sy, double* sz, std::int64_t* scell) {
    const std::int32_t s = blockIdx.x * blockDim.x + threadIdx.x;
    if (s < n) {
        const std::int32_t i = order[s];
        sx[s] = x[i];
        sy[s] = y[i];
        sz[s] = z[i];
        scell[s] = cell[i];
    }
}

struct StepArgs {
    BinGrid grid;
    SemPairEvaluator pair;
    ExternalEvaluator external;
    EulerIntegrator integrator;
    std::int64_t step;
    bool integrate; // true: move x, y, z; false: store forces in fx, fy, fz
};

__global__ void force_step(StepArgs a, std::int32_t n, const std::int32_t* order,
                           const std::int32_t* sorted_bin, const std::int32_t* start,
                           const double* sx, const double* sy, const double* sz,
                           const std::int64_t* scell, const std::uint8_t* adhesive,
                           const std::int64_t* id, double* x, double* y, double* z, double* fx_out,
                           double* fy_out, double* fz_out, long long* candidates,
                           long long* interactions) {
    const std::int32_t s = blockIdx.x * blockDim.x + threadIdx.x;
    if (s >= n)
        return;
    const BinGrid& g = a.grid;
    const int b = sorted_bin[s];
    const int bz = b % g.nz;
    const int by = (b / g.nz) % g.ny;
    const int bx = b / (g.nz * g.ny);
    const double xi = sx[s], yi = sy[s], zi = sz[s];
    const std::int64_t ci = scell[s];
    double fx = 0.0, fy = 0.0, fz = 0.0, energy = 0.0;
    long long cand = -1, inter = 0;
    const NeighbourColumns columns(a.pair.cutoff2);
    columns.for_each(g, start, xi, yi, zi, bx, by, bz, [&](std::int32_t j0, std::int32_t j1) {
        cand += j1 - j0;
        for (std::int32_t j = j0; j < j1; ++j) {
            if (j == s)
                continue;
            if (a.pair.accumulate(xi, yi, zi, ci, sx[j], sy[j], sz[j], scell[j], fx, fy, fz)) {
                ++inter;
            }
        }
    });
    const std::int32_t i = order[s];
    a.external.evaluate(xi, yi, zi, adhesive[i] != 0, fx, fy, fz, energy);
    candidates[i] += cand;
    interactions[i] += inter;
    if (a.integrate) {
        // Safe in place: the loop above reads only the sorted copies.
        double px = xi, py = yi, pz = zi;
        a.integrator.update(px, py, pz, fx, fy, fz, id[i], a.step);
        x[i] = px;
        y[i] = py;
        z[i] = pz;
    } else {
        fx_out[i] = fx;
        fy_out[i] = fy;
        fz_out[i] = fz;
    }
}

class CudaBinnedBackend final : public ForceBackend {
public:
    explicit CudaBinnedBackend(const SemParams& p)
        : grid_(p.Lx, p.Ly, p.Lz, p.effective_bin_edge()), pair_(p), external_(p), integrator_(p) {}

    std::string name() const override { return "cuda-binned"; }

    ForceStats compute_forces(const Elements& e, ForceField& f) override {
        upload(e);
        step(0, /*integrate=*/false);
        fx_.download(f.x);
        fy_.download(f.y);
        fz_.download(f.z);
        return stats();
    }

    ForceStats advance(Elements& e, std::int64_t first_step, int steps) override {
        upload(e);
        for (int k = 0; k < steps; ++k) {
            step(first_step + k, /*integrate=*/true);
        }
        x_.download(e.x);
        y_.download(e.y);
        z_.download(e.z);
        return stats();
    }

private:
    void upload(const Elements& e) {
        n_ = static_cast<std::int32_t>(e.size());
        x_.upload(e.x);
        y_.upload(e.y);
        z_.upload(e.z);
        id_.upload(e.id);
        cell_.upload(e.cell);
        adhesive_.upload(e.adhesive);
        for (auto* a : {&fx_, &fy_, &fz_, &sx_, &sy_, &sz_})
            a->resize(e.size());
        for (auto* a : {&bin_, &sorted_bin_, &index_, &order_})
            a->resize(e.size());
        scell_.resize(e.size());
        candidates_.resize(e.size());
        interactions_.resize(e.size());
        cuda::check(cudaMemset(candidates_.get(), 0, e.size() * sizeof(long long)), "memset");
        cuda::check(cudaMemset(interactions_.get(), 0, e.size() * sizeof(long long)), "memset");
        start_.resize(static_cast<std::size_t>(grid_.count()) + 1);
    }

    void step(std::int64_t step_number, bool integrate) {
        if (n_ == 0)
            return;
        const int blocks = cuda::blocks_for(static_cast<std::size_t>(n_), kThreads);
        compute_bins<<<blocks, kThreads>>>(grid_, x_.get(), y_.get(), z_.get(), n_, bin_.get(),
                                           index_.get());
        int end_bit = 1;
        while ((1 << end_bit) <= grid_.count())
            ++end_bit;
        std::size_t temp_bytes = 0;
        cub::DeviceRadixSort::SortPairs(nullptr, temp_bytes, bin_.get(), sorted_bin_.get(),
                                        index_.get(), order_.get(), n_, 0, end_bit);
        temp_.resize(temp_bytes);
        cub::DeviceRadixSort::SortPairs(temp_.get(), temp_bytes, bin_.get(), sorted_bin_.get(),
                                        index_.get(), order_.get(), n_, 0, end_bit);
        const std::int32_t bins = grid_.count();
        bin_starts<<<cuda::blocks_for(static_cast<std::size_t>(bins) + 1, kThreads), kThreads>>>(
            sorted_bin_.get(), n_, bins, start_.get());
        gather_sorted<<<blocks, kThreads>>>(order_.get(), n_, x_.get(), y_.get(), z_.get(),
                                            cell_.get(), sx_.get(), sy_.get(), sz_.get(),
                                            scell_.get());
        StepArgs args{grid_, pair_, external_, integrator_, step_number, integrate};
        force_step<<<blocks, kThreads>>>(
            args, n_, order_.get(), sorted_bin_.get(), start_.get(), sx_.get(), sy_.get(),
            sz_.get(), scell_.get(), adhesive_.get(), id_.get(), x_.get(), y_.get(), z_.get(),
            fx_.get(), fy_.get(), fz_.get(), candidates_.get(), interactions_.get());
        cuda::check(cudaGetLastError(), "force kernel launch");
    }

    ForceStats stats() {
        ForceStats s;
        if (n_ == 0)
            return s;
        sum_.resize(2);
        std::size_t temp_bytes = 0;
        cub::DeviceReduce::Sum(nullptr, temp_bytes, candidates_.get(), sum_.get(), n_);
        temp_.resize(temp_bytes);
        cub::DeviceReduce::Sum(temp_.get(), temp_bytes, candidates_.get(), sum_.get(), n_);
        cub::DeviceReduce::Sum(temp_.get(), temp_bytes, interactions_.get(), sum_.get() + 1, n_);
        std::vector<long long> host;
        sum_.download(host);
        s.candidates = host[0];
        s.interactions = host[1];
        return s;
    }

    BinGrid grid_;
    SemPairEvaluator pair_;
    ExternalEvaluator external_;
    EulerIntegrator integrator_;
    std::int32_t n_ = 0;
    cuda::DeviceArray<double> x_, y_, z_, fx_, fy_, fz_, sx_, sy_, sz_;
    cuda::DeviceArray<std::int64_t> id_, cell_, scell_;
    cuda::DeviceArray<std::uint8_t> adhesive_;
    cuda::DeviceArray<std::int32_t> bin_, sorted_bin_, index_, order_, start_;
    cuda::DeviceArray<long long> candidates_, interactions_, sum_;
    cuda::DeviceArray<unsigned char> temp_;
};

} // namespace

std::unique_ptr<ForceBackend> make_cuda_binned_backend(const SemParams& params) {
    return std::make_unique<CudaBinnedBackend>(params);
}

} // namespace cellshift::sim
