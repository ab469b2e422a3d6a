#pragma once
// Small RAII helpers shared by the CUDA backends: checked calls and a device array
// that grows but never shrinks (elements are added over a run).

#include <cuda_runtime.h>

#include <cstddef>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace cellshift::sim::cuda {

inline void check(cudaError_t status, const char* what) {
    if (status != cudaSuccess) {
        throw std::runtime_error(std::string("CUDA: ") + what + ": " + cudaGetErrorString(status));
    }
}

template <typename T>
class DeviceArray {
public:
    DeviceArray() = default;
    DeviceArray(const DeviceArray&) = delete;
    DeviceArray& operator=(const DeviceArray&) = delete;
    ~DeviceArray() { cudaFree(data_); }

    void resize(std::size_t n) {
        if (n > capacity_) {
            cudaFree(data_);
            data_ = nullptr;
            check(cudaMalloc(reinterpret_cast<void**>(&data_), n * sizeof(T)), "cudaMalloc");
            capacity_ = n;
        }
        size_ = n;
    }
    void upload(const std::vector<T>& host) {
        resize(host.size());
        if (!host.empty()) {
            check(cudaMemcpy(data_, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice),
                  "upload");
        }
    }
    void download(std::vector<T>& host) const {
        host.resize(size_);
        if (size_ > 0) {
            check(cudaMemcpy(host.data(), data_, size_ * sizeof(T), cudaMemcpyDeviceToHost),
                  "download");
        }
    }
    friend void swap(DeviceArray& a, DeviceArray& b) noexcept {
        std::swap(a.data_, b.data_);
        std::swap(a.size_, b.size_);
        std::swap(a.capacity_, b.capacity_);
    }
    T* get() { return data_; }
    const T* get() const { return data_; }
    std::size_t size() const { return size_; }

private:
    T* data_ = nullptr;
    std::size_t size_ = 0;
    std::size_t capacity_ = 0;
};

inline int blocks_for(std::size_t n, int threads) {
    return static_cast<int>((n + static_cast<std::size_t>(threads) - 1) / threads);
}

} // namespace cellshift::sim::cuda
