// The stores on PostgreSQL (issue 14), through the real binary: `ashare keys` on a postgresql://
// key store, several `serve` replicas sharing one database for bars and keys, a revoke and an
// import reaching them all, a replica killed under load, the database server stopped under load
// (D15). How soon a change reaches a replica is a figure (bench/serve_timings.py), not a check: a
// case asks until it has, with a deadline that fails it. The cases are named "postgres: ..." and
// run only under
// scripts/with-postgres.sh (ctest ashare_postgres_blackbox_tests), which names the server in
// ASHARE_TEST_POSTGRES; without it they fail, never pass unseen.
#include "burst.hpp"
#include "fixtures.hpp"
#include "support/test_data.hpp"

#include <csignal>
#include <cstdlib>
#include <doctest/doctest.h>
#include <atomic>
#include <cstdio>
#include <fstream>
#include <map>
#include <thread>

using namespace bb;
using namespace std::chrono_literals;

namespace {

using ashare::test::PostgresDatabase;

// A password that the trust authentication of the test server ignores and that must never be
// shown.
constexpr const char* k_password = "hunter2-never-shown";

// Return the URI of `database` with k_password in it.
std::string uri_of(const PostgresDatabase& database) {
  return database.uri() + "&password=" + k_password;
}

// Return the balance of key `id` as the database holds it.
std::string stored_balance(const PostgresDatabase& database, std::int64_t id) {
  auto out = database.sql("SELECT credits FROM api_keys WHERE id = " + std::to_string(id));
  while (!out.empty() && out.back() == '\n') {
    out.pop_back();
  }
  return out;
}

const std::string k_target = bars_target("2024-01-02", "2024-03-29", "symbol=600519.SH");

} // namespace

TEST_CASE("postgres: ashare keys on a PostgreSQL key store, the password never shown") {
  PostgresDatabase database;
  TestStore store(uri_of(database));
  store.import({fixture("bancob_600519.SH.csv")});
  const auto key = store.create_key("basic", 5, "pg");
  CHECK(store.listed_credits(key.id) == "5");
  const auto credited = store.cli({"keys", "credit", std::to_string(key.id), "7"});
  CHECK(credited.status == 0);
  CHECK(credited.out == "key " + std::to_string(key.id) + ": 12 credits\n");
  CHECK(stored_balance(database, key.id) == "12");
  const auto revoked = store.cli({"keys", "revoke", key.plaintext});
  CHECK(revoked.status == 0);
  CHECK(database.sql("SELECT revoked_at IS NOT NULL FROM api_keys") == "t\n");

  const auto info = store.cli({"info"});
  CHECK(info.status == 0);
  CHECK(info.out.find("keys: postgresql://") != std::string::npos);
  CHECK(info.out.find("password=***") != std::string::npos);
  for (const auto& run : {info, credited, revoked}) {
    CHECK(run.out.find(k_password) == std::string::npos);
    CHECK(run.err.find(k_password) == std::string::npos);
  }

  SUBCASE("an unreachable server is an error naming the redacted URI") {
    TestStore nowhere("postgresql://ashare:" + std::string(k_password)
                      + "@/ashare?host=/nonexistent-ashare-socket");
    const auto failed = nowhere.cli({"keys", "list"});
    CHECK(failed.status == 3); // D15: as a network error, worth retrying
    CHECK(failed.err.rfind("ashare: error: cannot connect to postgresql://ashare:***@/ashare?host="
                           "/nonexistent-ashare-socket: ",
                           0)
          == 0);
    CHECK(failed.err.find(k_password) == std::string::npos);
  }
}

