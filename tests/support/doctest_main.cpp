// The doctest runner of every test program (unit, cli, net, PostgreSQL and black-box suites),
// compiled once for all of them: every test case lives in a test_<module>_<file>.cpp.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
