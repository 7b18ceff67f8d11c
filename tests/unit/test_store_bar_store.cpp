#include "store_backend.hpp"
#include "testutil.hpp"

#include "core/store/bar_store.hpp"

#include <doctest/doctest.h>

#include <bit>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

using namespace ashare;
using domain::SortOrder;
using test::date;
using test::make_bar;

namespace {

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
  test::StoreBackend backend;
  const auto owned = backend.open_bars();
  auto& store = *owned;
  store_bars(store, "600519.SH",
             {make_bar("2024-01-02", 10, 11, 9, 10.5), make_bar("2024-01-03", 10.5, 12, 10, 11),
              make_bar("2024-01-04", 11, 11.5, 10.8, 11.2),
              make_bar("2024-01-05", 11.2, 11.3, 10, 10.1)});
  store_bars(store, "000001.SZ", {make_bar("2024-01-03", 5, 6, 4, 5.5)});

  SUBCASE("the window is inclusive at both ends") {
    const auto bars =
        store.load_bars("600519.SH", date("2024-01-03"), date("2024-01-04"), SortOrder::asc, 10);
    CHECK(test::dates_of(bars) == std::vector<std::string>{"2024-01-03", "2024-01-04"});
  }
  SUBCASE("desc orders latest first") {
    const auto bars =
        store.load_bars("600519.SH", date("2024-01-01"), date("2024-01-31"), SortOrder::desc, 10);
    CHECK(test::dates_of(bars)
          == std::vector<std::string>{"2024-01-05", "2024-01-04", "2024-01-03", "2024-01-02"});
  }
  SUBCASE("limit keeps the first rows in the order asked") {
    CHECK(test::dates_of(store.load_bars("600519.SH", date("2024-01-01"), date("2024-01-31"),
                                         SortOrder::asc, 2))
          == std::vector<std::string>{"2024-01-02", "2024-01-03"});
    CHECK(test::dates_of(store.load_bars("600519.SH", date("2024-01-01"), date("2024-01-31"),
                                         SortOrder::desc, 2))
          == std::vector<std::string>{"2024-01-05", "2024-01-04"});
  }
  SUBCASE("other symbols and empty windows") {
    CHECK(test::dates_of(all_bars(store, "000001.SZ")) == std::vector<std::string>{"2024-01-03"});
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
  test::StoreBackend backend;
  const auto owned = backend.open_bars();
  auto& store = *owned;
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
  test::StoreBackend backend;
  const auto owned = backend.open_bars();
  auto& store = *owned;
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
  test::StoreBackend backend;
  const auto owned = backend.open_bars();
  auto& store = *owned;
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

TEST_CASE("store::BarStore: a store is named by a random id, kept across changes (D17)") {
  test::StoreBackend first_backend;
  test::StoreBackend second_backend;
  const auto first = first_backend.open_bars();
  const auto second = second_backend.open_bars();
  const auto id = first->load_dataset_info().store_id;
  CHECK(id.size() == 32);
  CHECK(id.find_first_not_of("0123456789abcdef") == std::string::npos);
  // Two stores built the same way reach the same generations: their ids tell them apart.
  store_bars(*first, "600519.SH", {make_bar("2024-01-02", 10, 11, 9, 10.5)});
  store_bars(*second, "600519.SH", {make_bar("2024-01-02", 10, 11, 9, 10.6)});
  CHECK(first->load_dataset_info().generation == second->load_dataset_info().generation);
  CHECK(second->load_dataset_info().store_id.size() == 32);
  CHECK(second->load_dataset_info().store_id != id);
  CHECK(first->load_dataset_info().store_id == id);
  CHECK(first_backend.open_bars()->load_dataset_info().store_id == id); // reopened
}

TEST_CASE("store::BarStore::recompute_change_pct") {
  test::StoreBackend backend;
  const auto owned = backend.open_bars();
  auto& store = *owned;

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
  test::StoreBackend backend;
  const auto owned = backend.open_bars();
  auto& store = *owned;
  store_bars(store, "600519.SH", {make_bar("2024-01-02", 10, 11, 9, 10.5, 1.0)});
  store_bars(
      store, "000001.SZ",
      {make_bar("2024-01-02", 10, 11, 9, 10.5, 1.0), make_bar("2024-01-03", 10, 11, 9, 10.5, 1.5)});
  CHECK_FALSE(store.has_non_unit_factor("600519.SH"));
  CHECK(store.has_non_unit_factor("000001.SZ"));
  CHECK_FALSE(store.has_non_unit_factor("600036.SH"));
}

TEST_CASE("store: readers see a commit from another connection, snapshots stay stable") {
  test::StoreBackend backend;
  const auto reader_owned = backend.open_bars();
  const auto writer_owned = backend.open_bars();
  auto& reader = *reader_owned;
  auto& writer = *writer_owned;
  store_bars(writer, "600519.SH", {make_bar("2024-01-02", 10, 11, 9, 10.5)});
  CHECK(reader.load_generation() == 1);
  CHECK(all_bars(reader, "600519.SH").size() == 1);

  {
    store::ReadTransaction snapshot(reader);
    CHECK(reader.load_generation() == 1);
    // The writer commits while the reader holds its snapshot (WAL on SQLite, MVCC on
    // PostgreSQL): it is not blocked.
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

TEST_CASE("store::BarStore: every number reads back bit for bit (D12)") {
  test::StoreBackend backend;
  const auto owned = backend.open_bars();
  auto& store = *owned;
  // 17 significant digits, a subnormal, a negative zero, the largest finite double: values the
  // scaled-integer form of SQLite cannot hold and PostgreSQL's text protocol must not round.
  const std::vector<double> values{0.1 + 0.2,
                                   1525.4000000000001,
                                   123456789.12345679,
                                   5e-324,
                                   -0.0,
                                   1.7976931348623157e308,
                                   -1.2974,
                                   1.102538190183302};
  std::vector<domain::Bar> bars;
  for (std::size_t i = 0; i < values.size(); ++i) {
    auto bar = make_bar("2024-01-02", values[i], values[i], values[i], values[i], values[i]);
    bar.trade_date = date("2024-01-02").plus_days(static_cast<int>(i));
    bar.turnover = values[i];
    bar.change_pct = values[i];
    bar.volume = std::int64_t{1} << 53;
    bars.push_back(bar);
  }
  store_bars(store, "600519.SH", bars);
  const auto loaded = all_bars(store, "600519.SH");
  REQUIRE(loaded.size() == values.size());
  for (std::size_t i = 0; i < values.size(); ++i) {
    CAPTURE(values[i]);
    const auto bits = std::bit_cast<std::uint64_t>(values[i]);
    CHECK(std::bit_cast<std::uint64_t>(loaded[i].open) == bits);
    CHECK(std::bit_cast<std::uint64_t>(loaded[i].close) == bits);
    CHECK(std::bit_cast<std::uint64_t>(loaded[i].turnover) == bits);
    CHECK(std::bit_cast<std::uint64_t>(loaded[i].change_pct) == bits);
    CHECK(std::bit_cast<std::uint64_t>(loaded[i].factor) == bits);
    CHECK(loaded[i].volume == std::int64_t{1} << 53);
  }
  const auto series = store.load_price_series("600519.SH", store::PriceField::high);
  REQUIRE(series.prices.size() == values.size());
  CHECK(std::bit_cast<std::uint64_t>(series.prices[0]) == std::bit_cast<std::uint64_t>(values[0]));
  CHECK(std::bit_cast<std::uint64_t>(store.find_symbol("600519.SH")->latest_factor)
        == std::bit_cast<std::uint64_t>(values.back()));
}

TEST_CASE("store::BarStore: a write transaction is all or nothing, whatever its size") {
  test::StoreBackend backend;
  const auto owned = backend.open_bars();
  auto& store = *owned;
  store_bars(store, "600519.SH", {make_bar("2024-01-02", 10, 11, 9, 10.5)});
  // More rows than one batch of the PostgreSQL store (it writes rows in batches of 16,384).
  std::vector<domain::Bar> many;
  for (int i = 0; i < 20'000; ++i) {
    many.push_back(make_bar("2000-01-01", 10, 11, 9, 10.5));
    many.back().trade_date = date("2000-01-01").plus_days(i);
  }
  {
    store::WriteTransaction transaction(store);
    for (const auto& bar : many) {
      store.insert_bar("000001.SZ", bar, false);
    }
    store.upsert_bar("600519.SH", make_bar("2024-01-02", 1, 1, 1, 1), false);
    store.refresh_symbol("000001.SZ");
    store.finish_change("lost");
    // no commit: rolled back
  }
  CHECK(all_bars(store, "000001.SZ").empty());
  CHECK_FALSE(store.find_symbol("000001.SZ").has_value());
  REQUIRE(all_bars(store, "600519.SH").size() == 1);
  CHECK(all_bars(store, "600519.SH")[0].close == 10.5);
  CHECK(store.load_dataset_info().source == "test");

  store_bars(store, "000001.SZ", many);
  CHECK(all_bars(store, "000001.SZ").size() == many.size());
  CHECK(store.find_symbol("000001.SZ")->bar_count == 20'000);
}

TEST_CASE("store::BarStore: changes to one bar land in the order they were made") {
  test::StoreBackend backend;
  const auto owned = backend.open_bars();
  auto& store = *owned;
  store::WriteTransaction transaction(store);
  store.insert_bar("600519.SH", make_bar("2024-01-02", 10, 11, 9, 10.5, 1.0), false);
  store.insert_bar("600519.SH", make_bar("2024-01-03", 10, 11, 9, 10.5, 1.0), false);
  store.save_factor("600519.SH", date("2024-01-02"), 2.5);         // after its bar: kept
  store.save_factor("600519.SH", date("2024-01-03"), 3.5);         // replaced by the upsert below
  store.upsert_bar("600519.SH", make_bar("2024-01-03", 10, 11, 9, 10.75, 4.0), false);
  store.upsert_bar("600519.SH", make_bar("2024-01-04", 10, 11, 9, 10.5, 1.0), false);
  store.upsert_bar("600519.SH", make_bar("2024-01-04", 10, 11, 9, 12.0, 1.0), false); // last wins
  store.mark_change_pct_derived("600519.SH", date("2024-01-04"));
  store.recompute_change_pct("600519.SH");
  transaction.commit();
  const auto bars = all_bars(store, "600519.SH");
  REQUIRE(bars.size() == 3);
  CHECK(bars[0].factor == 2.5);
  CHECK(bars[1].factor == 4.0);
  CHECK(bars[1].close == 10.75);
  CHECK(bars[2].close == 12.0);
  // Derived: (12 * 1) / (10.75 * 4) - 1, in percent; the other two keep their given change_pct.
  CHECK(bars[2].change_pct == domain::derived_change_pct(12.0, 1.0, 10.75, 4.0));
  CHECK(bars[1].change_pct == make_bar("2024-01-03", 10, 11, 9, 10.75).change_pct);
}

TEST_CASE("store::BarStore: staged pre_close values, per symbol, until cleared or rolled back") {
  test::StoreBackend backend;
  const auto owned = backend.open_bars();
  auto& store = *owned;
  {
    store::WriteTransaction transaction(store);
    store.stage_pre_close("600519.SH", date("2024-01-03"), 10.25);
    store.stage_pre_close("600519.SH", date("2024-01-02"), 9.5);
    store.stage_pre_close("600519.SH", date("2024-01-02"), 1.0); // the first stays
    store.stage_pre_close("000001.SZ", date("2024-01-02"), 5.0);
    const auto staged = store.load_staged_pre_close("600519.SH");
    REQUIRE(staged.size() == 2);
    CHECK(staged[0] == std::pair{date("2024-01-02"), 9.5});
    CHECK(staged[1] == std::pair{date("2024-01-03"), 10.25});
    store.clear_staged_pre_close();
    CHECK(store.load_staged_pre_close("000001.SZ").empty());
    store.stage_pre_close("000001.SZ", date("2024-01-02"), 6.0);
  } // rolled back
  store::WriteTransaction transaction(store);
  CHECK(store.load_staged_pre_close("000001.SZ").empty());
  store.stage_pre_close("000001.SZ", date("2024-01-02"), 7.0);
  CHECK(store.load_staged_pre_close("000001.SZ") == std::vector{std::pair{date("2024-01-02"), 7.0}});
  transaction.commit();
}

TEST_CASE("store::copy_bars: every bar, symbol and source exactly, only into an empty store") {
  test::StoreBackend source_backend;
  test::StoreBackend destination_backend;
  const auto from = source_backend.open_bars();
  const auto to = destination_backend.open_bars();
  auto odd = make_bar("2024-01-03", 1525.4000000000001, 1530.12, 1500.01, 0.1 + 0.2, 8.305);
  odd.turnover = 123456789.12345679;
  store_bars(*from, "600519.SH",
             {make_bar("2024-01-02", 10, 11, 9, 10.5, 8.305), odd,
              make_bar("2024-01-04", 11, 11.5, 10.8, 11.2, 8.5)},
             true); // change_pct derived
  {
    store::WriteTransaction transaction(*from);
    auto given = make_bar("2023-12-29", 5, 6, 4, 5.5, 1.25);
    given.change_pct = -1.2974;
    from->upsert_bar("000001.SZ", given, false);
    from->refresh_symbol("000001.SZ");
    from->save_symbol_source("000001.SZ", {"tushare", "adj_factor", true});
    from->finish_change("tushare");
    transaction.commit();
  }
  std::vector<std::pair<std::int64_t, std::int64_t>> progress;
  const auto copied = store::copy_bars(*from, *to, [&](std::int64_t done, std::int64_t total) {
    progress.emplace_back(done, total);
  });
  REQUIRE(copied);
  CHECK(copied->symbols == 2);
  CHECK(copied->bars == 4);
  CHECK(progress == std::vector<std::pair<std::int64_t, std::int64_t>>{{1, 4}, {4, 4}});

  const auto symbols_from = from->load_symbols();
  const auto symbols_to = to->load_symbols();
  REQUIRE(symbols_to.size() == symbols_from.size());
  for (std::size_t i = 0; i < symbols_from.size(); ++i) {
    const auto& want = symbols_from[i];
    const auto& got = symbols_to[i];
    CAPTURE(want.symbol);
    CHECK(got.symbol == want.symbol);
    CHECK(got.first_date == want.first_date);
    CHECK(got.last_date == want.last_date);
    CHECK(got.bar_count == want.bar_count);
    CHECK(std::bit_cast<std::uint64_t>(got.latest_factor)
          == std::bit_cast<std::uint64_t>(want.latest_factor));
    CHECK(got.source == want.source);
    CHECK(got.factor_origin == want.factor_origin);
    CHECK(got.adjusted == want.adjusted);
    CHECK(all_bars(*to, want.symbol) == all_bars(*from, want.symbol));
    CHECK(to->load_derived_dates(want.symbol) == from->load_derived_dates(want.symbol));
  }
  CHECK(to->load_derived_dates("600519.SH").size() == 3);
  CHECK(to->load_derived_dates("000001.SZ").empty());
  CHECK(all_bars(*to, "600519.SH")[1].turnover == 123456789.12345679);
  CHECK(to->load_dataset_info().as_of == from->load_dataset_info().as_of);
  CHECK(to->load_dataset_info().source == "tushare");

  SUBCASE("never into a store that holds bars: an error, nothing written") {
    const auto generation = to->load_generation();
    const auto again = store::copy_bars(*from, *to);
    REQUIRE_FALSE(again);
    CHECK(again.error().code == ErrorCode::invalid_input);
    CHECK(again.error().message
          == "the destination already holds bars of 2 symbols: copy into an empty store, so that "
             "it holds exactly the source's bars");
    CHECK(to->load_generation() == generation);
  }
}

TEST_CASE("store::BarStore::insert_bar of a stored bar fails its transaction, the store goes on") {
  test::StoreBackend backend;
  const auto owned = backend.open_bars();
  auto& store = *owned;
  store_bars(store, "600519.SH", {make_bar("2024-01-02", 10, 11, 9, 10.5)});
  {
    store::WriteTransaction transaction(store);
    // SQLite refuses the row at once, PostgreSQL when the batch is written: by the next statement.
    CHECK_THROWS(([&] {
      store.insert_bar("600519.SH", make_bar("2024-01-03", 1, 1, 1, 1), false);
      store.insert_bar("600519.SH", make_bar("2024-01-02", 1, 1, 1, 1), false);
      store.refresh_symbol("600519.SH");
    }()));
  } // rolled back
  REQUIRE(all_bars(store, "600519.SH").size() == 1);
  CHECK(all_bars(store, "600519.SH")[0].close == 10.5);
  store_bars(store, "600519.SH", {make_bar("2024-01-03", 10, 11, 9, 11)});
  CHECK(all_bars(store, "600519.SH").size() == 2);
  CHECK(store.find_symbol("600519.SH")->bar_count == 2);
}
