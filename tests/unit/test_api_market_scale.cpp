// Issue 11: the scale of a market is part of the tests. 500 symbols x 1,000 days (sized for CI;
// bench/ covers 15 M bars) are generated, written as one market-wide file (every symbol of a day,
// then the next day, as a daily dump is concatenated), imported, and a sample of bar requests is
// answered by the API, with and without the history cache, and checked against the generated
// rows themselves.
#include "testutil.hpp"

#include "core/api/dispatch.hpp"
#include "core/api/services.hpp"
#include "core/import/importer.hpp"
#include "core/query/adjustment.hpp"
#include "core/store/sqlite_bar_store.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <bit>
#include <cstdio>
#include <fstream>
#include <map>
#include <random>
#include <string>
#include <vector>

using namespace ashare;
using test::same_bits;

namespace {

constexpr int k_symbols = 500;
constexpr int k_days = 1000;

std::string symbol_name(int i) {
  char text[16];
  std::snprintf(text, sizeof text, i < 250 ? "%06d.SH" : "%06d.SZ", i < 250 ? 600000 + i : 1 + i);
  return text;
}

std::string two_decimals(std::int64_t cents) {
  char text[32];
  std::snprintf(text, sizeof text, "%lld.%02lld", static_cast<long long>(cents / 100),
                static_cast<long long>(cents % 100));
  return text;
}

struct Market {
  std::map<std::string, std::vector<domain::Bar>> bars; // what the file says, by symbol
  std::filesystem::path file;
};

// Write the market to `path`: a random walk in cents, volumes in lots, a factor that steps once a
// year on a dividend, and about 1% of days suspended (no row).
Market write_market(const std::filesystem::path& path) {
  Market market;
  market.file = path;
  std::mt19937_64 random(11);
  std::vector<domain::Date> days;
  for (auto day = test::date("2020-01-06"); static_cast<int>(days.size()) < k_days;
       day = domain::Date(day.days() + std::chrono::days(1))) {
    const auto weekday = std::chrono::weekday(day.days()).c_encoding();
    if (weekday != 0 && weekday != 6) {
      days.push_back(day);
    }
  }
  std::vector<std::int64_t> price(k_symbols);
  std::vector<double> factor(k_symbols, 1.0);
  for (int s = 0; s < k_symbols; ++s) {
    price[static_cast<std::size_t>(s)] = 300 + static_cast<std::int64_t>(random() % 30000);
  }
  std::ofstream out(path);
  out << "symbol,trade_date,open,high,low,close,volume,turnover,change_pct,factor\n";
  for (std::size_t d = 0; d < days.size(); ++d) {
    for (int s = 0; s < k_symbols; ++s) {
      auto& cents = price[static_cast<std::size_t>(s)];
      const auto step = static_cast<std::int64_t>(random() % 41) - 20; // -20..20 per mille
      cents = std::max<std::int64_t>(100, cents + cents * step / 1000);
      if (random() % 100 == 0) {
        continue; // suspended
      }
      auto& f = factor[static_cast<std::size_t>(s)];
      if (d % 250 == static_cast<std::size_t>(s % 250) && d > 0) {
        f = std::strtod(two_decimals(static_cast<std::int64_t>(f * 100 * 1.02 + 0.5)).c_str(),
                        nullptr);
      }
      const auto open = cents - cents / 200, close = cents;
      const auto high = std::max(open, close) + 3, low = std::min(open, close) - 3;
      const auto lots = 1 + static_cast<std::int64_t>(random() % 100000);
      const std::string turnover = two_decimals(lots * 100 * close) + "1"; // 3 decimals
      char change[32];
      std::snprintf(change, sizeof change, "%.4f", static_cast<double>(step) / 10);
      char factor_text[32];
      std::snprintf(factor_text, sizeof factor_text, "%.2f", f);
      const std::string row = symbol_name(s) + "," + days[d].iso() + "," + two_decimals(open) + ","
                              + two_decimals(high) + "," + two_decimals(low) + ","
                              + two_decimals(close) + "," + std::to_string(lots * 100) + ","
                              + turnover + "," + change + "," + factor_text;
      out << row << "\n";
      auto number = [](const std::string& text) { return std::strtod(text.c_str(), nullptr); };
      market.bars[symbol_name(s)].push_back(
          domain::Bar{days[d], number(two_decimals(open)), number(two_decimals(high)),
                      number(two_decimals(low)), number(two_decimals(close)), lots * 100,
                      number(turnover), number(change), number(factor_text)});
    }
  }
  return market;
}

} // namespace

