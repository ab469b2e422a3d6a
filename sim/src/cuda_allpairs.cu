// CUDA all-pairs backend: the O(n^2) gather, one thread per element, partners
// streamed through shared memory in tiles, in index (= id) order. The GPU
// reference for cuda-binned, as cpu-allpairs is for cpu-binned.

#include "cuda_backends.hpp"
#include "cuda_buffers.cuh"

#include "cellshift/sim/sem_physics.hpp"

#include <cub/device/device_reduce.cuh>

#include <cstdint>

namespace cellshift::sim {

bool cuda_backends_compiled() {
    return true;
}

namespace {

constexpr int kTile = 128;

struct AllPairsArgs {
    SemPairEvaluator pair;
    ExternalEvaluator external;
    EulerIntegrator integrator;
    std::int64_t step;
    bool integrate;
};

__global__ void allpairs_step(AllPairsArgs a, std::int32_t n, const double* x, const double* y,
                              const double* z, const std::int64_t* cell,
                              const std::uint8_t* adhesive, const std::int64_t* id, double* out_x,
                              double* out_y, double* out_z, long long* interactions) {
    __shared__ double tx[kTile], ty[kTile], tz[kTile];
    __shared__ std::int64_t tc[kTile];
    const std::int32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    const bool active = i < n;
    const double xi = active ? x[i] : 0.0;
    const double yi = active ? y[i] : 0.0;
    const double zi = active ? z[i] : 0.0;
    const std::int64_t ci = active ? cell[i] : -1;
    double fx = 0.0, fy = 0.0, fz = 0.0, energy = 0.0;
    long long inter = 0;
    for (std::int32_t base = 0; base < n; base += kTile) {
        const std::int32_t j = base + static_cast<std::int32_t>(threadIdx.x);
        if (j < n) {
            tx[threadIdx.x] = x[j];
            ty[threadIdx.x] = y[j];
            tz[threadIdx.x] = z[j];
            tc[threadIdx.x] = cell[j];
        }
        __syncthreads();
        const std::int32_t tile = n - base < kTile ? n - base : kTile;
        if (active) {
            for (std::int32_t k = 0; k < tile; ++k) {
                if (base + k == i)
                    continue;
                if (a.pair.accumulate(xi, yi, zi, ci, tx[k], ty[k], tz[k], tc[k], fx, fy, fz)) {
                    ++inter;
                }
            }
        }
        __syncthreads();
    }
    if (!active)
        return;
    a.external.evaluate(xi, yi, zi, adhesive[i] != 0, fx, fy, fz, energy);
    interactions[i] += inter;
    if (a.integrate) {
        double px = xi, py = yi, pz = zi;
        a.integrator.update(px, py, pz, fx, fy, fz, id[i], a.step);
        out_x[i] = px;
        out_y[i] = py;
        out_z[i] = pz;
    } else {
        out_x[i] = fx;
        out_y[i] = fy;
        out_z[i] = fz;
    }
}

class CudaAllPairsBackend final : public ForceBackend {
public:
    explicit CudaAllPairsBackend(const SemParams& p) : pair_(p), external_(p), integrator_(p) {}

    std::string name() const override { return "cuda-allpairs"; }

    ForceStats compute_forces(const Elements& e, ForceField& f) override {
        upload(e);
        launch(0, false);
        ox_.download(f.x);
        oy_.download(f.y);
        oz_.download(f.z);
        return stats(1);
    }

    ForceStats advance(Elements& e, std::int64_t first_step, int steps) override {
        upload(e);
        for (int k = 0; k < steps; ++k) {
            launch(first_step + k, true);
            swap(x_, ox_); // new positions become current
            swap(y_, oy_);
            swap(z_, oz_);
        }
        x_.download(e.x);
        y_.download(e.y);
        z_.download(e.z);
        return stats(steps);
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
        ox_.resize(e.size());
        oy_.resize(e.size());
        oz_.resize(e.size());
        interactions_.resize(e.size());
        cuda::check(cudaMemset(interactions_.get(), 0, e.size() * sizeof(long long)), "memset");
    }

    void launch(std::int64_t step, bool integrate) {
        if (n_ == 0)
            return;
        AllPairsArgs args{pair_, external_, integrator_, step, integrate};
        allpairs_step<<<cuda::blocks_for(static_cast<std::size_t>(n_), kTile), kTile>>>(
            args, n_, x_.get(), y_.get(), z_.get(), cell_.get(), adhesive_.get(), id_.get(),
            ox_.get(), oy_.get(), oz_.get(), interactions_.get());
        cuda::check(cudaGetLastError(), "all-pairs kernel launch");
    }

    ForceStats stats(int steps) {
        ForceStats s;
        if (n_ == 0)
            return s;
        s.candidates = static_cast<std::int64_t>(n_) * (n_ - 1) * steps;
        sum_.resize(1);
        std::size_t temp_bytes = 0;
        cub::DeviceReduce::Sum(nullptr, temp_bytes, interactions_.get(), sum_.get(), n_);
        temp_.resize(temp_bytes);
        cub::DeviceReduce::Sum(temp_.get(), temp_bytes, interactions_.get(), sum_.get(), n_);
        std::vector<long long> host;
        sum_.download(host);
        s.interactions = host[0];
        return s;
    }

    SemPairEvaluator pair_;
    ExternalEvaluator external_;
    EulerIntegrator integrator_;
    std::int32_t n_ = 0;
    cuda::DeviceArray<double> x_, y_, z_, ox_, oy_, oz_;
    cuda::DeviceArray<std::int64_t> id_, cell_;
    cuda::DeviceArray<std::uint8_t> adhesive_;
    cuda::DeviceArray<long long> interactions_, sum_;
    cuda::DeviceArray<unsigned char> temp_;
};

} // namespace

std::unique_ptr<ForceBackend> make_cuda_allpairs_backend(const SemParams& params) {
    return std::make_unique<CudaAllPairsBackend>(params);
}

} // namespace cellshift::sim
