#include "hdf5_io.hpp"

#include "cellshift/data/atomic_file.hpp"
#include "cellshift/data/error.hpp"

#include <filesystem>
#include <mutex>
#include <sstream>

namespace cellshift::data::h5 {
namespace {

std::string shape_text(const std::vector<hsize_t>& dims) {
    std::ostringstream out;
    out << '[';
    for (std::size_t i = 0; i < dims.size(); ++i) {
        out << (i ? "," : "") << dims[i];
    }
    out << ']';
    return out.str();
}

const char* class_name(H5T_class_t cls) {
    switch (cls) {
    case H5T_INTEGER:
        return "integer";
    case H5T_FLOAT:
        return "float";
    case H5T_STRING:
        return "string";
    case H5T_COMPOUND:
        return "compound";
    case H5T_ENUM:
        return "enum";
    case H5T_ARRAY:
        return "array";
    default:
        return "non-numeric";
    }
}

std::string object_label(const std::string& object, const std::string& name) {
    return (object == "/" || object.empty()) ? "attribute '" + name + "'"
                                             : "attribute '" + object + "/" + name + "'";
}

Handle scalar_or_simple_space(const std::vector<hsize_t>& dims) {
    if (dims.empty()) {
        return Handle(H5Screate(H5S_SCALAR), H5Sclose);
    }
    return Handle(H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr), H5Sclose);
}

Handle variable_string_type() {
    Handle type(H5Tcopy(H5T_C_S1), H5Tclose);
    H5Tset_size(type.get(), H5T_VARIABLE);
    H5Tset_cset(type.get(), H5T_CSET_UTF8);
    return type;
}

herr_t innermost_error(unsigned n, const H5E_error2_t* err, void* client) {
    // The walk starts at the innermost frame (where the error was detected).
    auto* out = static_cast<std::string*>(client);
    if (n == 0 && err != nullptr && err->desc != nullptr) {
        *out = err->desc;
    }
    return 0;
}

} // namespace

Handle& Handle::operator=(Handle&& other) noexcept {
    if (this != &other) {
        reset();
        id_ = other.id_;
        closer_ = other.closer_;
        other.id_ = -1;
    }
    return *this;
}

void Handle::reset() {
    if (id_ >= 0 && closer_ != nullptr) {
        closer_(id_);
    }
    id_ = -1;
}

bool Handle::close() {
    bool ok = true;
    if (id_ >= 0 && closer_ != nullptr) {
        ok = closer_(id_) >= 0;
    }
    id_ = -1;
    return ok;
}

} // namespace cellshift::data::h5

namespace cellshift::data {} // namespace cellshift::data

namespace cellshift::data::h5 {

void silence_hdf5_errors() {
    static std::once_flag once;
    std::call_once(once, [] { H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr); });
}

std::string last_hdf5_error() {
    std::string message;
    H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, innermost_error, &message);
    // Low-level write errors carry the operating system's reason; prefer it.
    const std::string key = "error message = '";
    auto pos = message.find(key);
    if (pos != std::string::npos) {
        auto end = message.find('\'', pos + key.size());
        message = message.substr(pos + key.size(), end - pos - key.size());
    }
    H5Eclear2(H5E_DEFAULT);
    return message.empty() ? "unknown HDF5 error" : message;
}

// ---------------------------------------------------------------------------
// Reader
// ---------------------------------------------------------------------------

struct Reader::Dataset {
    Handle dataset;
    std::vector<hsize_t> dims;
};

Reader::Reader(const std::string& path) : path_(path) {
    silence_hdf5_errors();
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) {
        fail("no such file");
    }
    if (std::filesystem::is_directory(path, ec)) {
        fail("is a directory, not a file");
    }
    htri_t is_hdf5 = H5Fis_hdf5(path.c_str());
    if (is_hdf5 == 0) {
        fail("not an HDF5 file");
    }
    if (is_hdf5 < 0) {
        fail("cannot read the file (" + last_hdf5_error() + ")");
    }
    file_ = Handle(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
    if (!file_.valid()) {
        fail("cannot open the HDF5 file, it is truncated or corrupt (" + last_hdf5_error() + ")");
    }
}

