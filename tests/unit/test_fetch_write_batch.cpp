#include "testutil.hpp"

#include "core/fetch/write_batch.hpp"
#include "core/import/importer.hpp"
#include "core/store/sqlite_bar_store.hpp"

#include <doctest/doctest.h>

using namespace ashare;
using namespace ashare::fetch;
using test::date;

namespace {

import::ParsedRow batch_row(const std::string& symbol, const std::string& day, double close){
    import::ParsedRow row;
row.line = 2; // as read_daily numbers an answer's rows, from 2
row.symbol = symbol;
row.bar.trade_date = date(day);
row.bar.open = close;
row.bar.high = close;
row.bar.low = close;
row.bar.close = close;
row.bar.volume = 100;
row.bar.turnover = close * 100;
return row;
}

// The rows of one fetched day, every symbol's factors from the pre_close chain.
struct Day {
  std::vector<import::ParsedRow> rows;
  std::map<std::string, import::FactorOrigin> origins;
};

Day day_of(const std::string& day, std::initializer_list<std::string> symbols) {
  Day out;
  for (const auto& symbol : symbols) {
    out.rows.push_back(batch_row(symbol, day, 10));
    out.origins[symbol] = import::FactorOrigin::pre_close_chain;
  }
  return out;
}

// A record that saves `day`'s whole-market ledger row, as a fetch's does.
std::function<void(store::BarStore&)> ledger_of(const std::string& day, std::int64_t rows) {
  return [day, rows](store::BarStore& store) {
    store.market().save_ledger_day({"tushare-pro", date(day), "", rows});
  };
}

std::size_t bar_count(store::BarStore& store, const std::string& symbol) {
  return store.load_bars(symbol, date("2000-01-01"), date("2099-12-31"), domain::SortOrder::asc, 1000)
      .size();
}

} // namespace

TEST_CASE("WriteBatch: days added between commits commit together, each with its record") {
  test::TempDir dir;
  store::SqliteBarStore store(dir / "batch.db");
  store::SqliteBarStore reader(dir / "batch.db"); // another connection sees only what committed
  WriteBatch batch(store, "tushare-pro");
  for (const auto* day : {"2024-01-02", "2024-01-03", "2024-01-04"}) {
    auto rows = day_of(day, {"000001.SZ", "600519.SH"});
    batch.add(std::move(rows.rows), rows.origins, ledger_of(day, 2));
  }
  CHECK(batch.units() == 3);
  CHECK(bar_count(reader, "600519.SH") == 0);
  CHECK(reader.market().load_ledger("tushare-pro").empty());

  const auto committed = batch.commit();
  REQUIRE(committed);
  CHECK(committed->units == 3);
  CHECK(committed->rows == 6);
  CHECK(batch.units() == 0);
  CHECK(bar_count(reader, "600519.SH") == 3);
  CHECK(reader.market().load_ledger("tushare-pro").size() == 3);
  // The summary grew a day at a time within one transaction, as three would have left it.
  const auto summary = reader.find_symbol("000001.SZ");
  REQUIRE(summary);
  CHECK(summary->first_date == date("2024-01-02"));
  CHECK(summary->last_date == date("2024-01-04"));
  CHECK(summary->bar_count == 3);
  CHECK(summary->source == "tushare-pro");
  CHECK(summary->factor_origin == "pre_close_chain");
  CHECK(reader.load_dataset_info().as_of == date("2024-01-04"));

  SUBCASE("a commit with nothing added changes nothing") {
    const auto generation = reader.load_generation();
    const auto none = batch.commit();
    REQUIRE(none);
    CHECK(none->units == 0);
    CHECK(reader.load_generation() == generation);
  }
  SUBCASE("days without bars still commit their records") {
    batch.add({}, {}, ledger_of("2024-01-05", 0));
    const auto empty = batch.commit();
    REQUIRE(empty);
    CHECK(empty->units == 1);
    CHECK(empty->rows == 0);
    CHECK(reader.market().load_ledger("tushare-pro").back().trade_date == date("2024-01-05"));
  }
}

TEST_CASE("WriteBatch: days not committed roll back whole, records included") {
  test::TempDir dir;
  store::SqliteBarStore store(dir / "batch.db");
  {
    WriteBatch batch(store, "tushare-pro");
    auto rows = day_of("2024-01-02", {"000001.SZ"});
    batch.add(std::move(rows.rows), rows.origins, ledger_of("2024-01-02", 1));
  } // cut short: the destructor rolls back
  CHECK(bar_count(store, "000001.SZ") == 0);
  CHECK(store.market().load_ledger("tushare-pro").empty());
  CHECK_FALSE(store.find_symbol("000001.SZ"));
}

TEST_CASE("WriteBatch: the importer's refusal is an error, and no day of the batch is written") {
  test::TempDir dir;
  store::SqliteBarStore store(dir / "batch.db");
  // 600519.SH imported with factors of the Tushare scale (a file's own column).
  import::ParsedFile file;
  file.has_factor = true;
  file.rows.push_back(batch_row("600519.SH", "2024-01-02", 1700));
  file.rows.back().bar.factor = 8.4464;
  REQUIRE(import::load_parsed_file(store, file, {}).committed);

  WriteBatch batch(store, "tushare-pro");
  auto first = day_of("2024-01-03", {"000001.SZ"});
  batch.add(std::move(first.rows), first.origins, ledger_of("2024-01-03", 1));
  // A later day continuing it on a chain of another scale cannot mix with its stored bars.
  auto second = day_of("2024-01-04", {"000001.SZ", "600519.SH"});
  batch.add(std::move(second.rows), second.origins, ledger_of("2024-01-04", 2));
  const auto committed = batch.commit();
  REQUIRE_FALSE(committed);
  CHECK(committed.error().code == ErrorCode::invalid_input);
  CHECK(committed.error().message.find("600519.SH") != std::string::npos);
  CHECK(bar_count(store, "000001.SZ") == 0);
  CHECK(bar_count(store, "600519.SH") == 1);
  CHECK(store.market().load_ledger("tushare-pro").empty());
  CHECK(batch.units() == 0); // what was added is gone with the transaction
}
