// Issue 13, "Files and secrets": every store, keys and cache file ashare creates, and the -wal and
// -shm files beside it, is 0600, and every directory it creates 0700 (as the XDG base directory
// specification asks), under the usual umask 022 that would give 0644 and 0755.
#include "fixtures.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <map>
#include <sys/stat.h>

namespace bb {
namespace {

// The umask for the scope of a test: the processes it spawns inherit it.
class ScopedUmask {
public:
  explicit ScopedUmask(mode_t mask) : m_old(::umask(mask)) {}
  ~ScopedUmask() { ::umask(m_old); }
  ScopedUmask(const ScopedUmask&) = delete;
  ScopedUmask& operator=(const ScopedUmask&) = delete;

private:
  mode_t m_old;
};

// Return the permission bits of every file and directory under `root`, by relative path.
std::map<std::string, unsigned> modes_under(const std::filesystem::path& root) {
  std::map<std::string, unsigned> modes;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
    struct stat info {};
    REQUIRE(::lstat(entry.path().c_str(), &info) == 0);
    modes[std::filesystem::relative(entry.path(), root).string()] = info.st_mode & 07777;
  }
  return modes;
}

} // namespace

TEST_CASE("issue 13: stores, keys and caches are 0600 with their -wal and -shm, new dirs 0700") {
  const ScopedUmask umask(022);
  TestStore store; // its directory is the test's: only what ashare puts in it is checked
  store.import({fixture("bancob_600519.SH.csv")});
  const auto key = store.create_key("pro");
  ServerProcess server(store);
  const auto target = bars_target("2025-01-01", "2025-03-31", "symbol=600519.SH");
  REQUIRE(request(server.port(), target, key.plaintext).status == 200);
  // A data store and a remote mode's cache in directories ashare creates.
  const auto nested = store.dir() / "nested" / "data" / "bars.db";
  REQUIRE(run_process({ashare_bin(), "--db", nested.string(), "import",
                       fixture("bancob_600036.SH.csv").string()})
            .status
          == 0);
  const auto cache = store.dir() / "cache" / "remote" / "cache.db";
  const auto remote = run_process(
    {ashare_bin(), "--cache-db", cache.string(), "--base-url",
     "http://127.0.0.1:" + std::to_string(server.port()), "--api-key", key.plaintext, "bars",
     "600519.SH", "2025-01-01", "2025-03-31"},
    k_cli_timeout, {"HOME=" + store.dir().string()});
  REQUIRE(remote.status == 0);

  // Taken while `serve` holds its connections open, so the -wal and -shm files exist.
  const auto modes = modes_under(store.dir());
  std::vector<std::string> expected{"cache/remote/cache.db", "nested/data/bars.db"};
  if (!store.data_on_server()) { // else the bars are in PostgreSQL (issue 14)
    expected.insert(expected.end(), {"ashare.db", "ashare.db-wal", "ashare.db-shm"});
  }
  if (!store.keys_on_server()) { // else the keys are too
    expected.insert(expected.end(), {"ashare-keys.db", "ashare-keys.db-wal", "ashare-keys.db-shm"});
  }
  for (const auto& name : expected) {
    CAPTURE(name);
    CHECK(modes.count(name) == 1);
  }
  for (const auto& [name, mode] : modes) {
    CAPTURE(name);
    CAPTURE(mode);
    CHECK(mode == (std::filesystem::is_directory(store.dir() / name) ? 0700U : 0600U));
  }
}

} // namespace bb
