#pragma once
// A plain row-major 2-D array: the in-memory form of every [rows, cols] dataset.
// Kept free of Eigen so that the data layer depends on HDF5 and the standard
// library only; callers map it with Eigen::Map when they need linear algebra.

#include <cstddef>
#include <cstdint>
#include <vector>

namespace cellshift::data {

template <typename T>
struct Array2D {
    std::size_t rows = 0;
    std::size_t cols = 0;
    std::vector<T> values; // row-major, size rows * cols

    Array2D() = default;
    Array2D(std::size_t r, std::size_t c, T fill = T{}) : rows(r), cols(c), values(r * c, fill) {}

    T& operator()(std::size_t r, std::size_t c) { return values[r * cols + c]; }
    const T& operator()(std::size_t r, std::size_t c) const { return values[r * cols + c]; }
    T* row(std::size_t r) { return values.data() + r * cols; }
    const T* row(std::size_t r) const { return values.data() + r * cols; }
    bool empty() const { return values.empty(); }

    friend bool operator==(const Array2D& a, const Array2D& b) {
        return a.rows == b.rows && a.cols == b.cols && a.values == b.values;
    }
    friend bool operator!=(const Array2D& a, const Array2D& b) { return !(a == b); }
};

using Matrix = Array2D<double>;
using IntMatrix = Array2D<std::int64_t>;

} // namespace cellshift::data
