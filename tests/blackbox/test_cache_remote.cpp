// Remote mode through the cache (issue 4, "The cache in remote mode"; D8): a real `ashare serve`
// on 127.0.0.1:0 is the remote, and every claim is proved by counting the requests that reach it
// in its access log (one stderr line per request: METHOD PATH STATUS <us>us REQUEST_ID).
#include "fixtures.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <thread>

namespace bb {
namespace {

// One logged request: its method, path (no query) and status.
struct Logged {
  std::string method;
  std::string path;
  int status = 0;
};

// A remote (`ashare serve` over three fixtures, with a pro and a free key) and a client directory
// holding the client's data store and cache.
class CacheWorld {
public:
  CacheWorld() {
    // Sources of their own (D8: meta.source names the served symbols' sources; the cache keeps
    // each as the remote reported it).
    m_store.import({fixture("bancob_600519.SH.csv")}, {"--source", "bb-tushare"});
    m_store.import({fixture("bancob_600036.SH.csv")}, {"--source", "bb-akshare"});
    m_store.import({fixture("bancob_002594.SZ.csv")}, {"--source", "bb-tushare"});
    pro = m_store.create_key("pro");
    free = m_store.create_key("free");
    // One network thread: the access log's lines come out in the order the requests were answered,
    // so a sentinel request's line marks where the earlier ones end.
    m_server.emplace(m_store, std::vector<std::string>{"--threads", "1"});
  }

  std::string base_url() const { return m_server->base_url(); }
  int port() const { return m_server->port(); }
  const TestStore& server_store() const { return m_store; }
  std::filesystem::path cache_db() const { return m_client.path() / "client-cache.db"; }

  // Run the CLI (`binary`, by default the build's) in remote mode with `key` against the remote,
  // on the client's stores.
  RunResult remote(const std::vector<std::string>& args,
                   const std::string& key,
                   const std::string& binary = ashare_bin()) const {
    std::vector<std::string> argv{binary,
                                  "--db",
                                  (m_client.path() / "client.db").string(),
                                  "--cache-db",
                                  cache_db().string(),
                                  "--base-url",
                                  base_url(),
                                  "--api-key",
                                  key};
    argv.insert(argv.end(), args.begin(), args.end());
    return run_process(argv, k_cli_timeout, client_env());
  }
  RunResult remote(const std::vector<std::string>& args) const {
    return remote(args, pro.plaintext);
  }

  // Run the CLI in local mode on the remote's own store: the server's answer, in-process.
  RunResult local(const std::vector<std::string>& args) const {
    std::vector<std::string> argv{ashare_bin(), "--db", m_store.data_locator()};
    argv.insert(argv.end(), args.begin(), args.end());
    return run_process(argv, k_cli_timeout, client_env());
  }

  // Run `action` and return the requests that reached the remote meanwhile.
  template <class F> std::vector<Logged> requests_during(F&& action) {
    const auto mark = log_through_sentinel(0); // the lines of earlier requests are out
    action();
    const auto end = log_through_sentinel(mark);
    return logged_between(mark, end);
  }

  Key pro;
  Key free;

private:
  std::vector<std::string> client_env() const {
    const auto home = m_client.path().string();
    return {"HOME=" + home, "XDG_DATA_HOME=" + home + "/xdg", "XDG_CONFIG_HOME=" + home + "/cfg"};
  }

  // Send a sentinel request and wait (bounded) until its line is in the access log after byte
  // `from`; return where that line ends. With one network thread every request answered before
  // the sentinel has its line before it.
  std::size_t log_through_sentinel(std::size_t from) {
    const std::string line = "GET /cache-test-sentinel-" + std::to_string(++m_sentinels) + " ";
    request(m_server->port(), line.substr(4, line.size() - 5));
    std::size_t end = std::string::npos;
    REQUIRE_MESSAGE(poll_until([&] {
                      const auto log = m_server->process().stderr_text();
                      const auto at = log.find(line, from);
                      end = at == std::string::npos ? at : log.find('\n', at);
                      return end != std::string::npos;
                    }),
                    "the sentinel request never reached the access log");
    return end + 1;
  }

