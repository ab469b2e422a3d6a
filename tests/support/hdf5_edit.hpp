#pragma once
// Test-only surgery on HDF5 files, to produce the damaged inputs the readers
// must reject (a wrong version, a missing dataset, a wrong dtype or shape).

#include <cstdint>
#include <string>
#include <vector>

namespace cellshift::test {

void set_int_attribute(const std::string& file, const std::string& object, const std::string& name,
                       std::int64_t value);
void set_string_attribute(const std::string& file, const std::string& object,
                          const std::string& name, const std::string& value);
void delete_attribute(const std::string& file, const std::string& object, const std::string& name);
void delete_object(const std::string& file, const std::string& name);
// Replaces dataset `name` by one of the given shape filled with `value`.
void replace_with_doubles(const std::string& file, const std::string& name,
                          const std::vector<unsigned long long>& dims, double value);
void replace_with_ints(const std::string& file, const std::string& name,
                       const std::vector<unsigned long long>& dims, std::int64_t value);
// Sets one element (flat index) of an existing float dataset.
void set_double_element(const std::string& file, const std::string& name, std::size_t index,
                        double value);

} // namespace cellshift::test
