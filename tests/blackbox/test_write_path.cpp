// The write path of `ashare serve` (issue 35): a bars body goes out as many pieces (the envelope
// the core writes, and views into the cached rendering of each symbol's history), a gzip body as
// the request's own head spliced before a compressed tail kept per network thread, over TCP or
// TLS. Whatever the pieces, the bytes on the wire are one whole answer: in order, none dropped or
// repeated, as long as its Content-Length says, nothing after a HEAD's head, and the same bytes
// as an uncached server writes. A client that reads slowly gets them all, and an import, a
// rebuilt history or an evicted gzip tail while a body is still being sent changes nothing in it
// (the suite also runs under ASan: a piece freed while it is being sent is a crash there).
// Histories load off the requests' path: a case that needs them loaded (rendered) waits until the
// server says none is left to load (SIGUSR1), never for a length of time.
#include "fixtures.hpp"
#include "raw_http.hpp"

#include <doctest/doctest.h>

#include <csignal>
#include <fstream>
#include <set>
#include <sstream>

using namespace bb;
using nlohmann::json;

namespace {

// A made-up market beside the fixtures, for answers of megabytes: 8 symbols of 1,500 bars.
std::vector<std::string> market_symbols() {
  std::vector<std::string> out;
  for (int i = 0; i < 8; ++i) {
    out.push_back(std::to_string(900200 + i) + ".SZ");
  }
  return out;
}
constexpr int k_market_days = 1500;

std::string joined(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& item : items) {
    out += (out.empty() ? "" : ",") + item;
  }
  return out;
}

const std::string k_all_from = "1990-12-19";
const std::string k_all_to = "2030-12-31";
// Every fixture symbol, 600519.SH last (so that the end of an answer is its history).
const std::string k_fixture_symbols = "000001.SZ,600276.SH,600036.SH,002594.SZ,600519.SH";

// The answers asked for: one piece of bars per window (ascending), one per bar (descending), one
// per symbol, none (an empty window, an unknown symbol), cut by a limit, with a summary, raw.
const std::string k_year = bars_target("2024-01-01", "2024-12-31", "symbol=600519.SH");
const std::string k_years = bars_target(k_all_from, k_all_to, "symbol=000001.SZ");
const std::string k_years_desc = bars_target(k_all_from, k_all_to, "symbol=000001.SZ&sort=desc");
const std::string k_raw_desc =
    bars_target(k_all_from, k_all_to, "symbol=600519.SH&adjusted=false&sort=desc");
const std::string k_fixtures = bars_target(k_all_from, k_all_to, "symbol=" + k_fixture_symbols);
const std::string k_fixtures_summary =
    bars_target(k_all_from, k_all_to, "symbol=" + k_fixture_symbols + "&include=summary");
const std::string k_fixtures_desc_cut =
    bars_target(k_all_from, k_all_to, "symbol=" + k_fixture_symbols + "&sort=desc&limit=100");
const std::string k_years_cut = bars_target(k_all_from, k_all_to, "symbol=000001.SZ&limit=250");
const std::string k_summary =
    bars_target("2023-01-01", "2025-12-31", "symbol=600519.SH&include=summary");
const std::string k_with_unknown =
    bars_target("2024-01-01", "2024-12-31", "symbol=600519.SH,999999.SZ,000001.SZ");
const std::string k_weekend = bars_target("2024-06-15", "2024-06-16", "symbol=600519.SH");
const std::string k_market =
    bars_target(k_all_from, k_all_to, "symbol=" + joined(market_symbols()));
// The market, then the fixtures: about 2.8 MB, whose end is 600519.SH's history.
const std::string k_everything = bars_target(
    k_all_from, k_all_to, "symbol=" + joined(market_symbols()) + "," + k_fixture_symbols);

const std::vector<std::string> k_bars_targets{k_year,
                                              k_years,
                                              k_years_desc,
                                              k_raw_desc,
                                              k_fixtures,
                                              k_fixtures_summary,
                                              k_fixtures_desc_cut,
                                              k_years_cut,
                                              k_summary,
                                              k_with_unknown,
                                              k_weekend,
                                              k_market,
                                              k_everything};

