// What the black-box tests compute their expected values from: the fixture CSVs read directly,
// the D2 date arithmetic, the D8 rounding, checks shared by several test files, and one shared
// server over every fixture for the tests that only read.
#pragma once

#include "http.hpp"
#include "server_process.hpp"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <iterator>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace bb {

inline constexpr const char* k_schema_version = "2026-05-27";
inline constexpr const char* k_fixture_as_of = "2025-10-23"; // last bar of the bancob fixtures

// One row of a canonical CSV fixture, parsed the way the importer does (strtod is correctly
// rounded, like the importer's decimal conversion).
struct CsvBar {
  std::string symbol;
  std::string date;
  double open = 0;
  double high = 0;
  double low = 0;
  double close = 0;
  std::int64_t volume = 0;
  double turnover = 0;
  std::optional<double> change_pct;
  std::optional<double> factor;
};

// The rows of `path` (columns found by header name), in file order.
std::vector<CsvBar> read_csv(const std::filesystem::path& path);

// The rows of CSV `text` with a header, such as `ashare bars --format csv` prints.
std::vector<CsvBar> read_csv_text(const std::string& text);

// The rows of `rows` with date in [from, to].
std::vector<CsvBar>
in_range(const std::vector<CsvBar>& rows, const std::string& from, const std::string& to);

// D2: midnight at UTC+8 of `iso`, in Unix milliseconds.
std::int64_t t_ms(const std::string& iso);

// `iso` moved by `days` calendar days.
std::string plus_days(const std::string& iso, int days);

// D8: std::round(x * 10000) / 10000.
double round4(double x);

// D8: round4(raw * factor / latest), evaluated left to right.
double adjust(double raw, double factor, double latest);

// Check that `reply` is `status` with exactly {"error": {"code": CODE, "message": non-empty}}
// and an X-Request-Id.
void check_error(const Reply& reply, int status, const std::string& code);

// The error code of an error reply ("" when the body is not an error envelope).
std::string error_code(const Reply& reply);

// Return `body` with its request id (a UUID, new for every request) blanked out, byte for byte
// the rest: what two answers of one request are compared by. Fails the test when it has none.
std::string without_request_id(std::string body);

// D12: every number token outside strings in `json_text` is free of exponent notation.
bool has_no_exponent(const std::string& json_text);

// Whether `id` looks like a request id: a UUID in lower-case hex, 8-4-4-4-12.
bool is_request_id(const std::string& id);

// Whether `text` is a UTC time YYYY-MM-DDTHH:MM:SSZ.
bool is_utc_time(const std::string& text);

// The whitespace-separated words of `line`.
std::vector<std::string> words(const std::string& line);

// The comma-separated fields of CSV `line` (no quoting), an empty last field included.
std::vector<std::string> csv_fields(const std::string& line);

// The trade dates of a bars array.
std::vector<std::string> dates_of(const nlohmann::json& ohlc);

// Write a canonical CSV at `path` (no factors): for each of `symbols`, a bar on each of the `days`
// calendar days up to `last`, with prices that move from day to day and from symbol to symbol, so
// that their JSON is as varied as a market's and does not compress to nothing: data made up at
// any size, for answers larger than the fixtures'.
void write_synthetic_bars(const std::filesystem::path& path,
                          const std::vector<std::string>& symbols,
                          int days,
                          const std::string& last);

// A server over every fixture plus the synthetic 609001.SH (every calendar day from 2023-10-23 to
// 2025-10-23, open 10, high 12, low 9, close 11, volume 100, factor 1), with unmetered keys per
// plan. Created on first use, stopped at exit. Tests must not change its data or these keys.
struct SharedServer {
  TestStore store;
  Key pro;
  Key basic;
  Key free;
  std::optional<ServerProcess> server;
  int port() const { return server->port(); }
};
SharedServer& shared();

// The fixture files imported into the shared server.
using ashare::test::k_fixture_files;

// GET `target` on the shared server with `key` (the shared Pro key unless given).
Reply get(const std::string& target,
          const std::optional<std::string>& key = shared().pro.plaintext);

