// The store and server helpers of the black-box tests: a TestStore is a temporary directory with
// a data store and a key store (there, or in a throwaway PostgreSQL database) driven through the
// real `ashare` binary; a ServerProcess runs `ashare serve --listen 127.0.0.1:0` on it and stops
// it (SIGTERM, then SIGKILL) when it goes. The temporary directory, the database and the test
// data are tests/support's, shared with the unit and fuzz suites (issue 34).
#pragma once

#include "process.hpp"
#include "support/postgres_database.hpp"
#include "support/temp_dir.hpp"
#include "support/test_data.hpp"
#include "support/wait.hpp"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace bb {

// The binary under test (env ASHARE_BIN, else the one this build made).
std::string ashare_bin();

// tests/data (env ASHARE_TEST_DATA_DIR, else the source tree's), and a file in it.
using ashare::test::data_dir;
using ashare::test::fixture;

// Generous limits: the suite also runs with ASan+UBSan.
inline constexpr std::chrono::milliseconds k_cli_timeout = 120s;
inline constexpr std::chrono::milliseconds k_start_timeout = 30s;

// A fresh directory under $TMPDIR, removed with everything in it.
using ashare::test::TempDir;

// Bounded waits: poll a condition, with a deadline that fails the test (issue 43).
using ashare::test::k_patience;
using ashare::test::poll_until;

struct Key {
  std::int64_t id = 0;
  std::string plaintext;
};

// Return whether this run keeps every default TestStore's stores on PostgreSQL.
bool stores_on_postgres();

// A data store and key store in a temporary directory (`ashare.db`, `ashare-keys.db`), or both
// in a PostgreSQL database, or with its keys at another locator (a postgresql:// URI: issue 14).
class TestStore {
public:
  // Where the default TestStore keeps its stores.
  enum class Backend { sqlite, postgresql };

  // The stores in `ashare.db` and `ashare-keys.db`; or, when ASHARE_TEST_STORES_ON_POSTGRES is
  // set (the whole suite's PostgreSQL pass, ctest ashare_blackbox_tests_postgres.N), both in a new
  // database of their own on the server of ASHARE_TEST_POSTGRES (issue 14).
  TestStore() : TestStore(stores_on_postgres() ? Backend::postgresql : Backend::sqlite) {}
  // The stores on `backend`, whatever the run: for a case about SQLite files themselves.
  explicit TestStore(Backend backend);
  // The data store in `ashare.db`, the keys at `keys_locator`.
  explicit TestStore(std::string keys_locator) : m_keys_locator(std::move(keys_locator)) {}
  // Both stores in the database at `uri` (a postgresql:// URI), as `--db URI` alone puts them.
  struct OnServer {
    std::string uri;
  };
  explicit TestStore(OnServer stores) : m_data_locator(std::move(stores.uri)) {}
  ~TestStore();
  TestStore(const TestStore&) = delete;
  TestStore& operator=(const TestStore&) = delete;

  // Return whether the keys are on a database server (a revoke takes effect within 1 s there).
  bool keys_on_server() const {
    return m_keys_locator.rfind("postgresql://", 0) == 0 || data_on_server();
  }
  // Return whether the bars are on a database server (an import reaches a running server within
  // 1 s there).
  bool data_on_server() const { return !m_data_locator.empty(); }
  // Run `sql` in the database created for this store and return what `psql -Atq` prints; throws
  // std::runtime_error when there is none (the stores are not on a default PostgreSQL pass).
  std::string sql(const std::string& sql) const;
  const std::filesystem::path& dir() const { return m_dir.path(); }
  // Return the SQLite data store's path (a temporary directory's `ashare.db`).
  std::filesystem::path db() const { return dir() / "ashare.db"; }
  // Return what `--db` names: db(), or a postgresql:// URI.
  std::string data_locator() const { return data_on_server() ? m_data_locator : db().string(); }
  // Return `--db DB` and, when the keys are elsewhere, `--keys-db LOCATOR`.
  std::vector<std::string> store_args() const;

  // Run `ashare --db DB ARGS...`, with `extra_env` ("NAME=value") in its environment.
  RunResult cli(const std::vector<std::string>& args,
                std::chrono::milliseconds timeout = k_cli_timeout,
                const std::vector<std::string>& extra_env = {}) const;

  // Import `files` in one run; throws with the output unless it exits 0.
  void import(const std::vector<std::filesystem::path>& files,
              const std::vector<std::string>& extra_args = {}) const;

  // `keys create --plan PLAN [--credits N] --label LABEL`; throws unless it exits 0.
  Key create_key(const std::string& plan,
                 std::optional<std::int64_t> credits = std::nullopt,
                 const std::string& label = "bb") const;

  // The CREDITS column of `keys list` for key `id` ("unmetered" or a number); throws when the
  // key is not listed.
  std::string listed_credits(std::int64_t id) const;

private:
  TempDir m_dir{"ashare-bb"};
  std::unique_ptr<ashare::test::PostgresDatabase> m_database; // created for this store, or none
  std::string m_data_locator; // "": db()
  std::string m_keys_locator; // "": the default for the data store
};

// Wait, when the stores are on a database server, until `until()` holds; return whether it does
// (at once on SQLite, whose servers see a commit at once). A server hears of a commit within
// about 1 s there (issue 14; bench/serve_timings.py measures it); the deadline is k_patience,
// so that only a change that never comes fails.
bool await_on_server(const TestStore& store, const std::function<bool()>& until);

// Run `ashare ARGS...` from an empty environment (`env -i`) but for PATH, the sanitizer options,
// HOME=`home`, XDG_CONFIG_HOME and XDG_DATA_HOME inside it, and `env` ("NAME=value"), so no
// inherited HOME, NO_COLOR, COLUMNS or config file reaches it (Process appends its variables
// after the inherited ones and getenv takes the first).
RunResult run_clean(const std::filesystem::path& home,
                    const std::vector<std::string>& args,
                    const std::vector<std::string>& env = {});

// Write a throwaway CA (`ca.pem`, `ca.key`) and a certificate for 127.0.0.1 signed by it
// (`server.pem`, `server.key`) in `dir`, with the openssl command; throws when it fails.
void make_test_pki(const std::filesystem::path& dir);

// `ashare serve --listen 127.0.0.1:0` on a TestStore, stopped and reaped on destruction; HTTPS
// when `extra_args` give --tls-cert and --tls-key.
class ServerProcess {
public:
  explicit ServerProcess(const TestStore& store, const std::vector<std::string>& extra_args = {});
  ~ServerProcess();
  ServerProcess(const ServerProcess&) = delete;
  ServerProcess& operator=(const ServerProcess&) = delete;

  int port() const { return m_port; }
  // Return "http://127.0.0.1:PORT" (https:// over TLS), what `--base-url` names for this server.
  std::string base_url() const { return m_scheme + "://127.0.0.1:" + std::to_string(m_port); }
  Process& process() { return *m_process; }

  // Send SIGTERM and wait (bounded) for the exit status; nullopt when it did not stop in time.
  std::optional<int> stop(std::chrono::milliseconds timeout = 30s);

private:
  std::unique_ptr<Process> m_process;
  std::string m_scheme = "http";
  int m_port = 0;
};

} // namespace bb