  // The requests logged in bytes [from, to), sentinels left out.
  std::vector<Logged> logged_between(std::size_t from, std::size_t to) {
    const auto log = m_server->process().stderr_text().substr(from, to - from);
    std::vector<Logged> out;
    for (const auto& line : split_lines(log)) {
      const auto cells = words(line);
      if (cells.size() >= 3 && (cells[0] == "GET" || cells[0] == "HEAD")
          && cells[1].rfind("/cache-test-sentinel-", 0) != 0) {
        out.push_back(Logged{cells[0], cells[1], std::stoi(cells[2])});
      }
    }
    return out;
  }

  TestStore m_store;
  TempDir m_client;
  std::optional<ServerProcess> m_server;
  int m_sentinels = 0;
};

std::vector<std::string> paths(const std::vector<Logged>& requests) {
  std::vector<std::string> out;
  for (const auto& logged : requests) {
    out.push_back(logged.path);
  }
  return out;
}

std::size_t count_bars_requests(const std::vector<Logged>& requests) {
  return static_cast<std::size_t>(
      std::count_if(requests.begin(), requests.end(),
                    [](const Logged& r) { return r.path.rfind("/v1/ohlc/range/", 0) == 0; }));
}

std::string range_path(const std::string& from, const std::string& to) {
  return "/v1/ohlc/range/1/day/" + from + "/" + to;
}

// A JSON body without what differs between two answers of the same data (request id, credits).
nlohmann::json comparable(const std::string& body) {
  auto json = nlohmann::json::parse(body);
  json.erase("request_id");
  if (json.contains("meta")) {
    json["meta"].erase("credits_charged");
  }
  return json;
}

// Run `args` in remote mode and in local mode on the remote's store; require the same output.
void check_same_output(CacheWorld& world, const std::vector<std::string>& args, bool json) {
  const auto remote = world.remote(args);
  const auto local = world.local(args);
  INFO("remote: " << describe(remote));
  INFO("local: " << describe(local));
  CHECK(remote.status == local.status);
  CHECK(remote.err == local.err);
  if (json) {
    CHECK(comparable(remote.out) == comparable(local.out));
  } else {
    CHECK(remote.out == local.out);
  }
}

} // namespace

TEST_CASE("cache: a covered query makes no request, a partly covered one fetches only the gap") {
  CacheWorld world;
  const std::vector<std::string> q1{"bars",       "600519.SH", "2025-01-01",
                                    "2025-03-31", "--format",  "csv"};

  // Cold: /healthz (free), the window (raw), and the anchor: the remote's latest bar (D8).
  RunResult first;
  auto requests = world.requests_during([&] { first = world.remote(q1); });
  INFO(describe(first));
  REQUIRE(first.status == 0);
  CHECK(first.out == world.local(q1).out);
  REQUIRE(requests.size() == 3);
  CHECK(requests[0].path == "/healthz");
  CHECK(requests[1].path == range_path("2025-01-01", "2025-03-31"));
  CHECK(requests[2].path.find("/" + std::string(k_fixture_as_of)) != std::string::npos);

  SUBCASE("the same window, a window inside it, and --offline: no request") {
    for (const auto& args :
         {q1,
          {"bars", "600519.SH", "2025-02-01", "2025-03-15", "--format", "csv"},
          {"--offline", "bars", "600519.SH", "2025-01-01", "2025-03-31", "--format", "csv"},
          {"bars", "600519.SH", "2025-01-01", "2025-03-31", "--raw", "--format", "csv"}}) {
      RunResult run;
      requests = world.requests_during([&] { run = world.remote(args); });
      INFO(describe(run));
      CHECK(run.status == 0);
      CHECK(paths(requests) == std::vector<std::string>{});
      CHECK(run.out == world.local(args).out);
    }
  }
  SUBCASE("a wider window fetches only what lies outside the covered one") {
    RunResult run;
    requests = world.requests_during([&] {
      run = world.remote({"bars", "600519.SH", "2024-10-01", "2025-03-31", "--format", "csv"});
    });
    CHECK(run.status == 0);
    CHECK(paths(requests) == std::vector<std::string>{range_path("2024-10-01", "2024-12-31")});
    requests = world.requests_during([&] {
      run = world.remote({"bars", "600519.SH", "2024-09-01", "2025-04-30", "--format", "csv"});
    });
    CHECK(run.status == 0);
    CHECK(paths(requests)
          == std::vector<std::string>{range_path("2024-09-01", "2024-09-30"),
                                      range_path("2025-04-01", "2025-04-30")});
    CHECK(run.out
          == world.local({"bars", "600519.SH", "2024-09-01", "2025-04-30", "--format", "csv"}).out);
  }
  SUBCASE("an indicator of a symbol whose whole history is not cached goes to the remote") {
    RunResult run;
    requests = world.requests_during([&] {
      run = world.remote({"sma", "600519.SH", "--format", "json"});
    });
    CHECK(run.status == 0);
    CHECK(paths(requests) == std::vector<std::string>{"/v1/indicators/sma"});
  }
}

TEST_CASE("cache: an answer from the cache needs no network program, a miss runs ashare-net (P6)") {
  CacheWorld world;
  const std::vector<std::string> query{"bars", "600519.SH", "2025-01-01", "2025-03-31", "--format",
                                       "csv"};
  REQUIRE(world.remote(query).status == 0); // fills the cache

  // `ashare` alone, without `ashare-net` beside it: a query the cache covers is answered in the
  // process that was started, which has no network code (cli/net/hand_over.hpp).
  TempDir alone;
  const auto binary = alone.path() / "ashare";
  std::filesystem::copy_file(ashare_bin(), binary);
  std::filesystem::permissions(binary, std::filesystem::perms::owner_all);
  RunResult cached;
  const auto requests =
    world.requests_during([&] { cached = world.remote(query, world.pro.plaintext, binary); });
  INFO(describe(cached));
  CHECK(cached.status == 0);
  CHECK(cached.out == world.local(query).out);
  CHECK(requests.empty());

  // A window the cache does not hold needs the network: the command moves to `ashare-net`, and
  // without it says so, having printed nothing else.
  const auto missed = world.remote({"bars", "600519.SH", "2024-01-01", "2024-03-31"},
                                   world.pro.plaintext, binary.string());
  CHECK(missed.status == 1);
  CHECK(missed.out.empty());
  CHECK(missed.err
        == "ashare: error: cannot run the network program ashare-net (needed for remote mode, "
           "fetch and serve):\n  "
             + (alone.path() / "ashare-net").string() + ": not found\n  "
             + (alone.path().parent_path() / "libexec" / "ashare" / "ashare-net").string()
             + ": not found\n");
}

TEST_CASE("cache: output equals the server's own answer (D8), json and csv") {
  CacheWorld world;
  const std::vector<std::vector<std::string>> cases{
      {"bars", "600519.SH", "2024-06-01", "2024-07-31"},
      {"bars", "600519.SH,600036.SH,002594.SZ", "2024-01-01", "2025-10-23", "--summary", "--limit",
       "30", "--sort", "desc"},
      {"bars", "600519.SH", "2024-06-01", "2024-07-31", "--raw", "--summary"},
      {"bars", "002594.SZ", "2025-07-01", "2025-08-31", "--summary"},
      {"bars", "600519.SH,999999.SH", "2024-06-01", "2024-06-30"}, // D1: an unknown item, exit 1
      {"bars", "600036.SH"}, // default window: a year to as_of
      {"bars", "600519.SH", "2023-01-01", "2025-12-31", "--limit", "7", "--sort", "desc"},
  };
  for (const auto& args : cases) {
    CAPTURE(args[1]);
    auto json = args;
    json.insert(json.end(), {"--format", "json"});
    check_same_output(world, json, true);
    auto csv = args;
    csv.insert(csv.end(), {"--format", "csv"});
    if (std::find(args.begin(), args.end(), "--summary") == args.end()) {
      check_same_output(world, csv, false);
    }
  }
  // D8: meta.source names the sources of the symbols served, each once, in request order; with
  // none served, the last import's.
  for (const auto& [symbols, source] : std::vector<std::pair<std::string, std::string>>{
         {"600519.SH", "bb-tushare"},
         {"600036.SH", "bb-akshare"},
         {"600036.SH,600519.SH,002594.SZ", "bb-akshare,bb-tushare"},
         {"002594.SZ,999999.SH,600519.SH", "bb-tushare"},
         {"999998.SH,999999.SH", "bb-tushare"}}) {
    CAPTURE(symbols);
    const std::vector<std::string> args{"bars", symbols, "2024-06-03", "2024-06-07", "--format",
                                        "json"};
    CHECK(nlohmann::json::parse(world.local(args).out)["meta"]["source"] == source);
    CHECK(nlohmann::json::parse(world.remote(args).out)["meta"]["source"] == source);
  }
  // And the body equals the one the server sends over HTTP for the same request.
  const auto run = world.remote({"bars", "600519.SH", "2024-06-01", "2024-07-31", "--summary",
                                 "--limit", "20", "--format", "json"});
  const auto reply = request(
      std::stoi(world.base_url().substr(world.base_url().rfind(':') + 1)),
      bars_target("2024-06-01", "2024-07-31", "symbol=600519.SH&sort=asc&limit=20&include=summary"),
      world.pro.plaintext);
  REQUIRE(reply.status == 200);
  CHECK(comparable(run.out) == comparable(reply.body));
}

TEST_CASE(
    "cache: after a new ex-dividend factor reaches the remote, --refresh answers as the server") {
  CacheWorld world;
  const std::vector<std::string> window{"bars", "600519.SH", "2025-09-01", "2025-10-31"};
  auto csv = window;
  csv.insert(csv.end(), {"--format", "csv"});
  const auto before = world.remote(csv);
  REQUIRE(before.status == 0);
  CHECK(before.out == world.local(csv).out);

  // Two new sessions at the remote, after its as_of 2025-10-23, with a new factor (8.305 -> 8.5).
  const auto file = world.server_store().dir() / "600519.SH-new.csv";
  write_text(file,
             "symbol,trade_date,open,high,low,close,volume,turnover,change_pct,factor\n"
             "600519.SH,2025-10-24,1460.0,1470.0,1450.0,1465.5,1000000,1465500000,0.5,8.5\n"
             "600519.SH,2025-10-27,1466.0,1480.0,1460.0,1475.25,1100000,1622775000,0.66,8.5\n");
  world.server_store().import({file}, {"--source", "bb-cache"});
  // With the store on PostgreSQL the server hears of the import within 1 s (issue 14).
  REQUIRE(await_on_server(world.server_store(), [&] {
    return request(world.port(), "/healthz").json()["as_of"] == "2025-10-27";
  }));
  const auto server_after = world.local(csv);
  REQUIRE(server_after.out != before.out); // the anchor moved: every adjusted price changed

  auto refresh = csv;
  refresh.insert(refresh.begin(), "--refresh");
  RunResult refreshed;
  const auto requests = world.requests_during([&] { refreshed = world.remote(refresh); });
  INFO(describe(refreshed));
  CHECK(refreshed.status == 0);
  CHECK(refreshed.out == server_after.out);
  // The new as_of, then only the sessions after the old as_of, whose last bar is the new anchor.
  CHECK(paths(requests)
        == std::vector<std::string>{"/healthz", range_path("2025-10-24", "2025-10-27")});

  auto json = window;
  json.insert(json.end(), {"--format", "json", "--summary"});
  std::vector<Logged> after;
  after = world.requests_during([&] { check_same_output(world, json, true); });
  CHECK(count_bars_requests(after) == 0); // refreshed once: answered from the cache
}

TEST_CASE("cache: --offline with a cold cache exits 1, says why and sends nothing") {
  CacheWorld world;
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"--offline", "bars", "600519.SH", "2025-01-01", "2025-03-31"},
           {"--offline", "bars", "600519.SH"},
           {"--offline", "sma", "600519.SH"}}) {
    CAPTURE(args[2]);
    RunResult run;
    const auto requests = world.requests_during([&] { run = world.remote(args); });
    INFO(describe(run));
    CHECK(run.status == 1);
    CHECK(run.out == "");
    CHECK(run.err.rfind("ashare: error: --offline: the cache of " + world.base_url(), 0) == 0);
    CHECK(run.err.find("run without --offline") != std::string::npos);
    CHECK(paths(requests) == std::vector<std::string>{});
  }
  // Warm for one window, a window beyond it still fails offline, naming what is missing.
  REQUIRE(world.remote({"bars", "600519.SH", "2025-01-01", "2025-03-31"}).status == 0);
  RunResult run;
  const auto requests = world.requests_during([&] {
    run = world.remote({"--offline", "bars", "600519.SH", "2024-12-01", "2025-03-31"});
  });
  CHECK(run.status == 1);
  CHECK(run.err.find("has no bars of 600519.SH from 2024-12-01 to 2024-12-31")
        != std::string::npos);
  CHECK(paths(requests) == std::vector<std::string>{});
}

