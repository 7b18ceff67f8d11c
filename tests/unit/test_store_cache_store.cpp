// The remote-mode cache store (issue 4); the rules it is read with are tested in test_remote_*.
#include "testutil.hpp"

#include "core/store/cache_store.hpp"
#include "core/store/schema.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace ashare;
using domain::SortOrder;
using test::date;
using test::make_bar;

namespace {

const std::string k_remote = "http://127.0.0.1:8080";
const std::string k_other = "https://other.example/api";

store::FetchedPage page(const std::string& symbol,
                        std::vector<domain::Bar> bars,
                        std::string_view first,
                        std::string_view last,
                        std::string_view as_of = "2024-01-05") {
  return store::FetchedPage{symbol,      std::move(bars), date(first), date(last),
                            date(as_of), std::nullopt};
}

} // namespace

TEST_CASE("store::open_database: the cache store kind") {
  test::TempDir dir;
  auto db = store::open_database(dir / "ashare-cache.db", store::StoreKind::cache);
  CHECK(store::current_schema_version(store::StoreKind::cache) >= 1);
  CHECK(db.execAndGet("PRAGMA user_version").getInt()
        == store::current_schema_version(store::StoreKind::cache));
  CHECK(db.execAndGet("PRAGMA journal_mode").getString() == "wal");
  // Cached bars are keyed by (base_url, symbol, trade_date): two remotes never mix.
  db.exec("INSERT INTO cached_bars VALUES ('a', '600519.SH', 20240102, 1, 1, 1, 1, 1, 1, 0, 1)");
  db.exec("INSERT INTO cached_bars VALUES ('b', '600519.SH', 20240102, 2, 2, 2, 2, 1, 1, 0, 1)");
  CHECK_THROWS_AS(
      db.exec(
          "INSERT INTO cached_bars VALUES ('a', '600519.SH', 20240102, 1, 1, 1, 1, 1, 1, 0, 1)"),
      SQLite::Exception);
}

TEST_CASE("store::CacheStore: the remote's as_of, last check and source") {
  test::TempDir dir;
  store::CacheStore cache(dir / "ashare-cache.db");

  SUBCASE("an unknown remote has nothing recorded") {
    const auto state = cache.load_remote(k_remote);
    CHECK_FALSE(state.as_of);
    CHECK_FALSE(state.checked_at_ms);
    CHECK(state.source == "");
  }
  SUBCASE("a check records as_of and when; a later check replaces both") {
    cache.save_check(k_remote, date("2024-01-05"), 1000);
    cache.save_check(k_remote, date("2024-01-08"), 2000);
    const auto state = cache.load_remote(k_remote);
    CHECK(state.as_of == date("2024-01-08"));
    CHECK(state.checked_at_ms == 2000);
    CHECK_FALSE(cache.load_remote(k_other).as_of); // keyed by base URL
  }
  SUBCASE("a check of an empty remote records no as_of") {
    cache.save_check(k_remote, std::nullopt, 1000);
    CHECK_FALSE(cache.load_remote(k_remote).as_of);
    CHECK(cache.load_remote(k_remote).checked_at_ms == 1000);
  }
  SUBCASE("an answer's meta moves as_of forward only, keeps the check time, records the source") {
    cache.save_check(k_remote, date("2024-01-05"), 1000);
    cache.save_answer_meta(k_remote, date("2024-01-08"), "tushare");
    CHECK(cache.load_remote(k_remote).as_of == date("2024-01-08"));
    cache.save_answer_meta(k_remote, date("2024-01-04"), "tushare2");
    const auto state = cache.load_remote(k_remote);
    CHECK(state.as_of == date("2024-01-08"));
    CHECK(state.checked_at_ms == 1000);
    CHECK(state.source == "tushare2");
  }
}