const std::string k_gzip = "Accept-Encoding: gzip\r\n";
const std::string k_close = "Connection: close\r\n";

// A store with every fixture and the made-up market, and an unmetered Pro key.
struct Market {
  TestStore store;
  Key key;
  Market() {
    std::vector<std::filesystem::path> files;
    for (const auto& name : k_fixture_files) {
      files.push_back(fixture(name));
    }
    const auto market = store.dir() / "market.csv";
    write_synthetic_bars(market, market_symbols(), k_market_days, k_fixture_as_of);
    files.push_back(market);
    store.import(files);
    key = store.create_key("pro", std::nullopt, "write-path");
  }
};

// The options of every server here and `more`: no rate limit in the way of a burst of requests,
// one network thread (so one gzip cache).
std::vector<std::string> serve_args(const std::vector<std::string>& more = {}) {
  std::vector<std::string> args{"--rate-limit", "off", "--threads", "1"};
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

// The read-only cases share one store and two servers on it: one that caches whole histories
// (512 MiB: every history here is rendered from its second request on) and one with the smallest
// budget (1 MiB: none is rendered), whose answers are the reference.
struct Shared {
  Market market;
  std::optional<ServerProcess> cached;
  std::optional<ServerProcess> uncached;
};

Shared& world() {
  static Shared instance;
  if (!instance.cached) {
    instance.cached.emplace(instance.market.store, serve_args({"--cache-budget", "512"}));
    instance.uncached.emplace(instance.market.store, serve_args({"--cache-budget", "1"}));
  }
  return instance;
}

const std::string& key() {
  return world().market.key.plaintext;
}

// What a server says on SIGUSR1, before the number of histories it has still to load.
const std::string k_loads_line = "ashare: histories not yet loaded: ";

// Wait until `server` has loaded every history its requests asked for (rendered from a symbol's
// second request on, by a thread of its own): asked with SIGUSR1 until it says none is left. So
// the requests that follow are answered from the histories the case meant to warm.
void await_loaded(ServerProcess& server) {
  auto& process = server.process();
  const bool loaded = poll_until([&] {
    const auto from = process.stderr_text().size();
    process.send_signal(SIGUSR1);
    const auto line = process.wait_for_stderr_line(k_loads_line, k_wait, from);
    REQUIRE_MESSAGE(line, "no answer to SIGUSR1");
    return std::stoul(line->substr(k_loads_line.size())) == 0;
  });
  REQUIRE_MESSAGE(loaded, "the histories asked for were not loaded within " << k_wait.count()
                                                                           << " ms");
}

// What `server` wrote to stderr besides its access log (an ASan report, an error), and whether it
// has exited: for the message of a failure.
std::string trouble_of(ServerProcess& server) {
  std::string out;
  std::istringstream lines(server.process().stderr_text());
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("GET ", 0) != 0 && line.rfind("HEAD ", 0) != 0
        && line.rfind(k_loads_line, 0) != 0) {
      out += "  " + line + "\n";
    }
  }
  return (server.process().exited() ? "exited; its stderr:\n" : "running; its stderr:\n") + out;
}

// trouble_of() the shared servers.
std::string world_trouble() {
  return "the caching server " + trouble_of(*world().cached) + "the uncached server "
         + trouble_of(*world().uncached);
}

// Return where `a` and `b` first differ, with some bytes of each around it: a failure message
// that does not print megabytes.
std::string first_difference(const std::string& a, const std::string& b) {
  std::size_t at = 0;
  while (at < a.size() && at < b.size() && a[at] == b[at]) {
    ++at;
  }
  const auto around = [&](const std::string& text) {
    return at > text.size() ? std::string() : text.substr(at < 40 ? 0 : at - 40, 80);
  };
  std::ostringstream out;
  out << "sizes " << a.size() << " and " << b.size() << ", first difference at byte " << at
      << ":\n  got  ..." << around(a) << "...\n  want ..." << around(b) << "...";
  return out.str();
}

// The body of `response`, inflated when it is gzip-coded.
std::string plain_body(const RawResponse& response) {
  return response.header("Content-Encoding") == "gzip" ? gunzip(response.body) : response.body;
}

