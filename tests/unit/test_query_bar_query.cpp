#include "store_backend.hpp"
#include "testutil.hpp"

#include "core/query/adjustment.hpp"
#include "core/query/bar_query.hpp"
#include "core/query/catalog.hpp"
#include "core/query/history.hpp"

#include <doctest/doctest.h>

#include <map>
#include <string>
#include <vector>

using namespace ashare;
using domain::SortOrder;
using test::date;

namespace {

// Return the items of `q` read as the server reads them: each known symbol's whole history, its
// window picked by query::window_item.
std::vector<query::SymbolBars> run_query(store::BarStore& store, const query::BarQuery& q) {
  const auto catalog = query::load_catalog(store);
  std::vector<query::SymbolBars> items;
  for (const auto& symbol : q.symbols) {
    const auto* info = catalog->find(symbol.str());
    if (info == nullptr) {
      items.push_back(query::SymbolBars{symbol.str(), false, {}, false, std::nullopt});
      continue;
    }
    const auto history = query::load_history(store, info->symbol, info->latest_factor);
    items.push_back(query::window_item(info->symbol, history.bars(q.adjusted), q));
  }
  return items;
}

std::vector<domain::Symbol> symbols(std::initializer_list<const char*> texts) {
  std::vector<domain::Symbol> out;
  for (const char* text : texts) {
    out.push_back(*domain::parse_symbol(text));
  }
  return out;
}

// The data store holding test::k_two_symbols_csv.
struct BarQueryFixture {
  test::StoreBackend stores;
  std::unique_ptr<store::BarStore> store = stores.open_bars();
  BarQueryFixture() { REQUIRE(test::import_text(*store, test::k_two_symbols_csv).committed); }

  std::vector<query::SymbolBars> run(const query::BarQuery& q) { return run_query(*store, q); }
};

query::BarQuery make_query(std::initializer_list<const char*> texts,
                           const char* from = "2024-01-01",
                           const char* to = "2024-01-31") {
  query::BarQuery q;
  q.symbols = symbols(texts);
  q.from = date(from);
  q.to = date(to);
  return q;
}

} // namespace

TEST_CASE("query::window_item: sort, then limit, with has_more") {
  BarQueryFixture f;
  auto q = make_query({"600519.SH"});
  q.adjusted = false;

  SUBCASE("asc, no limit reached") {
    const auto items = f.run(q);
    REQUIRE(items.size() == 1);
    CHECK(items[0].known);
    CHECK(test::dates_of(items[0].bars)
          == std::vector<std::string>{"2024-01-02", "2024-01-03", "2024-01-04", "2024-01-05",
                                      "2024-01-08"});
    CHECK_FALSE(items[0].has_more);
    CHECK_FALSE(items[0].summary.has_value()); // only with include_summary
  }
  SUBCASE("asc, limit 2 keeps the earliest two") {
    q.limit = 2;
    const auto items = f.run(q);
    CHECK(test::dates_of(items[0].bars) == std::vector<std::string>{"2024-01-02", "2024-01-03"});
    CHECK(items[0].has_more);
  }
  SUBCASE("desc, limit 2 keeps the latest two (SPEC rule 3)") {
    q.sort = SortOrder::desc;
    q.limit = 2;
    const auto items = f.run(q);
    CHECK(test::dates_of(items[0].bars) == std::vector<std::string>{"2024-01-08", "2024-01-05"});
    CHECK(items[0].has_more);
  }
  SUBCASE("a limit equal to the bars in range leaves nothing out") {
    q.limit = 5;
    CHECK_FALSE(f.run(q)[0].has_more);
    q.limit = 4;
    CHECK(f.run(q)[0].has_more);
  }
  SUBCASE("from == to gives zero or one bar (SPEC rule 5)") {
    q.from = q.to = date("2024-01-03");
    CHECK(test::dates_of(f.run(q)[0].bars) == std::vector<std::string>{"2024-01-03"});
    q.from = q.to = date("2024-01-06"); // a Saturday
    const auto items = f.run(q);
    CHECK(items[0].known);
    CHECK(items[0].bars.empty());
    CHECK_FALSE(items[0].has_more);
  }
  SUBCASE("raw prices when not adjusted") {
    const auto items = f.run(q);
    CHECK(items[0].bars[0].close == 10.5);
    CHECK(items[0].bars[3].close == 5.9);
    CHECK(items[0].bars[3].factor == 2.0);
  }
}

TEST_CASE("D1: query::window_item: items in request order, unknown symbols marked") {
  BarQueryFixture f;
  auto q = make_query({"000002.SZ", "600519.SH", "000001.SZ"});
  q.include_summary = true;
  q.limit = 1;
  const auto items = f.run(q);
  REQUIRE(items.size() == 3);
  CHECK(items[0].symbol == "000002.SZ");
  CHECK_FALSE(items[0].known);
  CHECK(items[0].bars.empty());
  CHECK_FALSE(items[0].has_more);
  CHECK_FALSE(items[0].summary.has_value());
  CHECK(items[1].symbol == "600519.SH");
  CHECK(items[1].known);
  CHECK(items[1].bars.size() == 1); // limit applies to each symbol separately
  CHECK(items[1].has_more);
  CHECK(items[2].symbol == "000001.SZ");
  CHECK(items[2].known);
  CHECK(items[2].bars.size() == 1);
  CHECK(items[2].has_more);

  SUBCASE("a known symbol without bars in range is a success with an empty series") {
    auto late = make_query({"000001.SZ"}, "2024-01-05", "2024-01-08");
    late.include_summary = true;
    const auto only = f.run(late);
    CHECK(only[0].known);
    CHECK(only[0].bars.empty());
    REQUIRE(only[0].summary.has_value());
    CHECK(only[0].summary->bars_count == 0);
    CHECK_FALSE(only[0].summary->return_pct.has_value());
  }
}

