// What the black-box tests compute their expected values from: the fixture CSVs read directly,
// the D2 date arithmetic, the D8 rounding, checks shared by several test files, and one shared
// server over every fixture for the tests that only read.
#pragma once

#include "http.hpp"
#include "server_process.hpp"

#include <cstdint>
#include <optional>
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

// D12: every number token outside strings in `json_text` is free of exponent notation.
bool has_no_exponent(const std::string& json_text);

// Whether `id` looks like a request id: a UUID in lower-case hex, 8-4-4-4-12.
bool is_request_id(const std::string& id);

// Whether `text` is a UTC time YYYY-MM-DDTHH:MM:SSZ.
bool is_utc_time(const std::string& text);

// The whitespace-separated words of `line`.
std::vector<std::string> words(const std::string& line);

// The trade dates of a bars array.
std::vector<std::string> dates_of(const nlohmann::json& ohlc);

// A server over every fixture plus the synthetic 900001.SH (every calendar day from 2023-10-23 to
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
inline const std::vector<std::string> k_fixture_files{
    "bancob_600519.SH.csv", "bancob_600036.SH.csv", "bancob_002594.SZ.csv",
    "jenny_000001.SZ.csv",  "jenny_600276.SH.csv",
};

} // namespace bb