Reader::Reader(const std::string& path, const std::string& expected_format, int supported_version)
    : Reader(path) {
    if (!has_attribute("/", "format")) {
        fail("not a cellshift file (no root attribute 'format'; expected '" + expected_format +
             "')");
    }
    std::string format = string_attribute("/", "format");
    if (format != expected_format) {
        fail("has format '" + format + "', expected '" + expected_format + "'");
    }
    if (!has_attribute("/", "format_version")) {
        fail("missing root attribute 'format_version'");
    }
    std::int64_t version = int_attribute("/", "format_version");
    if (version < 1 || version > supported_version) {
        fail("format_version " + std::to_string(version) + " is not supported (this build reads " +
             expected_format + " version 1 to " + std::to_string(supported_version) + ")");
    }
}

void Reader::fail(const std::string& problem) const {
    data::fail(path_, problem);
}

bool Reader::has_object(const std::string& name) const {
    // H5Lexists needs every intermediate group to exist, so walk the path.
    std::string prefix;
    std::istringstream parts(name);
    std::string part;
    while (std::getline(parts, part, '/')) {
        if (part.empty()) {
            continue;
        }
        prefix += (prefix.empty() ? "" : "/") + part;
        if (H5Lexists(file_.get(), prefix.c_str(), H5P_DEFAULT) <= 0) {
            H5Eclear2(H5E_DEFAULT);
            return false;
        }
    }
    return !prefix.empty();
}

bool Reader::has_attribute(const std::string& object, const std::string& name) const {
    if (object != "/" && !has_object(object)) {
        return false;
    }
    htri_t exists = H5Aexists_by_name(file_.get(), object.c_str(), name.c_str(), H5P_DEFAULT);
    H5Eclear2(H5E_DEFAULT);
    return exists > 0;
}

Reader::Dataset Reader::open_dataset(const std::string& name, int rank, H5T_class_t cls,
                                     const char* kind) const {
    if (!has_object(name)) {
        fail("missing dataset '" + name + "'");
    }
    Dataset result{Handle(H5Dopen2(file_.get(), name.c_str(), H5P_DEFAULT), H5Dclose), {}};
    if (!result.dataset.valid()) {
        fail("'" + name + "' is not a readable dataset (" + last_hdf5_error() + ")");
    }
    Handle type(H5Dget_type(result.dataset.get()), H5Tclose);
    H5T_class_t got = H5Tget_class(type.get());
    if (got != cls) {
        fail("dataset '" + name + "' has dtype " + class_name(got) + ", expected " + kind);
    }
    Handle space(H5Dget_space(result.dataset.get()), H5Sclose);
    int got_rank = H5Sget_simple_extent_ndims(space.get());
    if (got_rank < 0) {
        fail("cannot read the shape of dataset '" + name + "' (" + last_hdf5_error() + ")");
    }
    result.dims.resize(static_cast<std::size_t>(got_rank));
    H5Sget_simple_extent_dims(space.get(), result.dims.data(), nullptr);
    if (got_rank != rank) {
        fail("dataset '" + name + "' has rank " + std::to_string(got_rank) + " (shape " +
             shape_text(result.dims) + "), expected rank " + std::to_string(rank));
    }
    return result;
}

namespace {

template <typename T>
void read_all(const Reader& reader, hid_t dataset, hid_t memtype, const std::string& name,
              std::vector<T>& out) {
    if (out.empty()) {
        return;
    }
    if (H5Dread(dataset, memtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, out.data()) < 0) {
        reader.fail("cannot read dataset '" + name + "', the file is truncated or corrupt (" +
                    last_hdf5_error() + ")");
    }
}

} // namespace