TEST_CASE("postgres: three replicas, 300 concurrent requests on 50 credits: exactly 50 answered") {
  PostgresDatabase database;
  TestStore store(TestStore::OnServer{uri_of(database)}); // bars and keys, as on several hosts
  store.import({fixture("bancob_600519.SH.csv")});
  const auto key = store.create_key("pro", 50, "replicas");
  ServerProcess a(store), b(store), c(store);
  const auto outcomes = burst({a.port(), b.port(), c.port()}, k_target, key.plaintext, 300);
  std::map<int, int> by_status;
  for (const auto& outcome : outcomes) {
    CAPTURE(outcome.error);
    ++by_status[outcome.status];
    if (outcome.status == 402) {
      CHECK(outcome.remaining == "0");
    }
  }
  CHECK(by_status == std::map<int, int>{{200, 50}, {402, 250}});
  CHECK(stored_balance(database, key.id) == "0");
}

TEST_CASE("postgres: an import reaches every replica by itself, answers identical to SQLite's") {
  PostgresDatabase database;
  TestStore store(TestStore::OnServer{uri_of(database)});
  TestStore local(TestStore::Backend::sqlite);
  for (const auto* each : {&store, &local}) {
    each->import({fixture("bancob_600519.SH.csv")});
  }
  const auto key = store.create_key("pro", std::nullopt, "reader");
  const auto local_key = local.create_key("pro", std::nullopt, "reader");
  ServerProcess a(store), b(store), c(store);
  const auto later = bars_target("2024-01-02", "2025-12-31", "symbol=000001.SZ");
  for (const int port : {a.port(), b.port(), c.port()}) {
    REQUIRE(request(port, later, key.plaintext).status == 400); // not known yet
    REQUIRE(request(port, k_target, key.plaintext).status == 200); // the catalog cached
  }
  for (const auto* each : {&store, &local}) {
    each->import({fixture("jenny_000001.SZ.csv")});
  }
  ServerProcess reference(local);
  const auto expected = request(reference.port(), later, local_key.plaintext);
  REQUIRE(expected.status == 200);
  for (const int port : {a.port(), b.port(), c.port()}) {
    CAPTURE(port);
    Reply reply;
    // Within about 1 s (its change counter's re-check); asked until it has.
    CHECK(poll_until([&] { return (reply = request(port, later, key.plaintext)).status == 200; }));
    REQUIRE(reply.status == 200);
    // Byte for byte the SQLite store's answer, but for the request id.
    CHECK(without_request_id(reply.body) == without_request_id(expected.body));
  }
}

TEST_CASE("postgres: a revoke reaches every replica by itself") {
  PostgresDatabase database;
  TestStore store(TestStore::OnServer{uri_of(database)}); // bars and keys, as on several hosts
  store.import({fixture("bancob_600519.SH.csv")});
  const auto key = store.create_key("pro", std::nullopt, "unmetered");
  ServerProcess a(store), b(store), c(store);
  for (const int port : {a.port(), b.port(), c.port()}) {
    REQUIRE(request(port, k_target, key.plaintext).status == 200); // each has cached the key
  }
  REQUIRE(store.cli({"keys", "revoke", std::to_string(key.id)}).status == 0);
  for (const int port : {a.port(), b.port(), c.port()}) {
    CAPTURE(port);
    int status = 0;
    // Within about 1 s (its change counter's re-check); asked until it has.
    poll_until([&] { return (status = request(port, k_target, key.plaintext).status) != 200; });
    CHECK(status == 401);
  }
}

