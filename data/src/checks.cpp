#include "checks.hpp"

#include "cellshift/data/error.hpp"

#include <cmath>
#include <sstream>

namespace cellshift::data::checks {
namespace {

std::string describe(double v) {
    if (std::isnan(v)) {
        return "NaN";
    }
    if (std::isinf(v)) {
        return v > 0 ? "+Inf" : "-Inf";
    }
    std::ostringstream out;
    out << v;
    return out.str();
}

void check_value(const std::string& where, const std::string& element, double v, bool nonnegative) {
    if (!std::isfinite(v)) {
        fail(where, element + " is " + describe(v) + " (values must be finite)");
    }
    if (nonnegative && v < 0.0) {
        fail(where, element + " is negative (" + describe(v) + "); values must be >= 0");
    }
}

} // namespace

std::string shape(std::size_t rows, std::size_t cols) {
    return "[" + std::to_string(rows) + "," + std::to_string(cols) + "]";
}

void finite(const std::string& where, const std::string& name, const std::vector<double>& values,
            bool nonnegative) {
    for (std::size_t i = 0; i < values.size(); ++i) {
        if (!std::isfinite(values[i]) || (nonnegative && values[i] < 0.0)) {
            check_value(where, name + "[" + std::to_string(i) + "]", values[i], nonnegative);
        }
    }
}

void finite(const std::string& where, const std::string& name, const Matrix& values,
            bool nonnegative) {
    for (std::size_t r = 0; r < values.rows; ++r) {
        for (std::size_t c = 0; c < values.cols; ++c) {
            double v = values(r, c);
            if (!std::isfinite(v) || (nonnegative && v < 0.0)) {
                check_value(where, name + "[" + std::to_string(r) + "," + std::to_string(c) + "]",
                            v, nonnegative);
            }
        }
    }
}

void matrix_shape(const std::string& where, const std::string& name, std::size_t rows,
                  std::size_t cols, std::size_t want_rows, std::size_t want_cols) {
    if (rows != want_rows || cols != want_cols) {
        fail(where, "'" + name + "' has shape " + shape(rows, cols) + ", expected " +
                        shape(want_rows, want_cols));
    }
}

void vector_size(const std::string& where, const std::string& name, std::size_t size,
                 std::size_t want) {
    if (size != want) {
        fail(where, "'" + name + "' has shape [" + std::to_string(size) + "], expected [" +
                        std::to_string(want) + "]");
    }
}

} // namespace cellshift::data::checks