// The request id in bars body `body` ("" when it has none).
std::string request_id_in(const std::string& body) {
  const std::string field = "\"request_id\":\"";
  const auto at = body.find(field);
  return at == std::string::npos ? std::string() : body.substr(at + field.size(), 36);
}

// Check that every list of bars in bars body `body` is in `sort` order by date and as long as its
// resultsCount: what a piece out of order, dropped or repeated breaks, whatever the reference.
void check_bars_order(const std::string& body, const std::string& sort) {
  const auto parsed = json::parse(body);
  std::vector<json> items;
  if (parsed.contains("results")) {
    items.assign(parsed["results"].begin(), parsed["results"].end());
  } else {
    items.push_back(parsed);
  }
  for (const auto& item : items) {
    if (!item.contains("ohlc")) {
      continue; // an unknown symbol
    }
    const auto dates = dates_of(item["ohlc"]);
    CHECK(item["resultsCount"] == dates.size());
    for (std::size_t i = 1; i < dates.size(); ++i) {
      if (sort == "desc" ? !(dates[i - 1] > dates[i]) : !(dates[i - 1] < dates[i])) {
        FAIL_CHECK("bar " << i << " of " << item.value("symbol", "?")
                          << " out of order: " << dates[i - 1] << " then " << dates[i]);
        break;
      }
    }
  }
}

// Send a `method` request for `target` with `key` and `extra_headers` (adding Connection: close)
// on a connection of its own to `port`; return the response, after checking that nothing
// follows it.
RawResponse fetch_as(int port,
                     const std::string& key,
                     const std::string& target,
                     const std::string& extra_headers = "",
                     const std::string& method = "GET") {
  RawConnection connection(port);
  REQUIRE(connection.send(raw_request(target, key, extra_headers + k_close, method)));
  auto response = connection.read_response(k_wait, method == "HEAD");
  REQUIRE(response);
  CHECK(connection.receive_until_closed(k_wait));
  CHECK(connection.pending().empty());
  return std::move(*response);
}

// fetch_as() with the shared key.
RawResponse fetch(int port, const std::string& target, const std::string& extra_headers = "") {
  return fetch_as(port, key(), target, extra_headers);
}

// The answer to a bars request for `target` from the uncached server, checked once: a 200 whose
// body is JSON, in order.
const RawResponse& reference(const std::string& target) {
  static std::map<std::string, RawResponse> answers;
  if (const auto found = answers.find(target); found != answers.end()) {
    return found->second;
  }
  auto response = fetch(world().uncached->port(), target);
  CAPTURE(target);
  REQUIRE(response.status == 200);
  REQUIRE(json::accept(response.body));
  check_bars_order(response.body, target.find("sort=desc") != std::string::npos ? "desc" : "asc");
  return answers.emplace(target, std::move(response)).first->second;
}

// Check that `got`, an answer of a bars request, is `want` but for its request id: byte for byte
// (each inflated first when gzip-coded), with a Content-Length that is the bytes received, and its
// request id repeated in the body. A body equal to a checked reference is JSON, in order.
void check_same_bars(const RawResponse& got, const RawResponse& want) {
  CHECK(got.status == want.status);
  CHECK(got.header_count("Content-Length") == 1);
  CHECK(got.header("Content-Length") == std::to_string(got.body.size()));
  CHECK(got.header("ETag") == want.header("ETag"));
  const auto body = plain_body(got);
  CHECK(request_id_in(body) == got.header("X-Request-Id"));
  const auto a = without_request_id(body);
  const auto b = without_request_id(plain_body(want));
  const bool same = a == b;
  CHECK_MESSAGE(same, first_difference(a, b));
}

// Check that `got` is a gzip-coded bars answer whose JSON is `plain`'s but for its request id.
void check_gzip_bars(const RawResponse& got, const RawResponse& plain) {
  CHECK(got.header("Content-Encoding") == "gzip");
  CHECK(got.header("Vary") == "Accept-Encoding");
  CHECK(got.body.size() < plain.body.size() / 2);
  check_same_bars(got, plain);
}

// The size on the wire of `response`: its head, the blank line, its body.
std::size_t wire_size(const RawResponse& response) {
  return response.head.size() + 4 + response.body.size();
}