TEST_CASE("postgres: a replica killed under load: no credit lost or charged twice, others serve") {
  PostgresDatabase database;
  TestStore store(TestStore::OnServer{uri_of(database)}); // bars and keys, as on several hosts
  store.import({fixture("bancob_600519.SH.csv")});
  constexpr std::int64_t k_credits = 10'000;
  const auto key = store.create_key("pro", k_credits, "crash");
  ServerProcess a(store), b(store);
  auto victim = std::make_unique<ServerProcess>(store);
  // Two clients a replica, each asking until told to stop; the victim's stop at their first
  // request cut short.
  const int victim_port = victim->port();
  std::atomic<bool> stop{false};
  std::atomic<int> answered{0};
  std::atomic<int> by_victim{0};
  std::atomic<int> cut_short{0};
  std::atomic<int> failed{0}; // other than a transport failure on the victim
  std::vector<std::thread> clients;
  for (const int port : {a.port(), b.port(), victim_port, a.port(), b.port(), victim_port}) {
    clients.emplace_back([&, port] {
      while (!stop) {
        const auto reply = request(port, k_target, key.plaintext);
        if (reply.status == 200) {
          ++answered;
          by_victim += port == victim_port ? 1 : 0;
        } else if (reply.status == 0 && port == victim_port) {
          ++cut_short;
          return;
        } else {
          ++failed;
        }
      }
    });
  }
  // Killed under load: while it answers its clients.
  CHECK(poll_until([&] { return by_victim >= 10; }));
  victim->process().send_signal(SIGKILL);
  // The others answer on.
  const int at_kill = answered;
  CHECK(poll_until([&] { return answered >= at_kill + 50; }));
  stop = true;
  for (auto& client : clients) {
    client.join();
  }
  victim.reset();
  const auto spent = k_credits - std::stoll(stored_balance(database, key.id));
  CAPTURE(answered.load());
  CAPTURE(cut_short.load());
  CHECK(failed == 0); // only the killed replica's requests may fail, in transport
  CHECK(answered <= spent);
  CHECK(spent <= answered + cut_short);
  for (const int port : {a.port(), b.port()}) {
    CHECK(request(port, k_target, key.plaintext).status == 200);
  }
}

namespace {

// Stops the test server (an outage) and starts it again when it goes, whatever happened.
class Outage {
public:
  Outage() { control("stop"); }
  ~Outage() {
    if (!m_ended) {
      try {
        control("start");
      } catch (const std::exception&) {
      }
    }
  }
  Outage(const Outage&) = delete;
  Outage& operator=(const Outage&) = delete;
  void end() {
    control("start");
    m_ended = true;
  }

private:
  static void control(const std::string& action) {
    const char* ctl = std::getenv("ASHARE_TEST_POSTGRES_CTL");
    if (ctl == nullptr) {
      throw std::runtime_error("ASHARE_TEST_POSTGRES_CTL is not set: run under with-postgres.sh");
    }
    const auto result = run_process({ctl, action});
    if (result.status != 0) {
      throw std::runtime_error("cannot " + action + " PostgreSQL: " + result.err);
    }
  }
  bool m_ended = false;
};

} // namespace