TEST_CASE("sync: whole history in one batch, idempotent, and indicators from the cache") {
  CacheWorld world;
  const std::vector<std::string> sync{"sync", "600519.SH,600036.SH", "002594.SZ", "--plan", "pro"};
  RunResult run;
  auto requests = world.requests_during([&] { run = world.remote(sync); });
  INFO(describe(run));
  REQUIRE(run.status == 0);
  // Pro reaches all history: from the first SSE session, three symbols in one request.
  CHECK(paths(requests)
        == std::vector<std::string>{"/healthz", range_path("1990-12-19", k_fixture_as_of)});
  CHECK(run.err
        == "sync: 3 symbols, 1990-12-19 to 2025-10-23: 1,500 bars fetched in 1 requests, "
           "0 symbols already cached\n");

  requests = world.requests_during([&] { run = world.remote(sync); });
  CHECK(run.status == 0);
  CHECK(count_bars_requests(requests) == 0);
  CHECK(run.err.find("0 bars fetched in 0 requests, 3 symbols already cached")
        != std::string::npos);

  // The whole history is cached: indicators are computed locally and equal the server's (D9).
  requests = world.requests_during([&] {
    for (const auto& args : std::vector<std::vector<std::string>>{
             {"sma", "600519.SH", "--format", "json"},
             {"ema", "600519.SH,600036.SH", "--window", "10", "--order", "asc", "--limit", "100",
              "--underlying", "--format", "json"},
             {"rsi", "002594.SZ", "--raw", "--from", "2025-01-01", "--to", "2025-06-30", "--limit",
              "500", "--format", "json"},
             {"sma", "002594.SZ", "--at", "2025-07-29", "--window", "5", "--format", "csv"},
             {"bars", "600036.SH", "--format", "csv"}}) {
      check_same_output(world, args, args.back() == "json");
    }
  });
  CHECK(paths(requests) == std::vector<std::string>{});

  // ashare info shows what the cache holds for this remote.
  const auto info = world.remote({"info"});
  CHECK(info.status == 0);
  CHECK(info.out.find("cached symbols: 3\ncached bars: 1500\n") != std::string::npos);
  CHECK(info.out.find("cached 600519.SH: 500 bars, 1990-12-19..2025-10-23\n") != std::string::npos);
}

