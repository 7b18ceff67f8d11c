// Helpers shared by the unit tests over the core: bar builders, CSV import helpers, fixed random
// sources, a store dump for before/after comparisons and API keys made the way `ashare keys
// create` makes them. The temporary directory, the test data and bounded waits are
// tests/support's.
#pragma once

#include "support/temp_dir.hpp"
#include "support/test_data.hpp"
#include "support/wait.hpp"

#include "core/auth/api_key.hpp"
#include "core/auth/plan.hpp"
#include "core/domain/bar.hpp"
#include "core/domain/date.hpp"
#include "core/import/canonical_csv.hpp"
#include "core/import/importer.hpp"
#include "core/remote/coverage.hpp"
#include "core/store/sqlite_bar_store.hpp"
#include "core/store/sqlite_key_store.hpp"

#include <SQLiteCpp/Statement.h>
#include <doctest/doctest.h>

#include <bit>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <span>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace ashare::test {

// The header of a canonical CSV with every column.
inline constexpr const char* k_canonical_header =
    "symbol,trade_date,open,high,low,close,volume,turnover,change_pct,factor\n";

// The base URL remote mode's unit tests give their fake remotes (no request leaves the process).
inline const std::string k_remote_base_url = "http://remote.test";

// The trade dates of `bars`, in their order, as YYYY-MM-DD.
inline std::vector<std::string> dates_of(const std::vector<domain::Bar>& bars) {
  std::vector<std::string> out;
  for (const auto& bar : bars) {
    out.push_back(bar.trade_date.iso());
  }
  return out;
}

// Wait until `filler` (an api::HistoryFiller) has loaded or dropped every history asked so far:
// its wait_idle(), with a deadline that fails the test instead of a wait without end.
template <class Filler> void await_idle(Filler& filler) {
  REQUIRE_MESSAGE(poll_until([&] { return filler.pending() == 0; }),
                  "the histories asked for were not loaded within " << k_patience.count() << " ms");
}

// Return the date of a valid "YYYY-MM-DD"; fails the test otherwise.
inline domain::Date date(std::string_view iso) {
  auto parsed = domain::parse_iso_date(iso, "date");
  REQUIRE_MESSAGE(parsed.ok(), iso);
  return *parsed;
}

// The dates from `first` to `last` (YYYY-MM-DD), both included, as remote mode's coverage keeps
// them.
inline remote::DateRange date_range(std::string_view first, std::string_view last) {
  return remote::DateRange{date(first), date(last)};
}

// `hour_utc8`:`minute` in Beijing time (UTC+8) on day `iso`: the clock a fetch test sets.
inline std::chrono::system_clock::time_point
at(std::string_view iso, int hour_utc8, int minute = 0) {
  return std::chrono::system_clock::time_point(date(iso).days()) + std::chrono::hours(hour_utc8 - 8)
         + std::chrono::minutes(minute);
}

// Whether `a` and `b` are the same double, bit for bit (D12: no rounding anywhere).
inline bool same_bits(double a, double b) {
  return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b);
}

// Whether every field of `a` and `b` is the same, doubles bit for bit.
inline bool same_bits(const domain::Bar& a, const domain::Bar& b) {
  return a.trade_date == b.trade_date && same_bits(a.open, b.open) && same_bits(a.high, b.high)
         && same_bits(a.low, b.low) && same_bits(a.close, b.close) && a.volume == b.volume
         && same_bits(a.turnover, b.turnover) && same_bits(a.change_pct, b.change_pct)
         && same_bits(a.factor, b.factor);
}

// Return a bar on `iso` with the given raw prices; volume, turnover and factor as given.
inline domain::Bar make_bar(std::string_view iso,
                            double open,
                            double high,
                            double low,
                            double close,
                            double factor = 1.0,
                            std::int64_t volume = 1000) {
  domain::Bar bar;
  bar.trade_date = date(iso);
  bar.open = open;
  bar.high = high;
  bar.low = low;
  bar.close = close;
  bar.volume = volume;
  bar.turnover = close * static_cast<double>(volume);
  bar.factor = factor;
  return bar;
}

// Write `text` to `path` byte for byte.
inline void write_file(const std::filesystem::path& path, std::string_view text) {
  std::ofstream out(path, std::ios::binary);
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
  REQUIRE(out.good());
}