TEST_CASE("store::CacheStore: pages, bars and coverage") {
  test::TempDir dir;
  store::CacheStore cache(dir / "ashare-cache.db");
  cache.save_page(k_remote, page("600519.SH",
                                 {make_bar("2024-01-02", 10, 11, 9, 10.5, 2.0),
                                  make_bar("2024-01-03", 10.5, 12, 10, 11, 2.0),
                                  make_bar("2024-01-04", 11, 11.5, 10.8, 11.2, 2.5)},
                                 "2024-01-01", "2024-01-04"));
  cache.save_page(k_other, page("600519.SH", {make_bar("2024-01-02", 99, 99, 99, 99)}, "2024-01-02",
                                "2024-01-02"));

  SUBCASE("bars of a window, in either order, limited, raw as saved") {
    const auto asc = cache.load_bars(k_remote, "600519.SH", date("2024-01-02"), date("2024-01-03"),
                                     SortOrder::asc, 10);
    CHECK(test::dates_of(asc) == std::vector<std::string>{"2024-01-02", "2024-01-03"});
    CHECK(asc[0].close == 10.5);
    CHECK(asc[0].factor == 2.0);
    CHECK(asc[0].volume == 1000);
    const auto desc = cache.load_bars(k_remote, "600519.SH", date("2024-01-01"), date("2024-01-31"),
                                      SortOrder::desc, 2);
    CHECK(test::dates_of(desc) == std::vector<std::string>{"2024-01-04", "2024-01-03"});
  }
  SUBCASE("each remote sees its own bars and coverage") {
    const auto other = cache.load_bars(k_other, "600519.SH", date("2024-01-01"), date("2024-01-31"),
                                       SortOrder::asc, 10);
    REQUIRE(other.size() == 1);
    CHECK(other[0].close == 99);
    CHECK(cache.load_coverage(k_other, "600519.SH").size() == 1);
    CHECK(cache.load_coverage(k_remote, "000001.SZ").empty());
  }
  SUBCASE("coverage rows are kept per fetch, with the as_of they were fetched at") {
    cache.save_page(k_remote, page("600519.SH", {make_bar("2024-01-05", 11, 12, 10, 11.5, 2.5)},
                                   "2024-01-05", "2024-01-05", "2024-01-05"));
    const auto rows = cache.load_coverage(k_remote, "600519.SH");
    REQUIRE(rows.size() == 2);
    CHECK(rows[0].first == date("2024-01-01"));
    CHECK(rows[0].last == date("2024-01-04"));
    CHECK(rows[0].fetched_as_of == date("2024-01-05"));
  }
  SUBCASE("a page saved again replaces the bars of the same days") {
    cache.save_page(k_remote, page("600519.SH", {make_bar("2024-01-03", 1, 1, 1, 1.5, 2.0)},
                                   "2024-01-03", "2024-01-03"));
    const auto bars = cache.load_bars(k_remote, "600519.SH", date("2024-01-03"), date("2024-01-03"),
                                      SortOrder::asc, 10);
    REQUIRE(bars.size() == 1);
    CHECK(bars[0].close == 1.5);
  }
  SUBCASE("an empty window is covered without bars; first > last records nothing") {
    cache.save_page(k_remote, page("000001.SZ", {}, "2024-02-01", "2024-02-29"));
    cache.save_page(k_remote, page("000002.SZ", {}, "2024-02-02", "2024-02-01"));
    CHECK(cache.load_coverage(k_remote, "000001.SZ").size() == 1);
    CHECK(cache.load_coverage(k_remote, "000002.SZ").empty());
  }
  SUBCASE("a price series is one column and the factors, ascending") {
    const auto series = cache.load_price_series(k_remote, "600519.SH", store::PriceField::high);
    CHECK(series.prices == std::vector<double>{11, 12, 11.5});
    CHECK(series.factors == std::vector<double>{2.0, 2.0, 2.5});
    REQUIRE(series.dates.size() == 3);
    CHECK(series.dates.front() == date("2024-01-02"));
  }
  SUBCASE("symbols with their bar counts and coverage, for ashare info") {
    cache.save_page(k_remote, page("000001.SZ", {}, "2024-02-01", "2024-02-29"));
    const auto symbols = cache.load_symbols(k_remote);
    REQUIRE(symbols.size() == 2);
    CHECK(symbols[0].symbol == "000001.SZ");
    CHECK(symbols[0].bar_count == 0);
    CHECK(symbols[1].symbol == "600519.SH");
    CHECK(symbols[1].bar_count == 3);
    CHECK(symbols[1].coverage.size() == 1);
    CHECK(cache.load_symbols("http://nowhere").empty());
  }
  SUBCASE("symbol names only, ordered, per remote, for shell completion") {
    cache.save_page(k_remote, page("000001.SZ", {}, "2024-02-01", "2024-02-29"));
    CHECK(cache.load_symbol_names(k_remote) == std::vector<std::string>{"000001.SZ", "600519.SH"});
    CHECK(cache.load_symbol_names(k_other) == std::vector<std::string>{"600519.SH"});
    CHECK(cache.load_symbol_names("http://nowhere").empty());
  }
}

TEST_CASE("store::CacheStore: anchors (D8) per remote and symbol") {
  test::TempDir dir;
  store::CacheStore cache(dir / "ashare-cache.db");
  CHECK_FALSE(cache.find_anchor(k_remote, "600519.SH"));
  cache.save_anchor(k_remote, "600519.SH", {8.305, date("2025-10-23")});
  cache.save_anchor(k_remote, "600519.SH", {8.5, date("2025-10-27")});
  const auto anchor = cache.find_anchor(k_remote, "600519.SH");
  REQUIRE(anchor);
  CHECK(anchor->factor == 8.5);
  CHECK(anchor->as_of == date("2025-10-27"));
  CHECK_FALSE(cache.find_anchor(k_other, "600519.SH"));
}

TEST_CASE("store::CacheStore: each symbol's source as the remote reported it (D8)") {
  test::TempDir dir;
  store::CacheStore cache(dir / "ashare-cache.db");
  CHECK_FALSE(cache.find_symbol_source(k_remote, "600519.SH"));
  auto tushare = page("600519.SH", {}, "2024-01-02", "2024-01-05");
  tushare.source = "tushare";
  cache.save_page(k_remote, tushare);
  cache.save_page(k_remote, page("600519.SH", {}, "2024-01-08", "2024-01-09")); // said nothing
  CHECK(cache.find_symbol_source(k_remote, "600519.SH") == "tushare");
  auto akshare = page("600519.SH", {}, "2024-01-10", "2024-01-11");
  akshare.source = "akshare"; // re-imported at the remote since
  cache.save_page(k_remote, akshare);
  CHECK(cache.find_symbol_source(k_remote, "600519.SH") == "akshare");
  CHECK_FALSE(cache.find_symbol_source(k_other, "600519.SH"));
  CHECK_FALSE(cache.find_symbol_source(k_remote, "600036.SH"));
}

TEST_CASE("store::CacheStore survives reopening") {
  test::TempDir dir;
  {
    store::CacheStore cache(dir / "ashare-cache.db");
    cache.save_page(k_remote, page("600519.SH", {make_bar("2024-01-02", 1, 1, 1, 1)}, "2024-01-01",
                                   "2024-01-02"));
  }
  store::CacheStore cache(dir / "ashare-cache.db");
  CHECK(cache.load_coverage(k_remote, "600519.SH").size() == 1);
}
