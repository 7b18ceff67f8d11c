#include "testutil.hpp"

#include "core/store/bar_store.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace ashare;
using domain::SortOrder;
using test::date;
using test::make_bar;

namespace {

std::vector<std::string> dates(const std::vector<domain::Bar>& bars) {
  std::vector<std::string> out;
  for (const auto& bar : bars) {
    out.push_back(bar.trade_date.iso());
  }
  return out;
}

// Store `bars` of `symbol` in one committed change recorded as `source`.
void store_bars(store::BarStore& store,
                const std::string& symbol,
                const std::vector<domain::Bar>& bars,
                bool change_pct_derived = false,
                const std::string& source = "test") {
  store::WriteTransaction transaction(store);
  for (const auto& bar : bars) {
    store.upsert_bar(symbol, bar, change_pct_derived);
  }
  store.recompute_change_pct(symbol);
  store.refresh_symbol(symbol);
  store.finish_change(source);
  transaction.commit();
}

std::vector<domain::Bar> all_bars(store::BarStore& store, const std::string& symbol) {
  return store.load_bars(symbol, date("1990-01-01"), date("2099-12-31"), SortOrder::asc, 100000);
}

} // namespace

TEST_CASE("store::BarStore::load_bars: range, order and limit") {
  test::TempDir dir;
  store::BarStore store(dir / "ashare.db");
  store_bars(store, "600519.SH",
             {make_bar("2024-01-02", 10, 11, 9, 10.5), make_bar("2024-01-03", 10.5, 12, 10, 11),
              make_bar("2024-01-04", 11, 11.5, 10.8, 11.2),
              make_bar("2024-01-05", 11.2, 11.3, 10, 10.1)});
  store_bars(store, "000001.SZ", {make_bar("2024-01-03", 5, 6, 4, 5.5)});

  SUBCASE("the window is inclusive at both ends") {
    const auto bars =
        store.load_bars("600519.SH", date("2024-01-03"), date("2024-01-04"), SortOrder::asc, 10);
    CHECK(dates(bars) == std::vector<std::string>{"2024-01-03", "2024-01-04"});
  }
  SUBCASE("desc orders latest first") {
    const auto bars =
        store.load_bars("600519.SH", date("2024-01-01"), date("2024-01-31"), SortOrder::desc, 10);
    CHECK(dates(bars)
          == std::vector<std::string>{"2024-01-05", "2024-01-04", "2024-01-03", "2024-01-02"});
  }
  SUBCASE("limit keeps the first rows in the order asked") {
    CHECK(dates(store.load_bars("600519.SH", date("2024-01-01"), date("2024-01-31"), SortOrder::asc,
                                2))
          == std::vector<std::string>{"2024-01-02", "2024-01-03"});
    CHECK(dates(store.load_bars("600519.SH", date("2024-01-01"), date("2024-01-31"),
                                SortOrder::desc, 2))
          == std::vector<std::string>{"2024-01-05", "2024-01-04"});
  }
  SUBCASE("other symbols and empty windows") {
    CHECK(dates(all_bars(store, "000001.SZ")) == std::vector<std::string>{"2024-01-03"});
    CHECK(store.load_bars("600519.SH", date("2024-01-06"), date("2024-01-07"), SortOrder::asc, 10)
              .empty());
    CHECK(all_bars(store, "000002.SZ").empty());
  }
  SUBCASE("every field round-trips") {
    domain::Bar bar = make_bar("2024-01-08", 1525.4, 1530.12, 1500.01, 1510.5, 8.305, 3935445);
    bar.turnover = 8398945449;
    bar.change_pct = -1.2974;
    store_bars(store, "600519.SH", {bar});
    const auto loaded =
        store.load_bars("600519.SH", date("2024-01-08"), date("2024-01-08"), SortOrder::asc, 1);
    REQUIRE(loaded.size() == 1);
    CHECK(loaded[0].trade_date == date("2024-01-08"));
    CHECK(loaded[0].open == 1525.4);
    CHECK(loaded[0].high == 1530.12);
    CHECK(loaded[0].low == 1500.01);
    CHECK(loaded[0].close == 1510.5);
    CHECK(loaded[0].volume == 3935445);
    CHECK(loaded[0].turnover == 8398945449.0);
    CHECK(loaded[0].change_pct == -1.2974);
    CHECK(loaded[0].factor == 8.305);
  }
}