TEST_CASE("postgres: the database server stopped under load: 503, no free answer, back by itself") {
  PostgresDatabase database;
  std::unique_ptr<TestStore> layout;
  SUBCASE("bars and keys on the server") {
    layout = std::make_unique<TestStore>(TestStore::OnServer{uri_of(database)});
  }
  SUBCASE("keys on the server, bars in a SQLite file") {
    layout = std::make_unique<TestStore>(uri_of(database));
  }
  const auto& store = *layout;
  store.import({fixture("bancob_600519.SH.csv")});
  constexpr std::int64_t k_credits = 100'000;
  const auto metered = store.create_key("pro", k_credits, "metered");
  const auto unmetered = store.create_key("pro", std::nullopt, "unmetered");
  ServerProcess server(store);
  REQUIRE(request(server.port(), k_target, unmetered.plaintext).status == 200); // known, cached
  REQUIRE(request(server.port(), k_target, metered.plaintext).status == 200);

  // Metered requests from 4 clients throughout; each answer is counted.
  std::atomic<bool> stop{false};
  std::atomic<int> answered{1}; // the one above
  std::atomic<int> unavailable{0};
  std::atomic<int> other{0};
  std::vector<std::thread> clients;
  for (int i = 0; i < 4; ++i) {
    clients.emplace_back([&] {
      while (!stop) {
        const auto reply = request(server.port(), k_target, metered.plaintext);
        if (reply.status == 200) {
          ++answered;
        } else if (reply.status == 503) {
          ++unavailable;
        } else {
          ++other;
        }
      }
    });
  }
  CHECK(poll_until([&] { return answered >= 20; })); // the clients are under way
  {
    Outage outage;
    // The server's memory of the keys must outlive its 1 s re-check, for the unmetered key
    // below to be answered from a memory the server cannot renew: this pause is the case, not a
    // wait for something to happen.
    std::this_thread::sleep_for(1500ms);

    const auto refused = request(server.port(), k_target, metered.plaintext);
    CHECK(refused.status == 503);
    CHECK(refused.header("Retry-After") == "1");
    CHECK_FALSE(refused.has_header("X-Credits-Remaining"));
    CHECK(refused.json()["error"]["code"] == "SERVICE_UNAVAILABLE");
    const auto health = request(server.port(), "/healthz");
    CHECK(health.status == 503);
    CHECK(health.json()["status"] == "unavailable");
    // D15: an unmetered key already known, for a history already in memory, is still answered.
    CHECK(request(server.port(), k_target, unmetered.plaintext).status == 200);
    // A key never seen cannot be checked: 503, not 401.
    const auto unknown = request(server.port(), k_target, std::string("ask_") + std::string(43, 'x'));
    CHECK(unknown.status == 503);
    const int during = unavailable;
    CHECK(during > 0);
    outage.end();
  }
  // Service comes back by itself, to the clients too.
  int status = 0;
  poll_until([&] { return (status = request(server.port(), "/healthz").status) == 200; });
  CHECK(status == 200);
  const int at_back = answered;
  CHECK(poll_until([&] { return answered >= at_back + 20; }));
  stop = true;
  for (auto& client : clients) {
    client.join();
  }
  CHECK(other == 0);
  CHECK(request(server.port(), k_target, metered.plaintext).status == 200);
  ++answered;
  // Never a free answer: every 200 was charged. A charge whose commit the stop cut off may have
  // been committed without its answer: at most one per client in flight at that moment.
  const auto spent = k_credits - std::stoll(stored_balance(database, metered.id));
  CAPTURE(answered.load());
  CAPTURE(unavailable.load());
  CAPTURE(spent);
  CHECK(answered <= spent);
  CHECK(spent <= answered + 4);
  CHECK(server.process().wait_for_exit(0ms) == std::nullopt); // still running
}

TEST_CASE("postgres: keys copy moves a key store to PostgreSQL exactly, keys keep working") {
  PostgresDatabase database;
  TestStore local(""); // keys in the SQLite file beside the data store
  local.import({fixture("bancob_600519.SH.csv")});
  const auto metered = local.create_key("basic", 10, "metered");
  const auto unmetered = local.create_key("pro", std::nullopt, "unmetered");
  const auto revoked = local.create_key("free", 3, "revoked");
  REQUIRE(local.cli({"keys", "revoke", std::to_string(revoked.id)}).status == 0);
  REQUIRE(local.cli({"keys", "credit", std::to_string(metered.id), "5"}).status == 0);
  const auto listed = local.cli({"keys", "list"});
  REQUIRE(listed.status == 0);

  const auto copied = local.cli({"keys", "copy", "--to", uri_of(database)});
  CHECK(copied.status == 0);
  CHECK(copied.err == "");
  const std::string shown =
    uri_of(database).substr(0, uri_of(database).find("password=")) + "password=***";
  CHECK(copied.out == "copied 3 keys (2 metered, 1 revoked) from "
                        + (local.dir() / "ashare-keys.db").string() + " to " + shown + "\n");

  TestStore moved(uri_of(database));
  moved.import({fixture("bancob_600519.SH.csv")});
  CHECK(moved.cli({"keys", "list"}).out == listed.out); // ids, balances, dates: the same table
  ServerProcess server(moved);
  const auto paid = request(server.port(), k_target, metered.plaintext);
  CHECK(paid.status == 200);
  CHECK(paid.header("X-Credits-Remaining") == "14");
  CHECK(request(server.port(), k_target, unmetered.plaintext).status == 200);
  CHECK(request(server.port(), k_target, revoked.plaintext).status == 401);
  const auto next = moved.create_key("free", std::nullopt, "after the copy");
  CHECK(next.id == revoked.id + 1);

  SUBCASE("never into a store that holds keys") {
    const auto again = local.cli({"keys", "copy", "--to", uri_of(database)});
    CHECK(again.status == 1);
    CHECK(again.err == "ashare: error: the destination already holds 4 keys: copy into an empty "
                       "key store, so that ids and balances stay exact\n");
    CHECK(again.err.find(k_password) == std::string::npos);
  }
  SUBCASE("from a key store that does not exist: an error, no file made") {
    const auto missing = local.dir() / "missing-keys.db";
    const auto run = local.cli({"keys", "copy", "--from", missing.string(), "--to",
                                (local.dir() / "other.db").string()});
    CHECK(run.status == 1);
    CHECK(run.err == "ashare: error: no key store at " + missing.string() + "\n");
    CHECK_FALSE(std::filesystem::exists(missing));
    CHECK_FALSE(std::filesystem::exists(local.dir() / "other.db"));
  }
}

