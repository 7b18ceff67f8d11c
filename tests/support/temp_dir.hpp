// The one RAII temporary directory of the unit, black-box and fuzz suites (issue 34): every store
// a test makes lives in one, and nothing is left behind however the test ends.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace ashare::test {

// A fresh directory under std::filesystem::temp_directory_path(), removed with everything in it
// on destruction (at exit for a harness's static one).
class TempDir {
public:
  // Create `prefix`-XXXXXX (mkdtemp); throws std::runtime_error when it cannot.
  explicit TempDir(std::string_view prefix = "ashare-test");
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::filesystem::path& path() const { return m_path; }
  // Return the path of `name` in the directory (nothing is created).
  std::filesystem::path operator/(std::string_view name) const { return m_path / name; }

private:
  std::filesystem::path m_path;
};

} // namespace ashare::test