TEST_CASE("store::BarStore::upsert_bar is keyed by (symbol, trade_date)") {
  test::TempDir dir;
  store::BarStore store(dir / "ashare.db");
  const auto bar = make_bar("2024-01-02", 10, 11, 9, 10.5);
  store_bars(store, "600519.SH", {bar});
  store_bars(store, "600519.SH", {bar});
  CHECK(all_bars(store, "600519.SH").size() == 1);

  auto changed = bar;
  changed.close = 10.75;
  store_bars(store, "600519.SH", {changed});
  const auto bars = all_bars(store, "600519.SH");
  REQUIRE(bars.size() == 1);
  CHECK(bars[0].close == 10.75);
}

TEST_CASE("store::BarStore::refresh_symbol") {
  test::TempDir dir;
  store::BarStore store(dir / "ashare.db");
  CHECK_FALSE(store.find_symbol("600519.SH").has_value());
  store_bars(store, "600519.SH",
             {make_bar("2024-01-03", 10, 11, 9, 10.5, 2.0),
              make_bar("2024-01-02", 10, 11, 9, 10.5, 1.0),
              make_bar("2024-01-05", 10, 11, 9, 10.5, 2.5)});
  store_bars(store, "000001.SZ", {make_bar("2024-01-04", 5, 6, 4, 5.5)});

  const auto info = store.find_symbol("600519.SH");
  REQUIRE(info.has_value());
  CHECK(info->symbol == "600519.SH");
  CHECK(info->first_date == date("2024-01-02"));
  CHECK(info->last_date == date("2024-01-05"));
  CHECK(info->bar_count == 3);
  CHECK(info->latest_factor == 2.5); // D8's anchor: the factor of the latest bar

  const auto symbols = store.load_symbols();
  REQUIRE(symbols.size() == 2);
  CHECK(symbols[0].symbol == "000001.SZ"); // ordered by symbol
  CHECK(symbols[1].symbol == "600519.SH");

  SUBCASE("a symbol without bars is dropped") {
    store::WriteTransaction transaction(store);
    CHECK(store.delete_bars("000001.SZ", date("2024-01-01"), date("2024-01-31")) == 1);
    store.refresh_symbol("000001.SZ");
    store.finish_change("");
    transaction.commit();
    CHECK_FALSE(store.find_symbol("000001.SZ").has_value());
    CHECK(store.load_symbols().size() == 1);
  }
  SUBCASE("deleting the latest bar moves the anchor") {
    store::WriteTransaction transaction(store);
    CHECK(store.delete_bars("600519.SH", date("2024-01-05"), date("2024-01-05")) == 1);
    store.refresh_symbol("600519.SH");
    transaction.commit();
    CHECK(store.find_symbol("600519.SH")->latest_factor == 2.0);
    CHECK(store.find_symbol("600519.SH")->last_date == date("2024-01-03"));
  }
}

TEST_CASE("store::BarStore::finish_change: as_of, source and generation") {
  test::TempDir dir;
  store::BarStore store(dir / "ashare.db");
  const auto empty = store.load_dataset_info();
  CHECK_FALSE(empty.as_of.has_value());
  CHECK(empty.source.empty());
  CHECK(empty.generation == 0);
  CHECK(store.load_generation() == 0);

  store_bars(store, "600519.SH", {make_bar("2024-01-02", 10, 11, 9, 10.5)}, false, "tushare");
  store_bars(store, "000001.SZ", {make_bar("2024-01-05", 5, 6, 4, 5.5)}, false, "jenny");
  auto info = store.load_dataset_info();
  CHECK(info.as_of == date("2024-01-05")); // the latest trade_date of any symbol
  CHECK(info.source == "jenny");           // recorded by the most recent change
  CHECK(info.generation == 2);
  CHECK(store.load_generation() == 2);

  SUBCASE("an empty source keeps the recorded one") {
    store::WriteTransaction transaction(store);
    store.finish_change("");
    transaction.commit();
    info = store.load_dataset_info();
    CHECK(info.source == "jenny");
    CHECK(info.generation == 3);
  }
  SUBCASE("as_of follows removals, and is absent for an empty store") {
    store::WriteTransaction transaction(store);
    store.delete_bars("000001.SZ", date("2024-01-01"), date("2024-12-31"));
    store.refresh_symbol("000001.SZ");
    store.finish_change("");
    transaction.commit();
    CHECK(store.load_dataset_info().as_of == date("2024-01-02"));

    store::WriteTransaction second(store);
    store.delete_bars("600519.SH", date("2024-01-01"), date("2024-12-31"));
    store.refresh_symbol("600519.SH");
    store.finish_change("");
    second.commit();
    CHECK_FALSE(store.load_dataset_info().as_of.has_value());
  }
  SUBCASE("a rolled-back change leaves nothing behind") {
    {
      store::WriteTransaction transaction(store);
      store.upsert_bar("600036.SH", make_bar("2024-02-01", 30, 31, 29, 30.5), false);
      store.refresh_symbol("600036.SH");
      store.finish_change("rolled back");
    } // no commit
    CHECK_FALSE(store.find_symbol("600036.SH").has_value());
    info = store.load_dataset_info();
    CHECK(info.as_of == date("2024-01-05"));
    CHECK(info.source == "jenny");
    CHECK(info.generation == 2);
  }
}

