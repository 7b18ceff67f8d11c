#include "testutil.hpp"

#include "core/store/sqlite_bar_store.hpp"
#include "core/store/schema.hpp"
#include "core/store/stored_number.hpp"

#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <vector>

using namespace ashare;
using test::same_bits;

namespace {

double parse_17(const char* text) {
  return std::strtod(text, nullptr);
}

} // namespace

TEST_CASE("store::find_scaled") {
  const std::vector<std::pair<double, std::optional<std::int64_t>>> table{
      {1578.032, 15780320},
      {0.1, 1000},
      {7.768, 77680},
      {-99.1234, -991234},
      {0.0, 0},
      {2565773540.0, 25657735400000},
      {0.30000000000000004, std::nullopt}, // 17 significant digits
      {123456.78901234567, std::nullopt},
      {1.0000000000000002, std::nullopt},
      {0.00001, std::nullopt}, // finer than 1/10000
      {-0.0, std::nullopt},    // the sign bit would be lost
      {1e300, std::nullopt},
      {std::numeric_limits<double>::quiet_NaN(), std::nullopt},
      {std::numeric_limits<double>::infinity(), std::nullopt},
  };
  for (const auto& [value, expected] : table) {
    CAPTURE(value);
    CHECK(store::find_scaled(value) == expected);
    if (expected) {
      CHECK(same_bits(store::from_scaled(*expected), value));
    }
  }
}

