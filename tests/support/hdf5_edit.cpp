#include "hdf5_edit.hpp"

#include <hdf5.h>

#include <algorithm>
#include <stdexcept>

namespace cellshift::test {
namespace {

struct File {
    explicit File(const std::string& path) : id(H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT)) {
        if (id < 0) {
            throw std::runtime_error("hdf5_edit: cannot open " + path);
        }
    }
    ~File() { H5Fclose(id); }
    hid_t id;
};

void check(herr_t status, const char* what) {
    if (status < 0) {
        throw std::runtime_error(std::string("hdf5_edit: ") + what + " failed");
    }
}

void replace_dataset(const std::string& path, const std::string& name, hid_t type,
                     const std::vector<unsigned long long>& dims, const void* fill_one) {
    File f(path);
    if (H5Lexists(f.id, name.c_str(), H5P_DEFAULT) > 0) {
        check(H5Ldelete(f.id, name.c_str(), H5P_DEFAULT), "H5Ldelete");
    }
    std::vector<hsize_t> d(dims.begin(), dims.end());
    hid_t space = H5Screate_simple(static_cast<int>(d.size()), d.data(), nullptr);
    hid_t ds = H5Dcreate2(f.id, name.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    hsize_t n = 1;
    for (auto x : d) {
        n *= x;
    }
    std::size_t size = H5Tget_size(type);
    std::vector<unsigned char> buffer(n * size);
    for (hsize_t i = 0; i < n; ++i) {
        std::copy_n(static_cast<const unsigned char*>(fill_one), size, buffer.data() + i * size);
    }
    if (n > 0) {
        check(H5Dwrite(ds, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, buffer.data()), "H5Dwrite");
    }
    H5Dclose(ds);
    H5Sclose(space);
}

} // namespace

void delete_attribute(const std::string& file, const std::string& object, const std::string& name) {
    File f(file);
    check(H5Adelete_by_name(f.id, object.c_str(), name.c_str(), H5P_DEFAULT), "H5Adelete");
}

void set_int_attribute(const std::string& file, const std::string& object, const std::string& name,
                       std::int64_t value) {
    File f(file);
    if (H5Aexists_by_name(f.id, object.c_str(), name.c_str(), H5P_DEFAULT) > 0) {
        check(H5Adelete_by_name(f.id, object.c_str(), name.c_str(), H5P_DEFAULT), "H5Adelete");
    }
    hid_t space = H5Screate(H5S_SCALAR);
    hid_t attr = H5Acreate_by_name(f.id, object.c_str(), name.c_str(), H5T_NATIVE_INT64, space,
                                   H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    check(H5Awrite(attr, H5T_NATIVE_INT64, &value), "H5Awrite");
    H5Aclose(attr);
    H5Sclose(space);
}

void set_string_attribute(const std::string& file, const std::string& object,
                          const std::string& name, const std::string& value) {
    File f(file);
    if (H5Aexists_by_name(f.id, object.c_str(), name.c_str(), H5P_DEFAULT) > 0) {
        check(H5Adelete_by_name(f.id, object.c_str(), name.c_str(), H5P_DEFAULT), "H5Adelete");
    }
    // A fixed-length string, as some other writers produce: the reader takes both.
    hid_t type = H5Tcopy(H5T_C_S1);
    H5Tset_size(type, value.size() + 1);
    hid_t space = H5Screate(H5S_SCALAR);
    hid_t attr = H5Acreate_by_name(f.id, object.c_str(), name.c_str(), type, space, H5P_DEFAULT,
                                   H5P_DEFAULT, H5P_DEFAULT);
    check(H5Awrite(attr, type, value.c_str()), "H5Awrite");
    H5Aclose(attr);
    H5Sclose(space);
    H5Tclose(type);
}

void delete_object(const std::string& file, const std::string& name) {
    File f(file);
    check(H5Ldelete(f.id, name.c_str(), H5P_DEFAULT), "H5Ldelete");
}

void replace_with_doubles(const std::string& file, const std::string& name,
                          const std::vector<unsigned long long>& dims, double value) {
    replace_dataset(file, name, H5T_NATIVE_DOUBLE, dims, &value);
}

void replace_with_ints(const std::string& file, const std::string& name,
                       const std::vector<unsigned long long>& dims, std::int64_t value) {
    replace_dataset(file, name, H5T_NATIVE_INT64, dims, &value);
}

void set_double_element(const std::string& file, const std::string& name, std::size_t index,
                        double value) {
    File f(file);
    hid_t ds = H5Dopen2(f.id, name.c_str(), H5P_DEFAULT);
    hid_t space = H5Dget_space(ds);
    hssize_t n = H5Sget_simple_extent_npoints(space);
    std::vector<double> values(static_cast<std::size_t>(n));
    check(H5Dread(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()), "H5Dread");
    values.at(index) = value;
    check(H5Dwrite(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()),
          "H5Dwrite");
    H5Sclose(space);
    H5Dclose(ds);
}

} // namespace cellshift::test