TEST_CASE("postgres: copy moves a whole store to PostgreSQL and back exactly, answers identical") {
  PostgresDatabase database;
  TestStore local(TestStore::Backend::sqlite);
  local.import({fixture("bancob_600519.SH.csv"), fixture("jenny_000001.SZ.csv"),
                fixture("bancob_600036.SH.csv")});
  const auto metered = local.create_key("basic", 10, "metered");
  const auto revoked = local.create_key("free", std::nullopt, "revoked");
  REQUIRE(local.cli({"keys", "revoke", std::to_string(revoked.id)}).status == 0);

  const auto copied = local.cli({"copy", "--to", uri_of(database)});
  CHECK(copied.status == 0);
  CHECK(copied.err == ""); // no progress bar in a pipe
  const std::string shown =
    uri_of(database).substr(0, uri_of(database).find("password=")) + "password=***";
  const auto symbols = local.cli({"symbols", "--format", "csv"});
  REQUIRE(symbols.status == 0);
  CHECK(copied.out.rfind("copied 3 symbols (", 0) == 0);
  CHECK(copied.out.find(" bars) and 2 keys (1 metered, 1 revoked) from " + local.data_locator()
                        + " to " + shown + "\n")
        != std::string::npos);
  CHECK(copied.out.find(k_password) == std::string::npos);

  TestStore moved(TestStore::OnServer{uri_of(database)});
  // Every query command answers the same bytes from either store.
  const std::vector<std::vector<std::string>> queries{
    {"symbols", "--format", "csv"},
    {"bars", "600519.SH,000001.SZ", "2020-01-01", "2025-12-31", "--format", "csv"},
    {"bars", "600036.SH", "2024-01-01", "2024-12-31", "--format", "csv", "--raw"},
    {"rsi", "000001.SZ", "--format", "csv", "--limit", "500"},
    {"macd", "600519.SH", "--format", "csv"},
    {"keys", "list"},
  };
  for (const auto& query : queries) {
    CAPTURE(query);
    const auto want = local.cli(query);
    const auto got = moved.cli(query);
    REQUIRE(want.status == 0);
    CHECK(got.status == 0);
    CHECK(got.out == want.out);
  }
  ServerProcess server(moved);
  const auto paid = request(server.port(), k_target, metered.plaintext);
  CHECK(paid.status == 200);
  CHECK(paid.header("X-Credits-Remaining") == "9");
  CHECK(request(server.port(), k_target, revoked.plaintext).status == 401);

  SUBCASE("and back into a new SQLite file") {
    TempDir back;
    const auto file = (back.path() / "back.db").string();
    const auto returned = moved.cli({"copy", "--to", file});
    CHECK(returned.status == 0);
    for (const auto& query : queries) {
      CAPTURE(query);
      auto argv = std::vector<std::string>{ashare_bin(), "--db", file};
      argv.insert(argv.end(), query.begin(), query.end());
      CHECK(run_process(argv).out == moved.cli(query).out); // the balance after its charge
      CHECK(run_process(argv).status == 0);
    }
  }
  SUBCASE("never into a store that holds bars or keys: an error, nothing written") {
    const auto again = local.cli({"copy", "--to", uri_of(database)});
    CHECK(again.status == 1);
    CHECK(again.err == "ashare: error: the destination already holds 2 keys: copy into an empty "
                       "store, so that ids and balances stay exact\n");
    CHECK(again.err.find(k_password) == std::string::npos);
    CHECK(moved.cli({"symbols", "--format", "csv"}).out == symbols.out);
  }
  SUBCASE("a progress bar on a terminal") {
    TempDir back;
    const std::string command = ashare_bin() + " --db '" + uri_of(database) + "' copy --to "
                                + (back.path() / "back.db").string();
    const auto terminal = run_process({"/usr/bin/script", "-qec", command, "/dev/null"},
                                      k_cli_timeout, {"HOME=" + back.path().string(), "TERM=xterm"});
    REQUIRE(terminal.status == 0);
    CHECK(terminal.out.find("\rcopy [##############################] ") != std::string::npos);
    CHECK(terminal.out.find("] 2,212 bars") != std::string::npos); // 1,212 + 500 + 500
    CHECK(terminal.out.find(k_password) == std::string::npos);
  }
  SUBCASE("from a store that does not exist: an error, no file made") {
    const auto missing = local.dir() / "missing.db";
    const auto run = local.cli({"copy", "--from", missing.string(), "--to",
                                (local.dir() / "other.db").string()});
    CHECK(run.status == 1);
    CHECK(run.err == "ashare: error: no store at " + missing.string() + "\n");
    CHECK_FALSE(std::filesystem::exists(local.dir() / "other.db"));
  }
}

