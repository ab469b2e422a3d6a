// Catch2's main for the LibTorch test binary (kept apart from the general test
// binary: every process that links LibTorch spends ~0.7 s starting).
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
