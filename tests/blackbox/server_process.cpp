#include "server_process.hpp"

#include "fixtures.hpp" // words
#include "support/build_paths.hpp"

#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <fstream>
#include <stdexcept>
#include <unistd.h>

namespace bb {
namespace {

std::string from_env_or(const char* name, const char* fallback) {
  const char* value = std::getenv(name);
  return (value != nullptr && *value != '\0') ? value : fallback;
}

std::string describe(const std::vector<std::string>& args, const RunResult& result) {
  std::string text = "`ashare";
  for (const auto& arg : args) {
    text += " " + arg;
  }
  text += "` exited " + std::to_string(result.status) + (result.timed_out ? " (timed out)" : "")
          + "\nstdout:\n" + result.out + "stderr:\n" + result.err;
  return text;
}

} // namespace

std::string ashare_bin() {
  return from_env_or("ASHARE_BIN", ashare::test::built_ashare());
}

bool stores_on_postgres() {
  const char* flag = std::getenv("ASHARE_TEST_STORES_ON_POSTGRES");
  return flag != nullptr && *flag != '\0';
}

TestStore::TestStore(Backend backend) {
  if (backend == Backend::postgresql) {
    m_database = std::make_unique<ashare::test::PostgresDatabase>();
    m_data_locator = m_database->uri(); // the keys there too
  }
}

TestStore::~TestStore() = default;

std::string TestStore::sql(const std::string& text) const {
  if (!m_database) {
    throw std::runtime_error("this TestStore has no PostgreSQL database of its own");
  }
  return m_database->sql(text);
}

std::vector<std::string> TestStore::store_args() const {
  std::vector<std::string> args{"--db", data_locator()};
  if (!m_keys_locator.empty()) {
    args.insert(args.end(), {"--keys-db", m_keys_locator});
  }
  return args;
}

bool await_on_server(const TestStore& store, const std::function<bool()>& until) {
  if (!store.data_on_server() && !store.keys_on_server()) {
    return until();
  }
  return poll_until(until);
}

RunResult TestStore::cli(const std::vector<std::string>& args,
                         std::chrono::milliseconds timeout,
                         const std::vector<std::string>& extra_env) const {
  std::vector<std::string> argv{ashare_bin()};
  const auto stores = store_args();
  argv.insert(argv.end(), stores.begin(), stores.end());
  argv.insert(argv.end(), args.begin(), args.end());
  // HOME and XDG_DATA_HOME point into the temp dir, so nothing can touch the user's store.
  std::vector<std::string> env{"HOME=" + dir().string(), "XDG_DATA_HOME=" + (dir() / "xdg").string(),
                               "XDG_CONFIG_HOME=" + (dir() / "xdg-config").string()};
  env.insert(env.end(), extra_env.begin(), extra_env.end());
  return run_process(argv, timeout, env);
}

void TestStore::import(const std::vector<std::filesystem::path>& files,
                       const std::vector<std::string>& extra_args) const {
  std::vector<std::string> args{"import"};
  for (const auto& file : files) {
    args.push_back(file.string());
  }
  args.insert(args.end(), extra_args.begin(), extra_args.end());
  const auto result = cli(args);
  if (result.status != 0) {
    throw std::runtime_error(describe(args, result));
  }
}

Key TestStore::create_key(const std::string& plan,
                          std::optional<std::int64_t> credits,
                          const std::string& label) const {
  std::vector<std::string> args{"keys", "create", "--plan", plan, "--label", label};
  if (credits) {
    args.push_back("--credits");
    args.push_back(std::to_string(*credits));
  }
  const auto result = cli(args);
  const auto lines = split_lines(result.out);
  if (result.status != 0 || lines.empty() || lines.front().rfind("id: ", 0) != 0) {
    throw std::runtime_error(describe(args, result));
  }
  return Key{std::stoll(lines.front().substr(4)), lines.back()};
}

std::string TestStore::listed_credits(std::int64_t id) const {
  const auto result = cli({"keys", "list"});
  if (result.status != 0) {
    throw std::runtime_error(describe({"keys", "list"}, result));
  }
  // Columns: ID PREFIX LABEL PLAN CREDITS CREATED REVOKED (our keys always have a label).
  for (const auto& line : split_lines(result.out)) {
    const auto cells = words(line);
    if (cells.size() == 7 && cells[0] == std::to_string(id)) {
      return cells[4];
    }
  }
  throw std::runtime_error("key " + std::to_string(id) + " not in `keys list`:\n" + result.out);
}

RunResult run_clean(const std::filesystem::path& home,
                    const std::vector<std::string>& args,
                    const std::vector<std::string>& env) {
  std::vector<std::string> argv{"/usr/bin/env", "-i"};
  for (const char* name :
       {"PATH", "LD_LIBRARY_PATH", "ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS"}) {
    if (const char* value = std::getenv(name)) {
      argv.push_back(std::string(name) + "=" + value);
    }
  }
  argv.push_back("HOME=" + home.string());
  argv.push_back("XDG_CONFIG_HOME=" + (home / "config").string());
  argv.push_back("XDG_DATA_HOME=" + (home / "data").string());
  argv.insert(argv.end(), env.begin(), env.end());
  argv.push_back(ashare_bin());
  argv.insert(argv.end(), args.begin(), args.end());
  return run_process(argv, k_cli_timeout);
}

void make_test_pki(const std::filesystem::path& dir) {
  const auto path = [&](const char* name) { return (dir / name).string(); };
  {
    std::ofstream ext(dir / "ext.cnf");
    ext << "subjectAltName=IP:127.0.0.1\n";
  }
  const std::vector<std::vector<std::string>> steps{
      {"/usr/bin/openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout",
       path("ca.key"), "-out", path("ca.pem"), "-days", "2", "-subj", "/CN=ashare test CA"},
      {"/usr/bin/openssl", "req", "-newkey", "rsa:2048", "-nodes", "-keyout", path("server.key"),
       "-out", path("server.csr"), "-subj", "/CN=127.0.0.1"},
      {"/usr/bin/openssl", "x509", "-req", "-in", path("server.csr"), "-CA", path("ca.pem"),
       "-CAkey", path("ca.key"), "-CAcreateserial", "-out", path("server.pem"), "-days", "2",
       "-extfile", path("ext.cnf")},
  };
  for (const auto& argv : steps) {
    const auto result = run_process(argv, 60s);
    if (result.status != 0) {
      throw std::runtime_error("`openssl " + argv[1] + "` exited " + std::to_string(result.status)
                               + ":\n" + result.err);
    }
  }
}

ServerProcess::ServerProcess(const TestStore& store, const std::vector<std::string>& extra_args) {
  std::vector<std::string> argv{ashare_bin()};
  const auto stores = store.store_args();
  argv.insert(argv.end(), stores.begin(), stores.end());
  argv.insert(argv.end(), {"serve", "--listen", "127.0.0.1:0"});
  argv.insert(argv.end(), extra_args.begin(), extra_args.end());
  m_process = std::make_unique<Process>(
      argv, std::vector<std::string>{"HOME=" + store.dir().string(),
                                     "XDG_DATA_HOME=" + (store.dir() / "xdg").string(),
                                     "XDG_CONFIG_HOME=" + (store.dir() / "xdg-config").string()});
  const bool tls =
      std::find(extra_args.begin(), extra_args.end(), "--tls-cert") != extra_args.end();
  m_scheme = tls ? "https" : "http";
  const std::string prefix = "listening on " + m_scheme + "://127.0.0.1:";
  const auto line = m_process->wait_for_stdout_line(prefix, k_start_timeout);
  if (!line) {
    const std::string err = m_process->stderr_text();
    m_process.reset(); // kill and reap
    throw std::runtime_error("ashare serve did not print \"" + prefix + "PORT\"; stderr:\n" + err);
  }
  m_port = std::stoi(line->substr(prefix.size()));
  if (m_port <= 0 || m_port > 65535) {
    m_process.reset();
    throw std::runtime_error("bad listening line: " + *line);
  }
}

ServerProcess::~ServerProcess() {
  if (m_process && !stop(30s)) {
    m_process->send_signal(SIGKILL); // the Process destructor reaps it
  }
}

std::optional<int> ServerProcess::stop(std::chrono::milliseconds timeout) {
  m_process->send_signal(SIGTERM);
  return m_process->wait_for_exit(timeout);
}

} // namespace bb
