#pragma once
// Internal: the only place that talks to the HDF5 C API. Every call is checked,
// HDF5's own error printer is silenced, and failures become one-line
// cellshift::data::Error messages that name the file, the object and the problem.

#include "cellshift/data/array2d.hpp"

#include <hdf5.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace cellshift::data::h5 {

// Owns one HDF5 identifier and closes it with the matching H5?close.
class Handle {
public:
    using Closer = herr_t (*)(hid_t);
    Handle() = default;
    Handle(hid_t id, Closer closer) : id_(id), closer_(closer) {}
    Handle(const Handle&) = delete;
    Handle& operator=(const Handle&) = delete;
    Handle(Handle&& other) noexcept : id_(other.id_), closer_(other.closer_) { other.id_ = -1; }
    Handle& operator=(Handle&& other) noexcept;
    ~Handle() { reset(); }
    hid_t get() const { return id_; }
    bool valid() const { return id_ >= 0; }
    // Closes now and reports whether HDF5 accepted the close (a failed close of a
    // file means its data did not reach the disk).
    bool close();

private:
    void reset();
    hid_t id_ = -1;
    Closer closer_ = nullptr;
};

// Turns off the HDF5 error stack printer for the whole process (idempotent).
void silence_hdf5_errors();

// The innermost message on the HDF5 error stack, e.g. "No space left on device".
std::string last_hdf5_error();

// Reading side: opens `path`, checks the root attributes `format` and
// `format_version`, then hands out validated datasets and attributes.
class Reader {
public:
    // Opens any HDF5 file (missing file, not HDF5 and corrupt files fail here).
    explicit Reader(const std::string& path);
    // ... and checks that it is a cellshift file of `expected_format`.
    Reader(const std::string& path, const std::string& expected_format, int supported_version);

    const std::string& path() const { return path_; }
    [[noreturn]] void fail(const std::string& problem) const;

    bool has_object(const std::string& name) const;
    bool has_attribute(const std::string& object, const std::string& name) const;

    // Datasets: exact rank, float class for real data, integer class for integers.
    Matrix matrix(const std::string& name) const;
    std::vector<double> vector(const std::string& name) const;
    IntMatrix int_matrix(const std::string& name) const;
    std::vector<std::int64_t> int_vector(const std::string& name) const;

    // Attributes of `object` ("/" for the root, or a group path).
    std::string string_attribute(const std::string& object, const std::string& name) const;
    std::vector<std::string> string_list_attribute(const std::string& object,
                                                   const std::string& name) const;
    double double_attribute(const std::string& object, const std::string& name) const;
    std::int64_t int_attribute(const std::string& object, const std::string& name) const;
    std::uint64_t uint_attribute(const std::string& object, const std::string& name) const;
    std::vector<double> double_list_attribute(const std::string& object,
                                              const std::string& name) const;

private:
    struct Dataset;
    Dataset open_dataset(const std::string& name, int rank, H5T_class_t cls,
                         const char* kind) const;
    Handle open_attribute(const std::string& object, const std::string& name) const;
    std::string path_;
    Handle file_;
};

// Writing side: used inside write_atomically, never on the final path.
class Writer {
public:
    Writer(hid_t file, std::string path) : file_(file), path_(std::move(path)) {}

    void group(const std::string& name);
    void matrix(const std::string& name, const Matrix& values);
    void vector(const std::string& name, const std::vector<double>& values);
    void int_matrix(const std::string& name, const IntMatrix& values);
    void int_vector(const std::string& name, const std::vector<std::int64_t>& values);

    void attribute(const std::string& object, const std::string& name, const std::string& value);
    void attribute(const std::string& object, const std::string& name, const char* value) {
        attribute(object, name, std::string(value));
    }
    void attribute(const std::string& object, const std::string& name, double value);
    void attribute(const std::string& object, const std::string& name, std::int64_t value);
    void attribute(const std::string& object, const std::string& name, std::uint64_t value);
    void attribute(const std::string& object, const std::string& name,
                   const std::vector<double>& values);
    void attribute(const std::string& object, const std::string& name,
                   const std::vector<std::string>& values);

private:
    [[noreturn]] void fail(const std::string& what) const;
    void dataset(const std::string& name, hid_t type, const std::vector<hsize_t>& dims,
                 const void* data);
    void raw_attribute(const std::string& object, const std::string& name, hid_t type,
                       const std::vector<hsize_t>& dims, const void* data);
    hid_t file_;
    std::string path_;
};

// Writes a complete file under a temporary name beside `path` (root attributes
// `format` and `format_version` first, then `body`), flushes it to disk and
// renames it over `path`. On any failure the temporary file is removed, an
// existing file at `path` is left untouched, and Error is thrown.
void write_atomically(const std::string& path, const std::string& format, int version,
                      const std::function<void(Writer&)>& body);

} // namespace cellshift::data::h5