TEST_CASE("store::BarStore::recompute_change_pct") {
  test::TempDir dir;
  store::BarStore store(dir / "ashare.db");

  SUBCASE("((close*factor)/(prev_close*prev_factor) - 1) * 100, 0 for the first bar") {
    store_bars(store, "600519.SH",
               {make_bar("2024-01-02", 10, 10, 10, 10, 1.0),
                make_bar("2024-01-03", 11, 11, 11, 11, 1.0),
                // ex-rights day: the raw close halves, the factor doubles, nothing really changed
                make_bar("2024-01-04", 5.5, 5.5, 5.5, 5.5, 2.0),
                make_bar("2024-01-05", 4.4, 4.4, 4.4, 4.4, 2.0)},
               true);
    const auto bars = all_bars(store, "600519.SH");
    REQUIRE(bars.size() == 4);
    CHECK(bars[0].change_pct == 0.0);
    CHECK(bars[1].change_pct == doctest::Approx(10.0).epsilon(1e-12));
    CHECK(bars[2].change_pct == doctest::Approx(0.0).epsilon(1e-12));
    CHECK(bars[3].change_pct == doctest::Approx(-20.0).epsilon(1e-12));
  }

  SUBCASE("only derived values are rewritten, but they derive from every stored bar") {
    store::WriteTransaction transaction(store);
    auto given = make_bar("2024-01-03", 12, 12, 12, 12);
    given.change_pct = 1.23; // from the vendor: kept as is
    store.upsert_bar("600519.SH", make_bar("2024-01-02", 10, 10, 10, 10), true);
    store.upsert_bar("600519.SH", given, false);
    store.upsert_bar("600519.SH", make_bar("2024-01-04", 15, 15, 15, 15), true);
    store.recompute_change_pct("600519.SH");
    transaction.commit();
    const auto bars = all_bars(store, "600519.SH");
    REQUIRE(bars.size() == 3);
    CHECK(bars[0].change_pct == 0.0);
    CHECK(bars[1].change_pct == 1.23);
    CHECK(bars[2].change_pct == doctest::Approx(25.0).epsilon(1e-12)); // 15 / 12
  }

  SUBCASE("symbols are independent") {
    store_bars(store, "600519.SH", {make_bar("2024-01-02", 10, 10, 10, 10)}, true);
    store_bars(store, "000001.SZ", {make_bar("2024-01-03", 20, 20, 20, 20)}, true);
    CHECK(all_bars(store, "000001.SZ")[0].change_pct == 0.0);
  }
}

TEST_CASE("store::BarStore::has_non_unit_factor") {
  test::TempDir dir;
  store::BarStore store(dir / "ashare.db");
  store_bars(store, "600519.SH", {make_bar("2024-01-02", 10, 11, 9, 10.5, 1.0)});
  store_bars(
      store, "000001.SZ",
      {make_bar("2024-01-02", 10, 11, 9, 10.5, 1.0), make_bar("2024-01-03", 10, 11, 9, 10.5, 1.5)});
  CHECK_FALSE(store.has_non_unit_factor("600519.SH"));
  CHECK(store.has_non_unit_factor("000001.SZ"));
  CHECK_FALSE(store.has_non_unit_factor("600036.SH"));
}

TEST_CASE("store: WAL lets readers see a commit from another connection, snapshots stay stable") {
  test::TempDir dir;
  const auto path = dir / "ashare.db";
  store::BarStore reader(path);
  store::BarStore writer(path);
  store_bars(writer, "600519.SH", {make_bar("2024-01-02", 10, 11, 9, 10.5)});
  CHECK(reader.load_generation() == 1);
  CHECK(all_bars(reader, "600519.SH").size() == 1);

  {
    store::ReadTransaction snapshot(reader);
    CHECK(reader.load_generation() == 1);
    // The writer commits while the reader holds its snapshot: WAL does not block it.
    store_bars(writer, "600519.SH", {make_bar("2024-01-03", 10, 11, 9, 10.5)});
    CHECK(reader.load_generation() == 1);
    CHECK(all_bars(reader, "600519.SH").size() == 1);
    CHECK(reader.load_dataset_info().as_of == date("2024-01-02"));
  }
  // Once the snapshot ends, the new data is there without reopening.
  CHECK(reader.load_generation() == 2);
  CHECK(all_bars(reader, "600519.SH").size() == 2);
  CHECK(reader.load_dataset_info().as_of == date("2024-01-03"));
}