TEST_CASE("D8: adjustment uses the latest stored factor") {
  BarQueryFixture f;

  SUBCASE("not the latest factor of the range asked") {
    // The range ends before the ex-rights day; its own latest factor is 1, the symbol's is 2.
    const auto items = f.run(make_query({"600519.SH"}, "2024-01-02", "2024-01-04"));
    REQUIRE(items[0].bars.size() == 3);
    CHECK(items[0].bars[0].open == 5.0);
    CHECK(items[0].bars[0].high == 5.5);
    CHECK(items[0].bars[0].low == 4.5);
    CHECK(items[0].bars[0].close == 5.25);
    CHECK(items[0].bars[2].close == 5.6);
    CHECK(items[0].bars[0].factor == 1.0); // factor, volume and change_pct are not adjusted
    CHECK(items[0].bars[0].volume == 100);
    CHECK(items[0].bars[1].change_pct == 4.7619);
  }
  SUBCASE("so a day's adjusted price does not depend on the range") {
    const auto narrow = f.run(make_query({"600519.SH"}, "2024-01-03", "2024-01-03"));
    const auto wide = f.run(make_query({"600519.SH"}, "2024-01-01", "2024-01-31"));
    CHECK(narrow[0].bars[0].close == 5.5);
    CHECK(wide[0].bars[1].close == 5.5);
  }
  SUBCASE("the summary uses the prices as returned") {
    auto q = make_query({"600519.SH"}, "2024-01-02", "2024-01-08");
    q.include_summary = true;
    const auto items = f.run(q);
    REQUIRE(items[0].summary.has_value());
    CHECK(items[0].summary->open_first == 5.0); // 10 * 1 / 2
    CHECK(items[0].summary->close_last == 6.05);
    CHECK(items[0].summary->return_pct == 21.0);
    CHECK(items[0].summary->bars_count == 5);
  }
}

TEST_CASE("D8: adjusted closes of the real 600519.SH fixture") {
  test::StoreBackend stores;
  stores.import_fixture("bancob_600519.SH.csv");
  const auto store = stores.open_bars();
  const auto catalog = query::load_catalog(*store);
  const auto* info = catalog->find("600519.SH");
  REQUIRE(info != nullptr);
  CHECK(info->latest_factor == 8.305); // the factor of the last row, 2025-10-23
  CHECK(info->last_date == date("2025-10-23"));

  query::BarQuery q;
  q.symbols = symbols({"600519.SH"});
  q.from = date("2023-09-25");
  q.to = date("2025-10-23");
  const auto adjusted = run_query(*store, q)[0].bars;
  q.adjusted = false;
  const auto raw = run_query(*store, q)[0].bars;
  REQUIRE(adjusted.size() == 500);
  REQUIRE(raw.size() == 500);

  SUBCASE("known values: close * adj_factor / 8.305, rounded to 4 decimals") {
    // close and adj_factor as in the file; expected values worked out independently.
    const std::map<std::string, double> expected{
        {"2023-09-25", 1713.8986}, // 1832.38 * 7.768  / 8.305
        {"2023-12-19", 1566.6948}, // 1675.0  * 7.768  / 8.305 (the day before a factor step)
        {"2023-12-20", 1560.9139}, // 1649.79 * 7.8576 / 8.305
        {"2024-06-19", 1449.563},  // 1501.0  * 8.0204 / 8.305
        {"2024-06-25", 1435.7226}, // 1486.65 * 8.0205 / 8.305 (Tushare's noise factor)
        {"2025-10-23", 1467.98},   // the anchor bar itself: raw
    };
    std::size_t seen = 0;
    for (const auto& bar : adjusted) {
      const auto it = expected.find(bar.trade_date.iso());
      if (it != expected.end()) {
        CAPTURE(it->first);
        CHECK(bar.close == it->second);
        ++seen;
      }
    }
    CHECK(seen == expected.size());
  }

  SUBCASE("every bar: adjusted = round4(raw * factor / 8.305), raw = stored prices") {
    for (std::size_t i = 0; i < raw.size(); ++i) {
      CAPTURE(raw[i].trade_date.iso());
      REQUIRE(adjusted[i].trade_date == raw[i].trade_date);
      CHECK(adjusted[i].close == query::round4(raw[i].close * raw[i].factor / 8.305));
      CHECK(adjusted[i].open == query::round4(raw[i].open * raw[i].factor / 8.305));
      CHECK(adjusted[i].volume == raw[i].volume);
      CHECK(adjusted[i].change_pct == raw[i].change_pct);
    }
    CHECK(raw.front().close == 1832.38);
    CHECK(raw.front().factor == 7.768);
  }
}
