// The doctest main of the black-box tests (see server_process.hpp for how the binary is found).
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