TEST_CASE("issue 11: a market of 500 symbols x 1,000 days imports and answers as generated") {
  test::TempDir dir;
  const auto market = write_market(dir / "market.csv");
  std::size_t rows = 0;
  for (const auto& [symbol, bars] : market.bars) {
    rows += bars.size();
  }
  REQUIRE(market.bars.size() == k_symbols);
  {
    store::SqliteBarStore store(dir / "ashare.db");
    const auto report = import::import_file(store, market.file, {});
    REQUIRE(report.ok());
    REQUIRE(report->committed);
    CHECK(report->rows_loaded == static_cast<std::int64_t>(rows));
    CHECK(report->symbols.size() == k_symbols);
  }

  api::Services cached(dir / "ashare.db", dir / "ashare-keys.db");
  api::Services one_shot(dir / "ashare.db", dir / "ashare-keys.db");
  one_shot.cache_histories = false;
  const api::Caller pro{0, auth::Plan::pro, false};
  std::mt19937 random(5);
  for (int sample = 0; sample < 60; ++sample) {
    const auto& [symbol, bars] = *std::next(market.bars.begin(), random() % k_symbols);
    const auto from = bars[random() % bars.size()].trade_date;
    const auto to = domain::Date(from.days() + std::chrono::days(random() % 400));
    const bool adjusted = random() % 2 == 0;
    const bool desc = random() % 2 == 0;
    const int limit = 1 + static_cast<int>(random() % 300);
    const std::string query = "symbol=" + symbol + "&adjusted=" + (adjusted ? "true" : "false")
                              + "&sort=" + (desc ? "desc" : "asc")
                              + "&limit=" + std::to_string(limit);
    const std::string path = "/v1/ohlc/range/1/day/" + from.iso() + "/" + to.iso();
    CAPTURE(path);
    CAPTURE(query);

    // What the generated rows say: the window, sorted, limited, adjusted to the latest factor.
    std::vector<domain::Bar> expected;
    for (const auto& bar : bars) {
      if (from <= bar.trade_date && bar.trade_date <= to) {
        expected.push_back(adjusted ? query::adjust_forward(bar, bars.back().factor) : bar);
      }
    }
    if (desc) {
      std::reverse(expected.begin(), expected.end());
    }
    const bool has_more = static_cast<int>(expected.size()) > limit;
    expected.resize(std::min<std::size_t>(expected.size(), static_cast<std::size_t>(limit)));

    for (auto* services : {&cached, &one_shot}) {
      const auto response =
          api::dispatch_trusted(api::Request{"GET", path, query, std::nullopt}, *services, pro);
      REQUIRE(response.status == 200);
      const auto item = nlohmann::json::parse(response.body.str()); // one symbol's is flat (SPEC)
      const auto& got = item.at("ohlc");
      REQUIRE(got.size() == expected.size());
      CHECK(item.contains("next_url") == has_more);
      for (std::size_t i = 0; i < expected.size(); ++i) {
        const auto& bar = expected[i];
        const auto& row = got[i];
        REQUIRE(row.at("trade_date") == bar.trade_date.iso());
        CHECK(same_bits(row.at("open").get<double>(), bar.open));
        CHECK(same_bits(row.at("high").get<double>(), bar.high));
        CHECK(same_bits(row.at("low").get<double>(), bar.low));
        CHECK(same_bits(row.at("close").get<double>(), bar.close));
        CHECK(row.at("volume").get<std::int64_t>() == bar.volume);
        CHECK(same_bits(row.at("turnover").get<double>(), bar.turnover));
        CHECK(same_bits(row.at("change_pct").get<double>(), bar.change_pct));
        CHECK(same_bits(row.at("factor").get<double>(), bar.factor));
      }
    }
  }
}
