// Shared by the indicator tests: the canonical CSV fixtures of tests/data as D9's indicator input,
// and TA-Lib's reference values in tests/data/talib (written by talib/generate.mjs).
#pragma once

#include "support/test_data.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <limits>
#include <span>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

namespace ashare::indicator_fixtures {

inline constexpr double nan = std::numeric_limits<double>::quiet_NaN();

// The largest relative difference from TA-Lib's value that D9 and issue 3 accept.
inline constexpr double k_max_relative_error = 1e-9;

// The shortest text that reads back as `x`.
inline std::string shortest(double x) {
  std::array<char, 32> buffer{};
  const auto result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), x);
  return {buffer.data(), result.ptr};
}

using test::data_dir;

inline std::vector<std::string_view> split(std::string_view line) {
  std::vector<std::string_view> fields;
  for (;;) {
    const auto comma = line.find(',');
    fields.push_back(line.substr(0, comma));
    if (comma == std::string_view::npos) {
      return fields;
    }
    line.remove_prefix(comma + 1);
  }
}

// The lines of a small CSV file, header first, without line ends or empty lines.
inline std::vector<std::string> read_lines(const std::filesystem::path& path) {
  std::ifstream in(path);
  REQUIRE_MESSAGE(in.good(), "cannot open " << path.string());
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.back() == '\r') {
      line.pop_back();
    }
    if (!line.empty()) {
      lines.push_back(line);
    }
  }
  REQUIRE_MESSAGE(!lines.empty(), path.string() << " is empty");
  return lines;
}

inline double parse_double(std::string_view text) {
  double x = nan;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), x);
  REQUIRE_MESSAGE((ec == std::errc{} && end == text.data() + text.size() && std::isfinite(x)),
                  "not a number: '" << std::string(text) << "'");
  return x;
}

inline constexpr std::array<std::string_view, 4> k_series_types{"open", "high", "low", "close"};

enum class Mode { raw, adjusted };

// One symbol's stored history in a canonical CSV fixture, ascending by trade_date, as D9 defines
// the indicator input: each series_type raw, or forward-adjusted unrounded as
// price * factor / F_latest (left to right in double; F_latest = the factor of the latest row).
struct History {
  std::string symbol;
  std::vector<std::string> dates;
  std::array<std::vector<double>, k_series_types.size()> series; // in k_series_types order
};

inline History load_history(const std::string& file, Mode mode) {
  const auto lines = read_lines(data_dir() / file);
  const auto header = split(lines.front());
  const auto column = [&](std::string_view name) -> std::ptrdiff_t {
    const auto it = std::find(header.begin(), header.end(), name);
    return it == header.end() ? -1 : it - header.begin();
  };
  struct Row {
    std::string symbol;
    std::string date;
    std::array<double, k_series_types.size()> prices{};
    double factor = 1;
  };
  std::vector<Row> rows;
  for (std::size_t i = 1; i < lines.size(); ++i) {
    const auto fields = split(lines[i]);
    REQUIRE(fields.size() == header.size());
    const auto field = [&](std::string_view name) {
      const auto at = column(name);
      REQUIRE_MESSAGE(at >= 0, file << " has no column " << std::string(name));
      return fields[static_cast<std::size_t>(at)];
    };
    Row row{std::string(field("symbol")), std::string(field("trade_date"))};
    for (std::size_t t = 0; t < k_series_types.size(); ++t) {
      row.prices[t] = parse_double(field(k_series_types[t]));
    }
    if (mode == Mode::adjusted) {
      row.factor = parse_double(field("factor"));
    }
    rows.push_back(row);
  }
  std::stable_sort(rows.begin(), rows.end(),
                   [](const Row& a, const Row& b) { return a.date < b.date; });

  History history;
  history.symbol = rows.front().symbol;
  const double latest = rows.back().factor;
  for (const auto& row : rows) {
    REQUIRE(row.symbol == history.symbol);
    history.dates.push_back(row.date);
    for (std::size_t t = 0; t < k_series_types.size(); ++t) {
      history.series[t].push_back(mode == Mode::adjusted ? row.prices[t] * row.factor / latest
                                                         : row.prices[t]);
    }
  }
  return history;
}
// The rows of TA-Lib's values in tests/data/talib/`fixture`, header first, each split at commas.
struct TalibTable {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
};

inline TalibTable read_talib(const std::string& fixture, const History& history) {
  const auto lines = read_lines(data_dir() / "talib" / fixture);
  TalibTable table;
  for (const auto field : split(lines.front())) {
    table.header.emplace_back(field);
  }
  REQUIRE(lines.size() - 1 == history.dates.size());
  std::size_t date_mismatches = 0;
  for (std::size_t i = 1; i < lines.size(); ++i) {
    const auto fields = split(lines[i]);
    REQUIRE(fields.size() == table.header.size());
    table.rows.emplace_back(fields.begin(), fields.end());
    date_mismatches += table.rows.back()[0] == history.dates[i - 1] ? 0 : 1;
  }
  CHECK(date_mismatches == 0);
  return table;
}

// Check `ours` against column `name` of `table`: NaN exactly in the warm-up (before `lookback`,
// where TA-Lib has no value), and TA-Lib's value to k_max_relative_error from there on.
inline void check_column(const TalibTable& table,
                         const std::string& name,
                         const std::vector<double>& ours,
                         std::size_t lookback) {
  CAPTURE(name);
  const auto at = std::find(table.header.begin(), table.header.end(), name);
  REQUIRE_MESSAGE(at != table.header.end(), "no column " << name);
  const auto column = static_cast<std::size_t>(at - table.header.begin());
  REQUIRE(ours.size() == table.rows.size());
  std::size_t values = 0;
  std::size_t problems = 0;
  std::string first_problem;
  for (std::size_t i = 0; i < ours.size(); ++i) {
    const auto& cell = table.rows[i][column];
    bool good = false;
    if (i < lookback || cell.empty()) {
      good = i < lookback && cell.empty() && std::isnan(ours[i]);
    } else {
      ++values;
      const double theirs = parse_double(cell);
      const double error = std::abs(ours[i] - theirs);
      good = error == 0 || error / std::abs(theirs) <= k_max_relative_error;
    }
    if (!good && problems++ == 0) {
      first_problem = "index " + std::to_string(i) + " (" + table.rows[i][0] + "): ours "
                      + shortest(ours[i]) + ", TA-Lib '" + cell + "'";
    }
  }
  CAPTURE(first_problem);
  CHECK(problems == 0);
  CHECK(values == (ours.size() > lookback ? ours.size() - lookback : 0));
}

} // namespace ashare::indicator_fixtures