Matrix Reader::matrix(const std::string& name) const {
    Dataset ds = open_dataset(name, 2, H5T_FLOAT, "float32 or float64");
    Matrix out(ds.dims[0], ds.dims[1]);
    read_all(*this, ds.dataset.get(), H5T_NATIVE_DOUBLE, name, out.values);
    return out;
}

std::vector<double> Reader::vector(const std::string& name) const {
    Dataset ds = open_dataset(name, 1, H5T_FLOAT, "float32 or float64");
    std::vector<double> out(ds.dims[0]);
    read_all(*this, ds.dataset.get(), H5T_NATIVE_DOUBLE, name, out);
    return out;
}

IntMatrix Reader::int_matrix(const std::string& name) const {
    Dataset ds = open_dataset(name, 2, H5T_INTEGER, "integer");
    IntMatrix out(ds.dims[0], ds.dims[1]);
    read_all(*this, ds.dataset.get(), H5T_NATIVE_INT64, name, out.values);
    return out;
}

std::vector<std::int64_t> Reader::int_vector(const std::string& name) const {
    Dataset ds = open_dataset(name, 1, H5T_INTEGER, "integer");
    std::vector<std::int64_t> out(ds.dims[0]);
    read_all(*this, ds.dataset.get(), H5T_NATIVE_INT64, name, out);
    return out;
}

Handle Reader::open_attribute(const std::string& object, const std::string& name) const {
    if (!has_attribute(object, name)) {
        fail("missing " + object_label(object, name));
    }
    Handle attr(
        H5Aopen_by_name(file_.get(), object.c_str(), name.c_str(), H5P_DEFAULT, H5P_DEFAULT),
        H5Aclose);
    if (!attr.valid()) {
        fail("cannot open " + object_label(object, name) + " (" + last_hdf5_error() + ")");
    }
    return attr;
}

std::vector<std::string> Reader::string_list_attribute(const std::string& object,
                                                       const std::string& name) const {
    Handle attr = open_attribute(object, name);
    Handle type(H5Aget_type(attr.get()), H5Tclose);
    if (H5Tget_class(type.get()) != H5T_STRING) {
        fail(object_label(object, name) + " has dtype " + class_name(H5Tget_class(type.get())) +
             ", expected string");
    }
    Handle space(H5Aget_space(attr.get()), H5Sclose);
    hssize_t count = H5Sget_simple_extent_npoints(space.get());
    if (count < 0) {
        fail("cannot read the shape of " + object_label(object, name));
    }
    std::vector<std::string> out;
    out.reserve(static_cast<std::size_t>(count));
    if (H5Tis_variable_str(type.get()) > 0) {
        Handle memtype = variable_string_type();
        std::vector<char*> raw(static_cast<std::size_t>(count), nullptr);
        if (count > 0 && H5Aread(attr.get(), memtype.get(), raw.data()) < 0) {
            fail("cannot read " + object_label(object, name) + " (" + last_hdf5_error() + ")");
        }
        for (char* s : raw) {
            out.emplace_back(s != nullptr ? s : "");
        }
        if (count > 0) {
            H5Dvlen_reclaim(memtype.get(), space.get(), H5P_DEFAULT, raw.data());
        }
    } else {
        std::size_t size = H5Tget_size(type.get());
        Handle memtype(H5Tcopy(H5T_C_S1), H5Tclose);
        H5Tset_size(memtype.get(), size);
        std::vector<char> raw(size * static_cast<std::size_t>(count) + 1, '\0');
        if (count > 0 && H5Aread(attr.get(), memtype.get(), raw.data()) < 0) {
            fail("cannot read " + object_label(object, name) + " (" + last_hdf5_error() + ")");
        }
        for (hssize_t i = 0; i < count; ++i) {
            const char* begin = raw.data() + static_cast<std::size_t>(i) * size;
            std::string s(begin, size);
            s = s.substr(0, s.find('\0'));
            while (!s.empty() && s.back() == ' ') { // space-padded fixed strings
                s.pop_back();
            }
            out.push_back(s);
        }
    }
    return out;
}

