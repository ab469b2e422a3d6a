# Helpers shared by every cellshift target: warnings and sanitizers in one place.

# Sanitizers apply to the whole build (every object must be instrumented alike).
if(CELLSHIFT_FUZZ)
    # Coverage feedback from every library the fuzz targets reach, not only from
    # the target's own file.
    add_compile_options("$<$<COMPILE_LANGUAGE:C,CXX>:-fsanitize=fuzzer-no-link>")
endif()
if(CELLSHIFT_SANITIZE)
    message(STATUS "cellshift: building with AddressSanitizer + UndefinedBehaviorSanitizer")
    set(_cellshift_sanitize_flags -fsanitize=address,undefined -fno-omit-frame-pointer
                                  -fno-sanitize-recover=undefined)
    add_compile_options("$<$<COMPILE_LANGUAGE:C,CXX>:${_cellshift_sanitize_flags}>")
    add_link_options(${_cellshift_sanitize_flags})
endif()

if(CELLSHIFT_TSAN)
    if(CELLSHIFT_SANITIZE)
        message(FATAL_ERROR "CELLSHIFT_TSAN and CELLSHIFT_SANITIZE cannot be combined")
    endif()
    message(STATUS "cellshift: building with ThreadSanitizer")
    add_compile_options("$<$<COMPILE_LANGUAGE:C,CXX>:-fsanitize=thread;-fno-omit-frame-pointer>")
    add_link_options(-fsanitize=thread)
endif()

# -march=native for the whole build (Eigen then uses AVX2/AVX-512 in the GRU).
if(CELLSHIFT_NATIVE)
    add_compile_options("$<$<COMPILE_LANGUAGE:C,CXX>:-march=native>")
endif()

# cellshift_target_defaults(<target>): warnings for the project's own sources.
# Third-party headers come in through imported targets, which CMake marks SYSTEM,
# so -Wall -Wextra (and -Werror when asked) judge only our own code.
function(cellshift_target_defaults target)
    get_target_property(_type ${target} TYPE)
    if(_type STREQUAL "INTERFACE_LIBRARY")
        return()
    endif()
    set(_warnings -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion)
    if((CELLSHIFT_SANITIZE OR CELLSHIFT_NATIVE) AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
        # GCC 12 reports false -Wmaybe-uninitialized inside libstdc++ (std::regex,
        # std::function) under ASan and inside its own avx512fintrin.h under
        # -march=native; the plain build keeps the check.
        list(APPEND _warnings -Wno-maybe-uninitialized)
    endif()
    if(CELLSHIFT_WERROR)
        list(APPEND _warnings -Werror)
    endif()
    target_compile_options(${target} PRIVATE "$<$<COMPILE_LANGUAGE:CXX>:${_warnings}>")
    if(CELLSHIFT_HAVE_CUDA)
        string(REPLACE ";" "," _host_warnings "-Wall;-Wextra")
        target_compile_options(${target} PRIVATE
            "$<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=${_host_warnings}>")
    endif()
endfunction()

# cellshift_add_tool(<name> SOURCES ... LIBS ...): one command-line tool, installed.
function(cellshift_add_tool name)
    cmake_parse_arguments(ARG "" "" "SOURCES;LIBS" ${ARGN})
    add_executable(${name} ${ARG_SOURCES})
    target_link_libraries(${name} PRIVATE ${ARG_LIBS} cellshift::tool cellshift::version)
    cellshift_target_defaults(${name})
    install(TARGETS ${name} RUNTIME DESTINATION bin)
endfunction()
