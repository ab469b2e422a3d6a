# Writes the version header with the source tree's `git describe` of the moment.
# Run at every build (target cellshift_version_header), not only at configure:
# a trained controller's provenance must name the sources its trainer was built
# from, and a configure-time value goes stale as soon as the tree moves on.
# configure_file leaves an unchanged header untouched, so nothing rebuilds then.
#   cmake -DSOURCE_DIR=... -DOUTPUT=... -DPROJECT_VERSION=... -P write_version.cmake
set(CELLSHIFT_GIT_COMMIT "unknown")
find_package(Git QUIET)
if(GIT_FOUND AND EXISTS "${SOURCE_DIR}/.git")
    execute_process(
        COMMAND "${GIT_EXECUTABLE}" describe --always --dirty --abbrev=12
        WORKING_DIRECTORY "${SOURCE_DIR}"
        OUTPUT_VARIABLE CELLSHIFT_GIT_COMMIT
        OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    if(NOT CELLSHIFT_GIT_COMMIT)
        set(CELLSHIFT_GIT_COMMIT "unknown")
    endif()
endif()
configure_file("${SOURCE_DIR}/cmake/version.hpp.in" "${OUTPUT}" @ONLY)