TEST_CASE("store::find_scaled finds what llround finds") {
  // The reference: llround, then the same exactness check.
  const auto reference = [](double value) -> std::optional<std::int64_t> {
    const double scaled = value * static_cast<double>(store::k_number_scale);
    if (!(std::fabs(scaled) < 9007199254740992.0)) {
      return std::nullopt;
    }
    const auto whole = static_cast<std::int64_t>(std::llround(scaled));
    return same_bits(store::from_scaled(whole), value) ? std::optional(whole) : std::nullopt;
  };
  std::mt19937_64 random(5);
  std::vector<double> values{0.5, -0.5, 0.49999999999999994, 450359962737.0495,
                             450359962737.0497, 900719925474.0991, -900719925474.0991};
  for (int i = 0; i < 100'000; ++i) {
    const auto ticks = static_cast<std::int64_t>(random() % 9'007'199'254'740'992ULL)
                       >> (random() % 53); // every magnitude up to 2^53
    values.push_back((random() % 2 ? -1.0 : 1.0) * store::from_scaled(ticks));
    values.push_back(std::bit_cast<double>(random())); // any bit pattern
    values.push_back(store::from_scaled(ticks) + 0.00005); // halfway between two ticks
  }
  for (const double value : values) {
    CAPTURE(value);
    CHECK(store::find_scaled(value) == reference(value));
  }
}

TEST_CASE("D12: every double reads back from the store bit for bit") {
  test::TempDir dir;
  store::SqliteBarStore store(dir / "ashare.db");
  std::mt19937_64 random(20261123);
  std::vector<domain::Bar> written;
  auto day = test::date("2000-01-03");
  auto any_double = [&] { // positive, finite, any bit pattern
    while (true) {
      const double value = std::fabs(std::bit_cast<double>(random()));
      if (std::isfinite(value) && value > 0) {
        return value;
      }
    }
  };
  auto decimal = [&](int digits) { // a decimal with `digits` fraction digits, as a file writes it
    char text[64];
    const double whole = static_cast<double>(random() % 100'000'000);
    std::snprintf(text, sizeof text, "%.0f.%0*llu", whole, digits,
                  static_cast<unsigned long long>(
                      random() % static_cast<unsigned long long>(std::pow(10, digits))));
    return parse_17(text);
  };
  auto seventeen = [&] { // a value printed with 17 significant digits and read back
    char text[64];
    std::snprintf(text, sizeof text, "%.17g", decimal(8) / 7.0);
    return parse_17(text);
  };
  std::vector<std::function<double()>> kinds{any_double, [&] { return decimal(2); },
                                             [&] { return decimal(4); }, [&] { return decimal(6); },
                                             seventeen};
  {
    store::WriteTransaction transaction(store);
    for (int i = 0; i < 2000; ++i) {
      auto& kind = kinds[static_cast<std::size_t>(i) % kinds.size()];
      domain::Bar bar = test::make_bar(day.iso(), 1, 1, 1, 1);
      bar.open = kind();
      bar.high = kind();
      bar.low = kind();
      bar.close = kind();
      bar.volume = static_cast<std::int64_t>(random() >> 1);
      bar.turnover = kind();
      bar.change_pct = i % 7 == 0 ? -0.0 : -kind();
      bar.factor = kind();
      store.upsert_bar("600519.SH", bar, false);
      written.push_back(bar);
      day = domain::Date(day.days() + std::chrono::days(1));
    }
    store.refresh_symbol("600519.SH");
    store.finish_change("test");
    transaction.commit();
  }
  const auto read = store.load_bars("600519.SH", written.front().trade_date,
                                    written.back().trade_date, domain::SortOrder::asc, 10'000);
  REQUIRE(read.size() == written.size());
  int different = 0;
  for (std::size_t i = 0; i < read.size(); ++i) {
    different += same_bits(read[i], written[i]) ? 0 : 1;
  }
  CHECK(different == 0);
  // The latest factor the symbols table keeps (D8's anchor) is exact too.
  CHECK(same_bits(store.find_symbol("600519.SH")->latest_factor, written.back().factor));
  // And the series reader agrees.
  const auto series = store.load_price_series("600519.SH", store::PriceField::low);
  REQUIRE(series.prices.size() == written.size());
  for (std::size_t i = 0; i < written.size(); ++i) {
    REQUIRE(same_bits(series.prices[i], written[i].low));
    REQUIRE(same_bits(series.factors[i], written[i].factor));
  }
}

TEST_CASE("store schema 3: a store written by the previous release migrates bit for bit") {
  // tests/data/store_v2/store_v2.db was written by ashare at schema 2 (see its README).
  test::TempDir dir;
  const auto path = dir / "ashare.db";
  std::filesystem::copy_file(test::data_dir() / "store_v2/store_v2.db", path);

  // What the old schema holds, read with plain SQLite.
  std::map<std::string, std::vector<domain::Bar>> before;
  std::map<std::string, double> latest_factor_before;
  {
    SQLite::Database old(path.string(), SQLite::OPEN_READONLY);
    REQUIRE(old.execAndGet("PRAGMA user_version").getInt() == 2);
    SQLite::Statement rows(old,
                           "SELECT symbol, trade_date, open, high, low, close, volume, "
                           "turnover, change_pct, factor FROM bars ORDER BY symbol, trade_date");
    while (rows.executeStep()) {
      before[rows.getColumn(0).getString()].push_back(
          domain::Bar{*domain::Date::from_yyyymmdd(rows.getColumn(1).getInt64()),
                      rows.getColumn(2).getDouble(), rows.getColumn(3).getDouble(),
                      rows.getColumn(4).getDouble(), rows.getColumn(5).getDouble(),
                      rows.getColumn(6).getInt64(), rows.getColumn(7).getDouble(),
                      rows.getColumn(8).getDouble(), rows.getColumn(9).getDouble()});
    }
    SQLite::Statement symbols(old, "SELECT symbol, latest_factor FROM symbols");
    while (symbols.executeStep()) {
      latest_factor_before[symbols.getColumn(0).getString()] = symbols.getColumn(1).getDouble();
    }
  }
  REQUIRE(before.size() == 3);
  const auto dump_before = test::dump_table(*std::make_unique<SQLite::Database>(path.string()),
                                            "symbol_sources", "symbol");

  store::SqliteBarStore store(path); // migrates
  CHECK(store.database().execAndGet("PRAGMA user_version").getInt()
        == store::current_schema_version(store::StoreKind::data));
  std::size_t bars = 0;
  for (const auto& [symbol, rows] : before) {
    CAPTURE(symbol);
    const auto after = store.load_bars(symbol, rows.front().trade_date, rows.back().trade_date,
                                       domain::SortOrder::asc, 100'000);
    REQUIRE(after.size() == rows.size());
    for (std::size_t i = 0; i < rows.size(); ++i) {
      CAPTURE(rows[i].trade_date.iso());
      CHECK(same_bits(after[i], rows[i]));
    }
    const auto info = store.find_symbol(symbol);
    REQUIRE(info);
    CHECK(same_bits(info->latest_factor, latest_factor_before.at(symbol)));
    CHECK(info->bar_count == static_cast<std::int64_t>(rows.size()));
    bars += rows.size();
  }
  CHECK(bars == 245);
  // The 17-digit values stayed REALs; the 4-decimal ones became compact integers.
  CHECK(store.database()
            .execAndGet("SELECT typeof(factor) || ' ' || typeof(open) FROM bars "
                        "WHERE symbol_id = (SELECT id FROM symbol_ids WHERE symbol = '000002.SZ') "
                        "AND trade_date = 20240102")
            .getString()
        == "real real");
  CHECK(store.database()
            .execAndGet("SELECT typeof(open) || ' ' || typeof(factor) FROM bars "
                        "WHERE symbol_id = (SELECT id FROM symbol_ids WHERE symbol = '000002.SZ') "
                        "AND trade_date = 20240104")
            .getString()
        == "integer real");
  CHECK(test::dump_table(store.database(), "symbol_sources", "symbol") == dump_before);
  const auto info = store.load_dataset_info();
  CHECK(info.as_of == test::date("2024-03-27"));
  CHECK(info.source == "canonical");
  CHECK(info.generation == 3);
}