TEST_CASE("postgres: copy carries D20's kinds, membership snapshots and spans, both ways") {
  PostgresDatabase database;
  TestStore local(TestStore::Backend::sqlite);
  const auto vendor = ashare::test::data_dir() / "vendor";
  local.import({fixture("bancob_600519.SH.csv"), fixture("jenny_000001.SZ.csv"),
                vendor / "tushare_index_daily_000300.SH.csv"});
  const auto fund = local.dir() / "SH#510300.txt";
  write_text(fund, read_text(vendor / "tdx_text_510300.SH_raw.txt"));
  REQUIRE(local.cli({"import", fund.string()}).status == 0);
  const auto members = ashare::test::data_dir() / "members" / "csi300_history_unliftedq.csv";
  REQUIRE(local.cli({"import", "--format", "members", "--index", "000300.SH", members.string()}).status == 0);
  const std::vector<std::vector<std::string>> queries{
    {"symbols", "--format", "csv"},
    {"symbols", "--kind", "index,fund", "--format", "csv"},
    {"bars", "000300.SH,510300.SH", "2022-01-01", "2022-12-31", "--raw", "--format", "csv"},
    {"members", "000300.SH", "--history", "--format", "csv"},
    {"members", "000300.SH", "--on", "2023-06-30", "--format", "csv"},
  };
  REQUIRE(local.cli({"copy", "--to", uri_of(database)}).status == 0);
  TestStore moved(TestStore::OnServer{uri_of(database)});
  for (const auto& query : queries) {
    CAPTURE(query);
    const auto want = local.cli(query);
    REQUIRE(want.status == 0);
    CHECK(moved.cli(query).out == want.out);
  }

  // Listings of index_basic and fund_basic, snapshots as `fetch tushare --members` leaves them,
  // and the spans derived from them.
  database.sql("INSERT INTO listings(symbol, name, list_date, status, kind) VALUES"
               " ('000300.SH', '沪深300', 20050408, 'L', 'index'),"
               " ('510300.SH', '沪深300ETF', 20120528, 'L', 'fund');"
               "INSERT INTO member_snapshots VALUES ('000300.SH', 20230630, '600519.SH', 5.9876),"
               " ('000300.SH', 20230630, '000001.SZ', 0.4321), ('000300.SH', 20230731, '600519.SH', 6.01);"
               "INSERT INTO member_spans VALUES ('000300.SH', 'tushare', '600519.SH', 20230630, NULL),"
               " ('000300.SH', 'tushare', '000001.SZ', 20230630, 20230728);");
  const std::vector<std::vector<std::string>> snapshots{
    {"members", "000300.SH", "--source", "tushare", "--history", "--format", "csv"},
    {"members", "000300.SH", "--source", "tushare", "--on", "2023-06-30", "--format", "csv"},
    {"members", "000300.SH", "--source", "tushare", "--on", "2023-07-31", "--format", "csv"},
  };
  CHECK(moved.cli(snapshots[1]).out.find(",5.9876,tushare\n") != std::string::npos);
  CHECK(moved.cli(queries[1]).out.find("510300.SH,") != std::string::npos);
  CHECK(moved.cli(queries[1]).out.find(",fund,沪深300ETF\n") != std::string::npos);
  TempDir back;
  const auto file = (back.path() / "back.db").string();
  REQUIRE(moved.cli({"copy", "--to", file}).status == 0);
  auto every_query = queries;
  every_query.insert(every_query.end(), snapshots.begin(), snapshots.end());
  for (const auto& query : every_query) {
    CAPTURE(query);
    auto argv = std::vector<std::string>{ashare_bin(), "--db", file};
    argv.insert(argv.end(), query.begin(), query.end());
    const auto want = moved.cli(query);
    REQUIRE(want.status == 0);
    CHECK(run_process(argv).out == want.out);
  }
}

