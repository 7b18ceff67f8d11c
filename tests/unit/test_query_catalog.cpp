#include "store_backend.hpp"
#include "testutil.hpp"

#include "core/query/catalog.hpp"
#include "core/store/sqlite_bar_store.hpp"

#include <doctest/doctest.h>

using namespace ashare;
using test::date;

namespace {

constexpr const char* k_header = "symbol,trade_date,open,high,low,close,volume,turnover,factor\n";

} // namespace

TEST_CASE("query::load_catalog") {
  const test::StoreBackend stores;
  const auto store = stores.open_bars();
  const auto empty = query::load_catalog(*store);
  CHECK(empty->symbols.empty());
  CHECK_FALSE(empty->dataset.as_of.has_value());
  CHECK(empty->find("600519.SH") == nullptr);

  test::import_text(*store,
                    std::string(k_header)
                        + "600519.SH,2024-01-02,10,11,9,10.5,100,1050,1\n"
                          "600519.SH,2024-01-03,10,11,9,10.5,100,1050,1.5\n"
                          "000001.SZ,2024-01-04,9,9.5,8.5,9.2,1000,9200,1\n",
                    test::import_options(false, "unit"));
  const auto catalog = query::load_catalog(*store);
  CHECK(catalog->dataset.as_of == date("2024-01-04"));
  CHECK(catalog->dataset.source == "unit");
  CHECK(catalog->dataset.generation == 1);
  CHECK(catalog->symbols.size() == 2);
  const auto* info = catalog->find("600519.SH");
  REQUIRE(info != nullptr);
  CHECK(info->latest_factor == 1.5);
  CHECK(info->bar_count == 2);
  CHECK(catalog->find("600519.sh") == nullptr); // callers look up the canonical form
  CHECK(catalog->find("000002.SZ") == nullptr);
}

TEST_CASE("query::CatalogCache reloads only when the generation changes") {
  test::TempDir dir;
  const auto path = dir / "ashare.db";
  store::SqliteBarStore server(path);
  store::SqliteBarStore importer(path);
  test::import_text(importer,
                    std::string(k_header) + "600519.SH,2024-01-02,10,11,9,10.5,100,1050,1\n");

  query::CatalogCache cache;
  const auto first = cache.current(server);
  CHECK(first->find("600519.SH") != nullptr);
  CHECK(cache.current(server) == first); // same generation: the same catalog object

  test::import_text(importer,
                    std::string(k_header) + "000001.SZ,2024-01-05,9,9.5,8.5,9.2,1000,9200,1\n");
  const auto second = cache.current(server);
  CHECK(second != first);
  CHECK(second->find("000001.SZ") != nullptr);
  CHECK(second->dataset.as_of == date("2024-01-05"));
  CHECK(second->dataset.generation == first->dataset.generation + 1);
  // The old catalog is still valid for whoever holds it.
  CHECK(first->find("000001.SZ") == nullptr);
}

TEST_CASE("query::CatalogCache::find_fresh answers without the store while nothing changed") {
  using Clock = std::chrono::steady_clock;
  test::TempDir dir;
  const auto path = dir / "ashare.db";
  store::SqliteBarStore server(path);
  store::SqliteBarStore importer(path);
  test::import_text(importer,
                    std::string(k_header) + "600519.SH,2024-01-02,10,11,9,10.5,100,1050,1\n");
  store::ChangeCounter changes(path);
  query::CatalogCache cache(&changes);
  const auto t0 = Clock::now();

  CHECK(cache.find_fresh(t0) == nullptr); // never checked
  const auto first = cache.current(server, t0);
  CHECK(cache.find_fresh(t0) == first);
  CHECK(cache.find_fresh(t0 + std::chrono::milliseconds(900)) == first);

  SUBCASE("an import moves the counter: the next request reads the store") {
    test::import_text(importer,
                      std::string(k_header) + "000001.SZ,2024-01-05,9,9.5,8.5,9.2,1000,9200,1\n");
    CHECK(cache.find_fresh(t0) == nullptr);
    const auto second = cache.current(server, t0);
    CHECK(second->find("000001.SZ") != nullptr);
    CHECK(cache.find_fresh(t0) == second);
  }
  SUBCASE("a write that did not bump the counter is seen within a second") {
    importer.database().exec("UPDATE meta SET value = CAST(CAST(value AS INTEGER) + 1 AS TEXT) "
                             "WHERE key = 'generation'");
    CHECK(cache.find_fresh(t0) == first); // the counter says nothing changed
    const auto later = t0 + store::k_recheck_interval;
    CHECK(cache.find_fresh(later) == nullptr);
    const auto reread = cache.current(server, later);
    CHECK(reread->dataset.generation == first->dataset.generation + 1);
  }
  SUBCASE("without a counter, it never answers from memory alone") {
    query::CatalogCache blind;
    blind.current(server, t0);
    CHECK(blind.find_fresh(t0) == nullptr);
  }
}

TEST_CASE("query::served_source: D8's meta.source for the symbols served") {
  using Sources = std::vector<std::string>;
  CHECK(query::served_source(Sources{"tushare"}, "tdx") == "tushare");
  CHECK(query::served_source(Sources{"akshare", "tushare", "akshare"}, "tdx") == "akshare,tushare");
  CHECK(query::served_source(Sources{"tushare", "tushare"}, "tdx") == "tushare");
  CHECK(query::served_source(Sources{}, "tdx") == "tdx"); // none served: the last import's
}
