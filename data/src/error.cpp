#include "cellshift/data/error.hpp"

namespace cellshift::data {

void fail(const std::string& path, const std::string& problem) {
    throw Error(path + ": " + problem);
}

} // namespace cellshift::data