TEST_CASE("postgres: an import killed midway leaves nothing behind and locks nothing") {
  PostgresDatabase database;
  TestStore store(TestStore::OnServer{uri_of(database)});
  store.import({fixture("bancob_600519.SH.csv")});
  const auto before = store.cli({"symbols", "--format", "csv"});
  REQUIRE(before.status == 0);
  // 200,000 bars of 20 new symbols on consecutive calendar days up to 2025-11-28 (D16).
  const auto big = store.dir() / "big.csv";
  {
    std::ofstream out(big);
    out << "symbol,trade_date,open,high,low,close,volume,turnover\n";
    const auto last = std::chrono::sys_days{std::chrono::year{2025} / 11 / 28};
    for (int s = 0; s < 20; ++s) {
      for (int i = 9'999; i >= 0; --i) {
        const std::chrono::year_month_day day{last - std::chrono::days{i}};
        char date[16];
        std::snprintf(date, sizeof date, "%04d-%02u-%02u", static_cast<int>(day.year()),
                      static_cast<unsigned>(day.month()), static_cast<unsigned>(day.day()));
        out << 900100 + s << ".SZ," << date << ",10.5,12.25,9.75,11.125," << 1000 + i
            << ",11000.5\n";
      }
    }
  }
  {
    Process import({ashare_bin(), "--db", store.data_locator(), "import", big.string()},
                   {"HOME=" + store.dir().string()});
    // Inside its write transaction, which holds the writers' advisory lock (k_write_lock of
    // src/core/store/postgres/bar_store.cpp: 7305190012190002, its halves in classid and objid)
    // from its BEGIN to its COMMIT, seconds here.
    REQUIRE(poll_until([&] {
      return database.sql("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted"
                          " AND classid = 1700872 AND objid = 397507890")
             == "1\n";
    }));
    REQUIRE(import.wait_for_exit(0ms) == std::nullopt);
    import.send_signal(SIGKILL);
    CHECK(import.wait_for_exit(10s) == 128 + SIGKILL);
  }
  CHECK(store.cli({"symbols", "--format", "csv"}).out == before.out);
  CHECK(database.sql("SELECT count(*) FROM bars WHERE symbol <> '600519.SH'") == "0\n");
  // The killed writer's lock went with its connection: the next import runs, and loads it all.
  const auto again = store.cli({"import", big.string()}, 120s);
  CHECK(again.status == 0);
  CHECK(database.sql("SELECT count(*) FROM bars WHERE symbol <> '600519.SH'") == "200000\n");
}