TEST_CASE("sync: on PLAN_LIMIT the batch is halved and retried; history limits are reported") {
  CacheWorld world;
  // A free key, synced as if basic (5 symbols a request): the remote refuses 3 at once (D6).
  RunResult run;
  auto requests = world.requests_during([&] {
    run = world.remote(
        {"sync", "600519.SH", "600036.SH", "002594.SZ", "--plan", "basic", "--from", "2024-01-02"},
        world.free.plaintext);
  });
  INFO(describe(run));
  CHECK(run.status == 0);
  std::vector<int> statuses;
  for (const auto& logged : requests) {
    if (logged.path == range_path("2024-01-02", k_fixture_as_of)) {
      statuses.push_back(logged.status);
    }
  }
  CHECK(statuses == std::vector<int>{403, 200, 200, 200});
  CHECK(count_bars_requests(requests) == 4);

  // The synced window answers queries of that key without a request.
  requests = world.requests_during([&] {
    run = world.remote({"bars", "002594.SZ", "2024-03-01", "2024-03-31", "--format", "csv"},
                       world.free.plaintext);
  });
  CHECK(run.status == 0);
  CHECK(count_bars_requests(requests) == 0);

  // History beyond the free plan: the remote's PLAN_LIMIT, as the remote words it, exit 4.
  run = world.remote({"sync", "600519.SH", "--from", "2020-01-02"}, world.free.plaintext);
  CHECK(run.status == 4);
  CHECK(run.err.find("ashare: error: PLAN_LIMIT: from \"2020-01-02\" is earlier than")
        != std::string::npos);
}

