#include "cellshift/tool/run_tool.hpp"

#include <hdf5.h>

namespace cellshift::tool {

void prepare_tool_process() {
    H5dont_atexit();
}

} // namespace cellshift::tool
