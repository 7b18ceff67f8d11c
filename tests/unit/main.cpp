// The doctest runner of ashare_unit_tests; every test case lives in a test_<module>_<file>.cpp.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