TEST_CASE("cache: errors of the remote pass through unchanged") {
  CacheWorld world;
  const auto port = std::stoi(world.base_url().substr(world.base_url().rfind(':') + 1));
  // 403: a free key reaching older history than its plan allows.
  const auto server = request(port, bars_target("2020-01-02", "2024-01-31", "symbol=600519.SH"),
                              world.free.plaintext);
  REQUIRE(server.status == 403);
  auto run = world.remote({"bars", "600519.SH", "2020-01-02", "2024-01-31"}, world.free.plaintext);
  CHECK(run.status == 4);
  CHECK(run.err
        == "ashare: error: PLAN_LIMIT: " + server.json()["error"]["message"].get<std::string>()
               + "\n");
  // 401: an unknown key.
  run = world.remote({"bars", "600519.SH", "2025-01-01", "2025-01-31"}, "ask_unknown");
  CHECK(run.status == 4);
  CHECK(run.err.rfind("ashare: error: UNAUTHORIZED: ", 0) == 0);
  // 400: an unknown single symbol (D1), as the server says it.
  run = world.remote({"bars", "999999.SH", "2025-01-01", "2025-01-31"});
  CHECK(run.status == 1);
  CHECK(run.err == "ashare: error: INVALID_SYMBOL: unknown symbol \"999999.SH\"\n");
}