std::string Reader::string_attribute(const std::string& object, const std::string& name) const {
    std::vector<std::string> values = string_list_attribute(object, name);
    if (values.size() != 1) {
        fail(object_label(object, name) + " holds " + std::to_string(values.size()) +
             " strings, expected one");
    }
    return values.front();
}

namespace {

// Reads a numeric attribute of any shape as `count` values of `memtype`.
template <typename T>
std::vector<T> numeric_attribute(const Reader& reader, hid_t attr, hid_t memtype,
                                 const std::string& label, bool allow_float) {
    Handle type(H5Aget_type(attr), H5Tclose);
    H5T_class_t cls = H5Tget_class(type.get());
    if (cls != H5T_INTEGER && !(allow_float && cls == H5T_FLOAT)) {
        reader.fail(label + " has dtype " + class_name(cls) + ", expected " +
                    (allow_float ? "a number" : "integer"));
    }
    Handle space(H5Aget_space(attr), H5Sclose);
    hssize_t count = H5Sget_simple_extent_npoints(space.get());
    if (count < 0) {
        reader.fail("cannot read the shape of " + label);
    }
    std::vector<T> out(static_cast<std::size_t>(count));
    if (count > 0 && H5Aread(attr, memtype, out.data()) < 0) {
        reader.fail("cannot read " + label + " (" + last_hdf5_error() + ")");
    }
    return out;
}

template <typename T>
T single(const Reader& reader, const std::vector<T>& values, const std::string& label) {
    if (values.size() != 1) {
        reader.fail(label + " holds " + std::to_string(values.size()) + " values, expected one");
    }
    return values.front();
}

} // namespace

double Reader::double_attribute(const std::string& object, const std::string& name) const {
    Handle attr = open_attribute(object, name);
    std::string label = object_label(object, name);
    return single(
        *this, numeric_attribute<double>(*this, attr.get(), H5T_NATIVE_DOUBLE, label, true), label);
}

std::int64_t Reader::int_attribute(const std::string& object, const std::string& name) const {
    Handle attr = open_attribute(object, name);
    std::string label = object_label(object, name);
    return single(
        *this, numeric_attribute<std::int64_t>(*this, attr.get(), H5T_NATIVE_INT64, label, false),
        label);
}

std::uint64_t Reader::uint_attribute(const std::string& object, const std::string& name) const {
    Handle attr = open_attribute(object, name);
    std::string label = object_label(object, name);
    return single(
        *this, numeric_attribute<std::uint64_t>(*this, attr.get(), H5T_NATIVE_UINT64, label, false),
        label);
}

std::vector<double> Reader::double_list_attribute(const std::string& object,
                                                  const std::string& name) const {
    Handle attr = open_attribute(object, name);
    return numeric_attribute<double>(*this, attr.get(), H5T_NATIVE_DOUBLE,
                                     object_label(object, name), true);
}

// ---------------------------------------------------------------------------
// Writer
// ---------------------------------------------------------------------------

void Writer::fail(const std::string& what) const {
    data::fail(path_, "write failed: " + what + " (" + last_hdf5_error() + ")");
}

