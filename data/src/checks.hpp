#pragma once
// Internal: value checks shared by the validators of every format. Each throws
// cellshift::data::Error("<where>: <problem>") naming the offending element.

#include "cellshift/data/array2d.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace cellshift::data::checks {

std::string shape(std::size_t rows, std::size_t cols);

// `values` of `name` must be finite (and >= 0 when nonnegative is set).
void finite(const std::string& where, const std::string& name, const std::vector<double>& values,
            bool nonnegative = false);
void finite(const std::string& where, const std::string& name, const Matrix& values,
            bool nonnegative = false);

void matrix_shape(const std::string& where, const std::string& name, std::size_t rows,
                  std::size_t cols, std::size_t want_rows, std::size_t want_cols);
void vector_size(const std::string& where, const std::string& name, std::size_t size,
                 std::size_t want);

} // namespace cellshift::data::checks