TEST_CASE("cache: a --refresh of unchanged data moves no body and spends no credit (D17)") {
  CacheWorld world;
  const auto metered = world.server_store().create_key("pro", 100, "refresh");
  const std::vector<std::string> query{"bars", "600519.SH", "2024-01-01", "2024-06-30",
                                       "--format", "csv", "--refresh"};
  const auto first = world.remote(query, metered.plaintext);
  REQUIRE(first.status == 0);
  const auto spent = world.server_store().listed_credits(metered.id);
  CHECK(spent != "100");
  // The next refreshes ask again (/healthz, the anchor): the remote answers 304 to the anchor,
  // which the cache kept with its ETag, so nothing is charged and the output is the same.
  for (int round = 0; round < 2; ++round) {
    RunResult again;
    const auto requests =
      world.requests_during([&] { again = world.remote(query, metered.plaintext); });
    INFO(describe(again));
    CHECK(again.status == 0);
    CHECK(again.out == first.out);
    CHECK(count_bars_requests(requests) == 1);
    for (const auto& logged : requests) {
      CAPTURE(logged.path);
      CHECK(logged.status == (logged.path == "/healthz" ? 200 : 304));
    }
    CHECK(world.server_store().listed_credits(metered.id) == spent);
  }
  SUBCASE("an import on the remote changes the answer: a 200, charged") {
    world.server_store().import({fixture("jenny_000001.SZ.csv")});
    const auto requests =
      world.requests_during([&] { REQUIRE(world.remote(query, metered.plaintext).status == 0); });
    CHECK(std::count_if(requests.begin(), requests.end(),
                        [](const Logged& r) { return r.status == 304; })
          == 0);
    CHECK(world.server_store().listed_credits(metered.id)
          == std::to_string(std::stoll(spent) - 1));
  }
}

