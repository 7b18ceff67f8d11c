#include "support/test_data.hpp"

#include "support/build_paths.hpp"

#include <cstdlib>

namespace ashare::test {

std::filesystem::path data_dir() {
  // The environment first: the black-box suite may run against a copy of the data.
  const char* value = std::getenv("ASHARE_TEST_DATA_DIR");
  return (value != nullptr && *value != '\0') ? std::filesystem::path(value)
                                               : std::filesystem::path(source_dir()) / "tests" / "data";
}

std::filesystem::path fixture(std::string_view name) {
  return data_dir() / name;
}

} // namespace ashare::test
