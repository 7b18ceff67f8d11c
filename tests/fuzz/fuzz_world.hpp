// A small world for the harnesses that need stores: a temporary directory removed at exit (tests/
// support's), a data store with a few real symbols (tests/data), and API keys with fixed
// plaintexts, so that the seed corpus and the dictionary can hold credentials that authenticate.
#pragma once

#include "core/auth/api_key.hpp"
#include "core/auth/plan.hpp"
#include "core/import/importer.hpp"
#include "core/store/sqlite_bar_store.hpp"
#include "core/store/sqlite_key_store.hpp"
#include "support/temp_dir.hpp"
#include "support/test_data.hpp"

#include <filesystem>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>

namespace ashare::fuzz {

// The temporary directory of tests/support, removed on destruction (at exit for the static ones
// of the harnesses).
using test::TempDir;

// A random source that repeats one byte: the key it makes is "ask_" and 43 copies of one
// base64url pattern, e.g. byte 1 gives "ask_AQEBAQ...AQE".
class RepeatedByte final : public auth::RandomSource {
public:
  explicit RepeatedByte(unsigned char byte) : m_byte(static_cast<std::byte>(byte)) {}
  void fill(std::span<std::byte> out) override {
    for (auto& b : out) {
      b = m_byte;
    }
  }

private:
  std::byte m_byte;
};

// Store in `keys_path` the key that RepeatedByte(`byte`) makes, with `plan` and `credits`
// (nullopt: unmetered); return its plaintext.
inline std::string add_fixed_key(const std::filesystem::path& keys_path,
                                 unsigned char byte,
                                 auth::Plan plan,
                                 std::optional<std::int64_t> credits) {
  store::SqliteKeyStore keys(keys_path);
  RepeatedByte random(byte);
  auto key = auth::generate_key(random);
  keys.insert_key(store::NewKeyRecord{key.prefix, auth::key_digest(key.plaintext), "fuzz", plan,
                                      credits, "2024-01-01T00:00:00Z"});
  return key.plaintext;
}

// Import the fixture `name` of tests/data into the data store at `data_path`; throws when it is
// refused.
inline void import_fixture(const std::filesystem::path& data_path, const std::string& name) {
  store::SqliteBarStore store(data_path);
  const auto report =
    import::import_file(store, test::fixture(name), {});
  if (!report.ok() || !report->committed) {
    throw std::runtime_error("cannot import the fixture " + name);
  }
}

} // namespace ashare::fuzz