namespace {

std::string gzip_text(const std::string& text) {
  z_stream stream{};
  REQUIRE(deflateInit2(&stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8,
                       Z_DEFAULT_STRATEGY)
          == Z_OK);
  std::string out(deflateBound(&stream, text.size()), '\0');
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  stream.avail_in = static_cast<uInt>(text.size());
  stream.next_out = reinterpret_cast<Bytef*>(out.data());
  stream.avail_out = static_cast<uInt>(out.size());
  REQUIRE(deflate(&stream, Z_FINISH) == Z_STREAM_END);
  out.resize(stream.total_out);
  deflateEnd(&stream);
  return out;
}

} // namespace

TEST_CASE("cache: remote mode asks for gzip and reads a compressed answer (D17)") {
  // A stand-in remote that answers /healthz only compressed, and records the request's head.
  const int listener = ::socket(AF_INET, SOCK_STREAM, 0);
  REQUIRE(listener >= 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  REQUIRE(::bind(listener, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0);
  REQUIRE(::listen(listener, 8) == 0);
  socklen_t length = sizeof address;
  REQUIRE(::getsockname(listener, reinterpret_cast<sockaddr*>(&address), &length) == 0);
  std::string head;
  std::thread remote([&] {
    const int connection = ::accept(listener, nullptr, nullptr);
    if (connection < 0) {
      return;
    }
    char buffer[4096];
    while (head.find("\r\n\r\n") == std::string::npos) {
      const auto got = ::recv(connection, buffer, sizeof buffer, 0);
      if (got <= 0) {
        break;
      }
      head.append(buffer, static_cast<std::size_t>(got));
    }
    const auto body =
      gzip_text(R"({"status":"ok","as_of":"2031-02-03","schema_version":"2026-05-27"})");
    const auto response = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Encoding: "
                          "gzip\r\nConnection: close\r\nContent-Length: "
                          + std::to_string(body.size()) + "\r\n\r\n" + body;
    ::send(connection, response.data(), response.size(), MSG_NOSIGNAL);
    ::close(connection);
  });
  const TempDir client;
  const auto run = run_process({ashare_bin(), "--db", (client.path() / "c.db").string(),
                                "--base-url", "http://127.0.0.1:" + std::to_string(ntohs(address.sin_port)),
                                "--retries", "0", "info"},
                               k_cli_timeout, {"HOME=" + client.path().string()});
  remote.join();
  ::close(listener);
  INFO("exit " << run.status << "\n" << run.out << run.err);
  CHECK(run.status == 0);
  CHECK(run.out.find("as_of: 2031-02-03\n") != std::string::npos);
  std::string lower = head;
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  CHECK(lower.find("\r\naccept-encoding: gzip\r\n") != std::string::npos);
}

} // namespace bb