// Return import options with `skip_invalid` and `source`, the rest defaulted.
inline import::ImportOptions import_options(bool skip_invalid, std::string source) {
  import::ImportOptions options;
  options.skip_invalid = skip_invalid;
  options.source = std::move(source);
  return options;
}

// Parse canonical CSV `text` (the header must be valid) and load it into `store`.
inline import::ImportReport import_text(store::BarStore& store,
                                        std::string_view text,
                                        const import::ImportOptions& options = {}) {
  std::istringstream in{std::string(text)};
  auto parsed = import::parse_canonical_csv(in);
  REQUIRE_MESSAGE(parsed.ok(), (parsed.ok() ? "" : parsed.error().message));
  return import::load_parsed_file(store, std::move(*parsed), options);
}

// Import the committed fixture `name` (e.g. "bancob_600519.SH.csv") into `store`.
inline import::ImportReport import_fixture(store::BarStore& store, std::string_view name) {
  auto report = import::import_file(store, data_dir() / name, test::import_options(false, "fixture"));
  REQUIRE_MESSAGE(report.ok(), (report.ok() ? "" : report.error().message));
  REQUIRE(report->committed);
  return *report;
}

// Return every row of `table` (ordered by its key), one line per row, for before/after checks.
inline std::string
dump_table(SQLite::Database& db, std::string_view table, std::string_view order) {
  SQLite::Statement statement(db, "SELECT * FROM " + std::string(table) + " ORDER BY "
                                      + std::string(order));
  std::string out;
  while (statement.executeStep()) {
    for (int i = 0; i < statement.getColumnCount(); ++i) {
      out += statement.getColumn(i).getString();
      out += '|';
    }
    out += '\n';
  }
  return out;
}

// Return the contents of the data store at `path`: bars, symbols and, with `with_meta`, the
// metadata (as_of, source, generation).
inline std::string dump_store(const std::filesystem::path& path, bool with_meta = true) {
  store::SqliteBarStore store(path);
  // Bars by symbol text: ids depend on the order symbols were first written in.
  std::string out = dump_table(store.database(),
                               "(SELECT i.symbol, b.trade_date, b.open, b.high, b.low, b.close, "
                               "b.volume, b.turnover, b.change_pct, b.change_pct_derived, b.factor "
                               "FROM bars b JOIN symbol_ids i ON i.id = b.symbol_id)",
                               "symbol, trade_date")
                    + "--\n"
                    + dump_table(store.database(), "symbols", "symbol");
  if (with_meta) {
    // Not the store's random id (D17), which tells any two stores apart.
    out += "--\n"
           + dump_table(store.database(), "(SELECT key, value FROM meta WHERE key <> 'store_id')",
                        "key");
  }
  return out;
}

// A random source that hands out 0, 1, 2, ... (wrapping), so generated keys are predictable.
class SequenceRandom final : public auth::RandomSource {
public:
  explicit SequenceRandom(unsigned start = 0) : m_next(start) {}
  void fill(std::span<std::byte> out) override {
    for (auto& b : out) {
      b = static_cast<std::byte>(m_next++ & 0xffu);
    }
  }

private:
  unsigned m_next;
};

// A random source that hands out the same byte forever.
class ConstantRandom final : public auth::RandomSource {
public:
  explicit ConstantRandom(std::byte value) : m_value(value) {}
  void fill(std::span<std::byte> out) override {
    for (auto& b : out) {
      b = m_value;
    }
  }

private:
  std::byte m_value;
};

struct TestKey {
  std::int64_t id = 0;
  std::string plaintext;
};

// Create a key in `keys` as `ashare keys create` does; `credits` nullopt makes it unmetered.
inline TestKey create_key(store::KeyStore& keys,
                          auth::Plan plan,
                          std::optional<std::int64_t> credits,
                          std::string label = "test") {
  auth::SystemRandom random;
  auto key = auth::generate_key(random);
  const auto id =
      keys.insert_key(store::NewKeyRecord{key.prefix, auth::key_digest(key.plaintext),
                                          std::move(label), plan, credits, "2024-01-01T00:00:00Z"});
  return TestKey{id, std::move(key.plaintext)};
}

// Create a key in the key store at `keys_path`, as create_key above.
inline TestKey create_key(const std::filesystem::path& keys_path,
                          auth::Plan plan,
                          std::optional<std::int64_t> credits,
                          std::string label = "test") {
  store::SqliteKeyStore keys(keys_path);
  return create_key(keys, plan, credits, std::move(label));
}

} // namespace ashare::test