// The bytes of file `path`; fails the test when it cannot be read.
std::string read_text(const std::filesystem::path& path);

// The X-Credits-Remaining header of `reply` ("" when absent; fails when sent twice).
std::string remaining(const Reply& reply);

// Write `text` to file `path`, replacing what it held.
void write_text(const std::filesystem::path& path, const std::string& text);

// `a` followed by `b`.
std::vector<std::string> concat(std::vector<std::string> a, const std::vector<std::string>& b);

// The helpers of the indicator endpoints' tests (test_indicators_http.cpp and
// test_indicators_d13_http.cpp), in a namespace of their own so that their short names never meet
// another test file's local helpers.
namespace indicator_tests {

// The price series an indicator may be computed over (`series_type`).
inline const std::vector<std::string> k_series_types{"open", "high", "low", "close"};

// The path and query of indicator endpoint `indicator` ("sma", "macd", ...); `query` without '?'.
std::string target(const std::string& indicator, const std::string& query);

// GET indicator endpoint `indicator` with `query` on the shared server.
Reply ind(const std::string& indicator,
          const std::string& query,
          const std::optional<std::string>& key = shared().pro.plaintext);

// The body of a 200 indicator reply (fails the test otherwise), after the checks every one shares:
// JSON, an X-Request-Id repeated as `request_id`, no exponent in a number (D12).
nlohmann::json ok_body(const Reply& reply);

// The keys of JSON object `object`.
std::set<std::string> keys_of(const nlohmann::json& object);

// An indicator value at timestamp `t`.
struct Point {
  std::int64_t t = 0;
  double value = 0;
  bool operator==(const Point&) const = default;
};

// The items of `in` (anything with a timestamp `t`) whose timestamp `keep` accepts.
template <class T>
std::vector<T> filtered(const std::vector<T>& in, const std::function<bool(std::int64_t)>& keep) {
  std::vector<T> out;
  std::copy_if(in.begin(), in.end(), std::back_inserter(out),
               [&](const T& item) { return keep(item.t); });
  return out;
}

// `in` in reverse order.
template <class T> std::vector<T> reversed(std::vector<T> in) {
  std::reverse(in.begin(), in.end());
  return in;
}

// The first `n` items of `in` (all of them when it holds fewer).
template <class T> std::vector<T> first(std::vector<T> in, std::size_t n) {
  in.resize(std::min(in.size(), n));
  return in;
}

// A TA-Lib reference file (tests/data/talib/README.md): per column, the non-empty cells as points.
struct Reference {
  std::map<std::string, std::vector<Point>> columns;
  const std::vector<Point>& column(const std::string& name) const { return columns.at(name); }
};

// tests/data/talib/`symbol`_<adjusted|raw>_`indicator`.csv, read once.
const Reference& reference(const std::string& symbol, bool adjusted, const std::string& indicator);

// `got` has exactly the timestamps of `want`, in order, and values within a relative 1e-9.
void check_matches(const std::vector<Point>& got, const std::vector<Point>& want);

// Return the headers of `reply` but those a HEAD and its GET may differ in (Content-Length, Date,
// X-Request-Id), to check that HEAD answers as GET would (D10).
httplib::Headers headers_but_volatile(const Reply& reply);

// Check a HEAD of `path` with `key` on the wire: a 200 whose bytes end with its headers (no
// body), carrying `X-Credits-Remaining: <remaining>`.
void check_raw_head(int port, const std::string& path, const std::string& key,
                    const std::string& remaining);

} // namespace indicator_tests

// After `keys revoke` of `key` on `store`: return once `port` refuses it for `target`. With the
// keys on PostgreSQL a revoke reaches a server within about 1 s (issue 14), so this polls there
// (until k_patience; the caller's check of the 401 fails the test after it); on SQLite it is
// seen by the next request, so this returns at once.
void await_revoked(const TestStore& store, int port, const std::string& target,
                   const std::string& key);

} // namespace bb