// Read one response on `connection` that ends it, and check that nothing follows it.
void check_last(RawConnection& connection) {
  const auto last = connection.read_response(k_wait);
  REQUIRE(last);
  CHECK(last->status == 200);
  CHECK(connection.receive_until_closed(k_wait));
  CHECK(connection.pending().empty());
}

// A copy of fixture `name` in `dir` whose every close is its open: other data for the same
// symbol, still valid (D16).
std::filesystem::path changed_copy(const std::string& name, const std::filesystem::path& dir) {
  std::ifstream in(fixture(name));
  std::string line;
  std::getline(in, line);
  const auto header = csv_fields(line);
  const auto column = [&](const std::string& field) {
    return static_cast<std::size_t>(std::find(header.begin(), header.end(), field)
                                    - header.begin());
  };
  const auto open = column("open");
  const auto close = column("close");
  REQUIRE(std::max(open, close) < header.size());
  const auto path = dir / ("changed_" + name);
  std::ofstream out(path);
  out << line << '\n';
  while (std::getline(in, line)) {
    if (line.empty()) {
      continue;
    }
    auto fields = csv_fields(line);
    fields[close] = fields[open];
    out << joined(fields) << '\n';
  }
  return path;
}

} // namespace

TEST_CASE(
    "issue 35: a bars body of many pieces is whole, in order, and what an uncached server sends") {
  INFO(world_trouble());
  const auto port = world().cached->port();
  // A history is rendered from its second request on, by a thread of its own: the first rounds
  // are answered from the store's rows or the compact form, the later ones from the renderings.
  RawConnection connection(port);
  for (int round = 0; round < 4; ++round) {
    for (const auto& target : k_bars_targets) {
      CAPTURE(round);
      CAPTURE(target);
      REQUIRE(connection.send(raw_request(target, key())));
      const auto response = connection.read_response(k_wait);
      REQUIRE(response);
      check_same_bars(*response, reference(target));
    }
    await_loaded(*world().cached);
  }
  // Nothing follows the last answer: every Content-Length was the bytes sent.
  REQUIRE(connection.send(raw_request("/healthz", std::nullopt, k_close)));
  check_last(connection);
  // The answers are many pieces, and larger than the socket buffers.
  CHECK(reference(k_fixtures).body.size() > 600'000);
  CHECK(reference(k_everything).body.size() > 2'500'000);
  CHECK(json::parse(reference(k_weekend).body)["resultsCount"] == 0);
  CHECK(json::parse(reference(k_with_unknown).body)["status"] == "PARTIAL");
  CHECK(json::parse(reference(k_years_cut).body).contains("next_url"));
  CHECK(json::parse(reference(k_summary).body).contains("summary"));
}

TEST_CASE("issue 35: pipelined requests of every kind are answered in order, each as if alone") {
  INFO(world_trouble());
  const auto port = world().cached->port();
  struct Ask {
    std::string target;
    std::string headers;
    std::string method = "GET";
  };
  const auto etag = fetch(port, k_year).header("ETag");
  REQUIRE_FALSE(etag.empty());
  const std::vector<Ask> asks{
      {k_fixtures, ""},
      {k_fixtures, "", "HEAD"},
      {k_years_desc, ""},
      {"/nowhere", ""},
      {k_year, k_gzip},
      {k_year, k_gzip, "HEAD"},
      {"/healthz", ""},
      {k_fixtures_summary, ""},
      {k_year, "If-None-Match: " + etag + "\r\n"}, // 304: a head and no body
      {k_weekend, ""},
      {k_everything, ""},
      {k_with_unknown, ""},
      {k_years, "", "HEAD"},
      {k_fixtures_desc_cut, k_gzip},
      {k_raw_desc, ""},
      {"/healthz", "", "HEAD"},
      {k_years_cut, ""},
      {k_everything, k_gzip},
      {k_market, k_gzip, "HEAD"},
      {k_years, ""},
  };
  // What each request gets on a connection of its own (for a HEAD, what its GET gets).
  std::vector<RawResponse> alone;
  for (const auto& ask : asks) {
    alone.push_back(fetch(port, ask.target, ask.headers));
  }
  for (int pass = 0; pass < 2; ++pass) { // the second with every history rendered
    CAPTURE(pass);
    RawConnection connection(port);
    std::string batch;
    for (const auto& ask : asks) {
      batch += raw_request(ask.target, key(), ask.headers, ask.method);
    }
    batch += raw_request("/healthz", std::nullopt, k_close);
    REQUIRE(connection.send(batch)); // one write
    std::set<std::string> ids;
    for (std::size_t i = 0; i < asks.size(); ++i) {
      const auto& ask = asks[i];
      CAPTURE(i);
      CAPTURE(ask.method + " " + ask.target + " " + ask.headers);
      const bool bodiless = ask.method == "HEAD" || alone[i].status == 304;
      const auto response = connection.read_response(k_wait, bodiless);
      REQUIRE(response);
      CHECK(response->status == alone[i].status);
      CHECK(response->header("Content-Encoding") == alone[i].header("Content-Encoding"));
      ids.insert(response->header("X-Request-Id"));
      if (ask.method == "HEAD") {
        // GET's head, Content-Length included; read as a head alone, so the next response
        // parses only if no body byte followed it.
        CHECK(response->header("Content-Length") == alone[i].header("Content-Length"));
        CHECK(response->header("ETag") == alone[i].header("ETag"));
      } else if (alone[i].status == 304) {
        CHECK(response->header("Content-Length").empty());
        CHECK(response->header("ETag") == etag);
      } else if (alone[i].status == 200 && ask.target.rfind("/v1/", 0) == 0) {
        check_same_bars(*response, alone[i]);
      } else {
        CHECK(response->body == alone[i].body);
      }
    }
    check_last(connection);
    CHECK(ids.size() == asks.size());
  }
  // And the answers alone are the uncached server's.
  for (std::size_t i = 0; i < asks.size(); ++i) {
    if (alone[i].status == 200 && asks[i].target.rfind("/v1/", 0) == 0) {
      CAPTURE(asks[i].target + " " + asks[i].headers);
      if (asks[i].headers == k_gzip) {
        check_gzip_bars(alone[i], reference(asks[i].target));
      } else {
        check_same_bars(alone[i], reference(asks[i].target));
      }
    }
  }
}

TEST_CASE("issue 35: gzip answers are whole members whose JSON is the plain answer's") {
  INFO(world_trouble());
  const auto port = world().cached->port();
  // The tail after the request id is compressed once per ETag and kept; each answer is its own
  // head spliced before it: the same length every time, whatever the request id.
  for (const auto& target : {k_fixtures, k_years_desc, k_everything}) {
    CAPTURE(target);
    const auto& plain = reference(target);
    RawConnection connection(port);
    std::set<std::string> lengths;
    for (int i = 0; i < 5; ++i) {
      CAPTURE(i);
      REQUIRE(connection.send(raw_request(target, key(), k_gzip)));
      const auto zipped = connection.read_response(k_wait);
      REQUIRE(zipped);
      check_gzip_bars(*zipped, plain);
      lengths.insert(zipped->header("Content-Length"));
      // HEAD: the same Content-Length, no byte of the body.
      REQUIRE(connection.send(raw_request(target, key(), k_gzip, "HEAD")));
      const auto head = connection.read_response(k_wait, true);
      REQUIRE(head);
      CHECK(head->header("Content-Length") == zipped->header("Content-Length"));
    }
    CHECK(lengths.size() == 1);
    REQUIRE(connection.send(raw_request("/healthz", std::nullopt, k_close)));
    check_last(connection);
  }
  // Pipelined, twice over.
  const std::vector<std::string> targets{k_fixtures,  k_years_desc,       k_year,
                                         k_years_cut, k_fixtures_summary, k_raw_desc};
  std::string batch;
  for (int round = 0; round < 2; ++round) {
    for (const auto& target : targets) {
      batch += raw_request(target, key(), k_gzip);
    }
  }
  batch += raw_request("/healthz", std::nullopt, k_close);
  RawConnection connection(port);
  REQUIRE(connection.send(batch));
  for (int round = 0; round < 2; ++round) {
    for (const auto& target : targets) {
      CAPTURE(round);
      CAPTURE(target);
      const auto zipped = connection.read_response(k_wait);
      REQUIRE(zipped);
      check_gzip_bars(*zipped, reference(target));
    }
  }
  check_last(connection);
}

TEST_CASE("issue 35: over TLS, large, pipelined, HEAD and gzip answers are plain HTTP's bytes") {
  INFO(world_trouble());
  TempDir pki("ashare-bb-pki");
  make_test_pki(pki.path());
  ServerProcess tls(world().market.store,
                    serve_args({"--tls-cert", (pki.path() / "server.pem").string(), "--tls-key",
                                (pki.path() / "server.key").string()}));
  INFO("the TLS server " << trouble_of(tls));
  const RawOptions trusting{std::nullopt, std::nullopt, pki.path() / "ca.pem"};
  const std::vector<std::pair<std::string, std::string>> asks{
      {k_fixtures, ""},   {k_years_desc, ""}, {k_everything, ""},       {k_fixtures, k_gzip},
      {k_market, k_gzip}, {k_weekend, ""},    {k_fixtures_summary, ""}, {k_years_cut, k_gzip},
  };
  // Every answer over TLS is the plain HTTP one (the same store), but for its request id.
  const auto check_answer = [](const RawResponse& response,
                               const std::pair<std::string, std::string>& ask) {
    if (ask.second.empty()) {
      check_same_bars(response, reference(ask.first));
    } else {
      check_gzip_bars(response, reference(ask.first));
    }
  };

  {
    INFO("one request at a time, with a HEAD after each, on one connection");
    RawConnection connection(tls.port(), trusting);
    for (int round = 0; round < 2; ++round) {
      for (const auto& ask : asks) {
        CAPTURE(round);
        CAPTURE(ask.first + " " + ask.second);
        REQUIRE(connection.send(raw_request(ask.first, key(), ask.second)));
        const auto response = connection.read_response(k_wait);
        REQUIRE(response);
        check_answer(*response, ask);
        REQUIRE(connection.send(raw_request(ask.first, key(), ask.second, "HEAD")));
        const auto head = connection.read_response(k_wait, true);
        REQUIRE(head);
        CHECK(head->header("Content-Length") == response->header("Content-Length"));
      }
    }
    REQUIRE(connection.send(raw_request("/healthz", std::nullopt, k_close)));
    check_last(connection);
  }
  {
    INFO("pipelined in one write, a HEAD after each");
    RawConnection connection(tls.port(), trusting);
    std::string batch;
    for (const auto& [target, headers] : asks) {
      batch += raw_request(target, key(), headers);
      batch += raw_request(target, key(), headers, "HEAD");
    }
    batch += raw_request("/healthz", std::nullopt, k_close);
    REQUIRE(connection.send(batch));
    for (const auto& ask : asks) {
      CAPTURE(ask.first + " " + ask.second);
      const auto response = connection.read_response(k_wait);
      REQUIRE(response);
      check_answer(*response, ask);
      const auto head = connection.read_response(k_wait, true);
      REQUIRE(head);
      CHECK(head->status == 200);
      CHECK(head->header("Content-Length") == response->header("Content-Length"));
    }
    check_last(connection);
  }
  {
    INFO("pipelined to a client that reads slowly");
    RawConnection connection(
        tls.port(), RawOptions{k_slow.receive_buffer, k_slow.max_segment, trusting.tls_ca});
    connection.read_slowly(8192, std::chrono::milliseconds(1));
    std::string batch;
    for (const std::size_t i : {2u, 4u, 0u}) { // everything, the market gzipped, the fixtures
      batch += raw_request(asks[i].first, key(), asks[i].second);
    }
    batch += raw_request("/healthz", std::nullopt, k_close);
    REQUIRE(connection.send(batch));
    for (const std::size_t i : {2u, 4u, 0u}) {
      CAPTURE(asks[i].first + " " + asks[i].second);
      const auto response = connection.read_response(k_wait);
      REQUIRE(response);
      check_answer(*response, asks[i]);
    }
    check_last(connection);
  }
}

TEST_CASE("issue 35: a client that reads slowly gets every byte of large answers, in order") {
  INFO(world_trouble());
  const auto port = world().cached->port();
  for (const auto& target : {k_everything, k_fixtures}) { // rendered after their second request
    fetch(port, target);
    fetch(port, target);
  }
  await_loaded(*world().cached);
  const std::vector<std::pair<std::string, std::string>> asks{{k_everything, ""},
                                                              {k_fixtures, k_gzip},
                                                              {k_years_desc, ""},
                                                              {k_everything, k_gzip},
                                                              {k_fixtures, ""}};
  // Pipelined one behind another: the server resumes each write where the kernel took it up to,
  // many times over.
  RawConnection connection(port, k_slow);
  connection.read_slowly(4096, std::chrono::milliseconds(1));
  std::string batch;
  for (const auto& [target, headers] : asks) {
    batch += raw_request(target, key(), headers);
  }
  batch += raw_request("/healthz", std::nullopt, k_close);
  REQUIRE(connection.send(batch));
  // The server holds most of the first answer itself until the client reads it: what it has
  // handed the kernel and the client has not read stays small while the client reads it all,
  // looked at every 64 KiB.
  const auto first = wire_size(reference(k_everything));
  std::size_t most_in_kernel = 0;
  for (std::size_t read = 0; read < first; read = std::min(first, read + (64u << 10))) {
    REQUIRE(connection.receive_at_least(read, k_wait));
    most_in_kernel =
      std::max(most_in_kernel, connection.sent_by_server(port) - connection.received());
  }
  CHECK(most_in_kernel < first / 2);
  for (const auto& [target, headers] : asks) {
    CAPTURE(target + " " + headers);
    const auto response = connection.read_response(k_wait);
    REQUIRE(response);
    if (headers.empty()) {
      check_same_bars(*response, reference(target));
    } else {
      check_gzip_bars(*response, reference(target));
    }
  }
  check_last(connection);
}

TEST_CASE(
    "issue 35: an import, rebuilt histories and evicted gzip tails never change a body in flight") {
  // Its own store: the data changes.
  Market market;
  const auto& key = market.key.plaintext;
  // One server with room for every history, one with room to render a single 500-bar history
  // (4 MiB: an eighth of it for rendered ones); a generous write timeout for the held sends.
  ServerProcess roomy(market.store,
                      serve_args({"--write-timeout", "300", "--cache-budget", "512"}));
  ServerProcess tight(market.store, serve_args({"--write-timeout", "300", "--cache-budget", "4"}));
  INFO("the roomy server " << trouble_of(roomy) << "the tight server " << trouble_of(tight));
  const auto ask = [&](int port, const std::string& target, const std::string& headers = "") {
    auto response = fetch_as(port, key, target, headers);
    REQUIRE(response.status == 200);
    return response;
  };
  const auto k_600519 = bars_target(k_all_from, k_all_to, "symbol=600519.SH");
  // Warm the caches: the tight server renders 600519.SH alone (the other histories are too big
  // for its share, or come later and stay compact), the roomy one every history; the roomy one
  // keeps the compressed tail of the answer.
  for (int round = 0; round < 3; ++round) {
    ask(tight.port(), k_600519);
    await_loaded(tight);
  }
  for (int round = 0; round < 3; ++round) {
    ask(roomy.port(), k_everything);
    ask(tight.port(), k_everything);
    await_loaded(roomy);
    await_loaded(tight);
  }
  const auto before = ask(roomy.port(), k_everything);
  const auto before_gzip = ask(roomy.port(), k_everything, k_gzip);
  REQUIRE(json::accept(before.body));
  check_same_bars(ask(tight.port(), k_everything), before);
  check_same_bars(ask(roomy.port(), k_everything, k_gzip), before_gzip);
  const auto fixtures_part = before.body.size() - before.body.find("{\"symbol\":\"000001.SZ\"");
  REQUIRE(fixtures_part < before.body.size());

  // Three sends held by a client that reads the head and stops: plain on both servers (the end
  // of the body is the fixtures' rendered histories), gzip on the roomy one (most of the body is
  // its kept compressed tail).
  struct Held {
    std::string name;
    int port;
    std::string headers;
    const RawResponse* expected;
    std::unique_ptr<RawConnection> connection;
  };
  std::vector<Held> held;
  held.push_back({"roomy, plain", roomy.port(), "", &before, nullptr});
  held.push_back({"tight, plain", tight.port(), "", &before, nullptr});
  held.push_back({"roomy, gzip", roomy.port(), k_gzip, &before_gzip, nullptr});
  // Still with the server: all of the fixtures' part, or half of the compressed body; checked
  // again after the changes below, which shows it was held all the while.
  const auto still_held = [&](const Held& h) {
    const auto sent = h.connection->sent_by_server(h.port);
    const auto total = wire_size(*h.expected);
    INFO("the server has written " << sent << " bytes of " << total);
    return sent < (h.headers.empty() ? total - fixtures_part : total / 2);
  };
  for (auto& h : held) {
    CAPTURE(h.name);
    h.connection = std::make_unique<RawConnection>(h.port, k_slow);
    REQUIRE(h.connection->send(raw_request(k_everything, key, h.headers + k_close)));
    REQUIRE(h.connection->receive_at_least(1, k_wait));
    REQUIRE(still_held(h));
  }

  // Meanwhile, new data for every fixture symbol: a new store generation, every cached history
  // stale. Asked for on other connections, the servers replace each stale history (the renderings
  // the held answers were made of go) with a new one.
  std::vector<std::filesystem::path> changed;
  for (const auto& name : k_fixture_files) {
    changed.push_back(changed_copy(name, market.store.dir()));
  }
  market.store.import(changed);
  // A server sees the import at once on SQLite, within 1 s on PostgreSQL (issue 14).
  CHECK(await_on_server(market.store, [&] {
    return ask(roomy.port(), k_everything).header("ETag") != before.header("ETag")
           && ask(tight.port(), k_everything).header("ETag") != before.header("ETag");
  }));
  const auto k_600036 = bars_target(k_all_from, k_all_to, "symbol=600036.SH");
  RawResponse after;
  for (int round = 0; round < 4; ++round) {
    for (const auto port : {roomy.port(), tight.port()}) {
      after = ask(port, k_everything);
      ask(port, k_600519);
      ask(port, k_600036);
    }
    await_loaded(roomy);
    await_loaded(tight);
  }
  // 600036.SH asked for more than twice as often as 600519.SH lately: the tight server renders it,
  // evicting 600519.SH's new rendering.
  for (int round = 0; round < 40; ++round) {
    ask(tight.port(), k_600036);
  }
  // And the roomy server's gzip cache (8 MiB a network thread, least recently used out first)
  // takes more than its budget of other tails: the market's answers from other first days, each
  // an ETag of its own.
  std::size_t compressed = 0;
  for (int day = 0; day < 200 && compressed < (10u << 20); ++day) {
    compressed += ask(roomy.port(),
                      bars_target(plus_days("2021-06-01", day), k_all_to,
                                  "symbol=" + joined(market_symbols())),
                      k_gzip)
                      .body.size();
  }
  CHECK(compressed >= (10u << 20));

  // The held answers are whole, with the data from before the import.
  for (auto& h : held) {
    CAPTURE(h.name);
    auto& connection = *h.connection;
    CHECK(still_held(h)); // it was still sending, the same part as before the changes
    const auto response = connection.read_response(k_wait);
    REQUIRE(response);
    CHECK(response->header("Content-Encoding") == h.expected->header("Content-Encoding"));
    check_same_bars(*response, *h.expected);
    CHECK(connection.receive_until_closed(k_wait));
    CHECK(connection.pending().empty());
  }
  // The import took effect: every close of the fixtures is now its open.
  CHECK(after.header("ETag") != before.header("ETag"));
  const auto now = json::parse(after.body);
  for (const auto& item : now["results"]) {
    const auto symbol = item["symbol"].get<std::string>();
    if (k_fixture_symbols.find(symbol) == std::string::npos) {
      continue; // the market's
    }
    CAPTURE(symbol);
    REQUIRE(item["ohlc"].size() >= 500);
    std::size_t moved = 0;
    for (const auto& bar : item["ohlc"]) {
      moved += bar["close"] != bar["open"] ? 1 : 0;
    }
    CHECK(moved == 0);
  }
  check_same_bars(ask(roomy.port(), k_everything), after);
  check_same_bars(ask(tight.port(), k_everything), after);
}