void Writer::group(const std::string& name) {
    Handle g(H5Gcreate2(file_, name.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose);
    if (!g.valid()) {
        fail("cannot create group '" + name + "'");
    }
}

void Writer::dataset(const std::string& name, hid_t type, const std::vector<hsize_t>& dims,
                     const void* data) {
    Handle space = scalar_or_simple_space(dims);
    Handle ds(
        H5Dcreate2(file_, name.c_str(), type, space.get(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
        H5Dclose);
    if (!ds.valid()) {
        fail("cannot create dataset '" + name + "'");
    }
    hsize_t total = 1;
    for (hsize_t d : dims) {
        total *= d;
    }
    if (total > 0 && H5Dwrite(ds.get(), type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) < 0) {
        fail("cannot write dataset '" + name + "'");
    }
    if (!ds.close()) {
        fail("cannot close dataset '" + name + "'");
    }
}

void Writer::matrix(const std::string& name, const Matrix& values) {
    dataset(name, H5T_NATIVE_DOUBLE, {values.rows, values.cols}, values.values.data());
}

void Writer::vector(const std::string& name, const std::vector<double>& values) {
    dataset(name, H5T_NATIVE_DOUBLE, {values.size()}, values.data());
}

void Writer::int_matrix(const std::string& name, const IntMatrix& values) {
    dataset(name, H5T_NATIVE_INT64, {values.rows, values.cols}, values.values.data());
}

void Writer::int_vector(const std::string& name, const std::vector<std::int64_t>& values) {
    dataset(name, H5T_NATIVE_INT64, {values.size()}, values.data());
}

void Writer::raw_attribute(const std::string& object, const std::string& name, hid_t type,
                           const std::vector<hsize_t>& dims, const void* data) {
    Handle space = scalar_or_simple_space(dims);
    Handle attr(H5Acreate_by_name(file_, object.c_str(), name.c_str(), type, space.get(),
                                  H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
                H5Aclose);
    if (!attr.valid()) {
        fail("cannot create " + object_label(object, name));
    }
    if (H5Awrite(attr.get(), type, data) < 0) {
        fail("cannot write " + object_label(object, name));
    }
}

void Writer::attribute(const std::string& object, const std::string& name,
                       const std::string& value) {
    Handle type = variable_string_type();
    const char* p = value.c_str();
    raw_attribute(object, name, type.get(), {}, &p);
}

void Writer::attribute(const std::string& object, const std::string& name, double value) {
    raw_attribute(object, name, H5T_NATIVE_DOUBLE, {}, &value);
}

void Writer::attribute(const std::string& object, const std::string& name, std::int64_t value) {
    raw_attribute(object, name, H5T_NATIVE_INT64, {}, &value);
}

void Writer::attribute(const std::string& object, const std::string& name, std::uint64_t value) {
    raw_attribute(object, name, H5T_NATIVE_UINT64, {}, &value);
}

void Writer::attribute(const std::string& object, const std::string& name,
                       const std::vector<double>& values) {
    raw_attribute(object, name, H5T_NATIVE_DOUBLE, {values.size()}, values.data());
}

void Writer::attribute(const std::string& object, const std::string& name,
                       const std::vector<std::string>& values) {
    Handle type = variable_string_type();
    std::vector<const char*> pointers;
    pointers.reserve(values.size());
    for (const auto& v : values) {
        pointers.push_back(v.c_str());
    }
    raw_attribute(object, name, type.get(), {values.size()}, pointers.data());
}

void write_atomically(const std::string& path, const std::string& format, int version,
                      const std::function<void(Writer&)>& body) {
    silence_hdf5_errors();
    AtomicFile out(path);
    Handle file(H5Fcreate(out.temp_path().c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT),
                H5Fclose);
    if (!file.valid()) {
        fail(path, "cannot create " + out.temp_path() + " (" + last_hdf5_error() + ")");
    }
    Writer writer(file.get(), path);
    writer.attribute("/", "format", format);
    writer.attribute("/", "format_version", static_cast<std::int64_t>(version));
    body(writer);
    if (H5Fflush(file.get(), H5F_SCOPE_LOCAL) < 0) {
        fail(path, "write failed: cannot flush (" + last_hdf5_error() + ")");
    }
    if (!file.close()) {
        fail(path, "write failed: cannot close (" + last_hdf5_error() + ")");
    }
    out.commit();
}

} // namespace cellshift::data::h5
