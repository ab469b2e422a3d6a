// The one translation unit that compiles Catch2's main (about 30 s): kept alone
// so that editing a test never recompiles it.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
