// The market record (store/market_record.hpp): D19's calendar, listings, suspensions, absence
// marks and aliases and D18's ledger, with as_of and copy_bars() that read them, on each backend
// (store_backend.hpp: SQLite here, PostgreSQL in ashare_postgres_tests).
#include "store_backend.hpp"
#include "testutil.hpp"

#include "core/domain/shipped_calendar.hpp"
#include "core/store/bar_store.hpp"
#include "core/store/market_record.hpp"

#include <doctest/doctest.h>

#include <string>
#include <utility>
#include <vector>

using namespace ashare;
using test::date;
using test::make_bar;

namespace {

std::vector<std::string> isos(const std::vector<domain::Date>& days) {
  std::vector<std::string> out;
  for (const auto& day : days) {
    out.push_back(day.iso());
  }
  return out;
}

// Store `bars` of `symbol` in one committed change, with `ledger` rows written before it ends.
void store_change(store::BarStore& store,
                  const std::string& symbol,
                  const std::vector<domain::Bar>& bars,
                  const std::vector<store::LedgerDay>& ledger = {}) {
  store::WriteTransaction transaction(store);
  for (const auto& bar : bars) {
    store.upsert_bar(symbol, bar, false);
  }
  store.refresh_symbol(symbol);
  for (const auto& day : ledger) {
    store.market().save_ledger_day(day);
  }
  store.finish_change("test");
  transaction.commit();
}

} // namespace

TEST_CASE("D19: a new store holds the shipped calendar, every day of its span") {
  test::StoreBackend backend;
  const auto store = backend.open_bars();
  auto& market = store->market();
  const auto span = market.load_calendar_span();
  REQUIRE(span);
  CHECK(span->first.iso() == "1990-12-19");
  CHECK(span->second.iso() == "2026-12-31");
  const auto open = market.load_open_days(span->first, span->second);
  CHECK(open.size() == domain::shipped_open_days().size());
  // Spring Festival 2024: closed 2024-02-09 .. 2024-02-16 (and the weekends around it).
  CHECK(isos(market.load_open_days(date("2024-02-07"), date("2024-02-20")))
        == std::vector<std::string>{"2024-02-07", "2024-02-08", "2024-02-19", "2024-02-20"});
  CHECK(market.load_open_days(date("2027-01-01"), date("2027-01-31")).empty());
}

TEST_CASE("store::MarketRecord::save_calendar replaces the span and keeps the days around it") {
  test::StoreBackend backend;
  const auto owned = backend.open_bars();
  auto& store = *owned;
  auto& market = store.market();
  {
    store::WriteTransaction transaction(store);
    // 2027-01-04 .. 2027-01-08 open but the Wednesday; the span goes past the shipped end.
    market.save_calendar(date("2026-12-31"), date("2027-01-10"),
                        {date("2027-01-04"), date("2027-01-05"), date("2027-01-07"),
                         date("2027-01-08")});
    transaction.commit();
  }
  CHECK(market.load_calendar_span()->second.iso() == "2027-01-10");
  CHECK(isos(market.load_open_days(date("2026-12-30"), date("2027-01-31")))
        == std::vector<std::string>{"2026-12-30", "2027-01-04", "2027-01-05", "2027-01-07",
                                    "2027-01-08"}); // 2026-12-31 is now closed
  SUBCASE("a write rolled back changes nothing") {
    {
      store::WriteTransaction transaction(store);
      market.save_calendar(date("2027-01-01"), date("2027-01-31"), {});
    }
    CHECK(market.load_open_days(date("2027-01-01"), date("2027-01-31")).size() == 4);
  }
}

TEST_CASE("store::MarketRecord: listings, suspensions and absence marks") {
  test::StoreBackend backend;
  const auto owned = backend.open_bars();
  auto& store = *owned;
  auto& market = store.market();
  store::WriteTransaction transaction(store);
  market.save_listing({"600519.SH", "贵州茅台", date("2001-08-27"), std::nullopt, 'L'});
  market.save_listing({"000001.SZ", "平安银行", date("1991-04-03"), std::nullopt, 'L'});
  market.save_listing({"000001.SZ", "平安银行", date("1991-04-03"), date("2030-01-02"), 'D'});
  market.save_listing({"600001.SH", "邯郸钢铁", std::nullopt, std::nullopt, 'P'});
  market.save_suspension("600519.SH", date("2006-02-24"));
  market.save_suspension("600519.SH", date("2006-02-23"));
  market.save_suspension("600519.SH", date("2006-02-23")); // a second record is ignored
  market.save_suspension("000001.SZ", date("2010-06-29"));
  market.save_absence({"600519.SH", date("2024-01-03"), "tdx"});
  market.save_absence({"600519.SH", date("2024-01-03"), "tdx"});
  market.save_absence({"600519.SH", date("2024-01-03"), "tushare-pro"});
  market.save_absence({"600519.SH", date("2024-01-02"), "tdx"});
  market.save_absence({"000001.SZ", date("2024-01-02"), "tdx"});
  transaction.commit();

  const auto listings = market.load_listings();
  REQUIRE(listings.size() == 3);
  CHECK(listings[0].symbol == "000001.SZ"); // by symbol
  CHECK(listings[0].status == 'D');
  CHECK(listings[0].delist_date == date("2030-01-02"));
  CHECK(listings[1].symbol == "600001.SH");
  CHECK(!listings[1].list_date);
  CHECK(listings[2].name == "贵州茅台");
  CHECK(listings[2].list_date == date("2001-08-27"));
  CHECK(!listings[2].delist_date);

  CHECK(isos(market.load_suspensions("600519.SH"))
        == std::vector<std::string>{"2006-02-23", "2006-02-24"});
  const auto every = market.load_suspensions();
  REQUIRE(every.size() == 3);
  CHECK(every[0].first == "000001.SZ");

  const auto absences = market.load_absences("600519.SH");
  REQUIRE(absences.size() == 3);
  CHECK(absences[0].trade_date == date("2024-01-02"));
  CHECK(absences[1].provider == "tdx");
  CHECK(absences[2].provider == "tushare-pro");
  CHECK(market.load_absences("").size() == 4);
  {
    store::WriteTransaction forget(store);
    market.delete_absence("600519.SH", date("2024-01-03")); // every provider's mark of that day
    forget.commit();
  }
  CHECK(market.load_absences("600519.SH").size() == 1);
  CHECK(market.load_absences("000001.SZ").size() == 1);
}

TEST_CASE("store::MarketRecord::load_ledger: by provider, ascending by date then symbol") {
  test::StoreBackend backend;
  const auto owned = backend.open_bars();
  auto& store = *owned;
  auto& market = store.market();
  {
    store::WriteTransaction transaction(store);
    market.save_ledger_day({"tushare-pro", date("2024-01-03"), "", 5300});
    market.save_ledger_day({"tushare-pro", date("2024-01-02"), "", 5290});
    market.save_ledger_day({"tdx", date("2024-01-02"), "600519.SH", 1});
    market.save_ledger_day({"tushare-pro", date("2024-01-02"), "", 5291}); // replaces
    transaction.commit();
  }
  const auto all = market.load_ledger("");
  REQUIRE(all.size() == 3);
  CHECK(all[0].trade_date == date("2024-01-02"));
  CHECK(all[0].symbol.empty());
  CHECK(all[0].rows == 5291);
  CHECK(all[1].symbol == "600519.SH");
  CHECK(all[2].trade_date == date("2024-01-03"));
  CHECK(market.load_ledger("tdx").size() == 1);
  CHECK(market.load_ledger("tushare-pro").size() == 2);
}

TEST_CASE("store::MarketRecord::forget_symbol_ledger_days: a provider's symbol rows of a day") {
  test::StoreBackend backend;
  const auto owned = backend.open_bars();
  auto& store = *owned;
  auto& market = store.market();
  {
    store::WriteTransaction transaction(store);
    market.save_ledger_day({"tdx", date("2024-01-02"), "600519.SH", 1});
    market.save_ledger_day({"tdx", date("2024-01-02"), "000001.SZ", 1});
    market.save_ledger_day({"tdx", date("2024-01-03"), "600519.SH", 1});
    market.save_ledger_day({"tushare-pro", date("2024-01-02"), "600519.SH", 1});
    transaction.commit();
  }
  {
    store::WriteTransaction transaction(store);
    market.save_ledger_day({"tdx", date("2024-01-02"), "", 2});
    market.forget_symbol_ledger_days("tdx", date("2024-01-02"));
    transaction.commit();
  }
  const auto tdx = market.load_ledger("tdx");
  REQUIRE(tdx.size() == 2);
  CHECK(tdx[0].trade_date == date("2024-01-02"));
  CHECK(tdx[0].symbol.empty());
  CHECK(tdx[0].rows == 2);
  CHECK(tdx[1].trade_date == date("2024-01-03"));
  CHECK(tdx[1].symbol == "600519.SH");
  CHECK(market.load_ledger("tushare-pro").size() == 1);
}

TEST_CASE("D18: as_of is the latest whole-market ledger day, else the latest bar") {
  test::StoreBackend backend;
  const auto owned = backend.open_bars();
  auto& store = *owned;
  SUBCASE("without ledger days: the latest bar (D8)") {
    store_change(store, "600519.SH", {make_bar("2024-01-02", 10, 11, 9, 10.5)});
    CHECK(store.load_dataset_info().as_of == date("2024-01-02"));
  }
  SUBCASE("a fetch's ledger day counts at the commit that writes it") {
    store_change(store, "600519.SH",
                 {make_bar("2024-01-02", 10, 11, 9, 10.5), make_bar("2024-01-03", 10, 11, 9, 10.5)},
                 {{"tushare-pro", date("2024-01-02"), "", 2}});
    CHECK(store.load_dataset_info().as_of == date("2024-01-02"));
    // A later bar from an import or a fetch naming symbols does not move it.
    store_change(store, "000001.SZ", {make_bar("2024-01-05", 5, 6, 4, 5.5)},
                 {{"tdx", date("2024-01-05"), "000001.SZ", 1}});
    CHECK(store.load_dataset_info().as_of == date("2024-01-02"));
    store_change(store, "000001.SZ", {}, {{"tdx", date("2024-01-04"), "", 5000}});
    CHECK(store.load_dataset_info().as_of == date("2024-01-04"));
  }
}

TEST_CASE("D19: copy_bars carries the calendar, listings, suspensions, absences, ledger and aliases") {
  test::StoreBackend from_backend;
  test::StoreBackend to_backend;
  const auto from = from_backend.open_bars();
  const auto to = to_backend.open_bars();
  store_change(*from, "600519.SH",
               {make_bar("2024-01-02", 10, 11, 9, 10.5), make_bar("2024-01-03", 10, 11, 9, 10.5)},
               {{"tushare-pro", date("2024-01-02"), "", 5000}});
  auto& source = from->market();
  auto& copy = to->market();
  {
    store::WriteTransaction transaction(*from);
    source.save_calendar(date("2026-12-28"), date("2027-01-05"), {date("2027-01-04")});
    source.save_listing({"600519.SH", "贵州茅台", date("2001-08-27"), std::nullopt, 'L'});
    source.save_suspension("600519.SH", date("2006-02-23"));
    source.save_absence({"600519.SH", date("2024-01-04"), "tdx"});
    source.save_alias({"837023.BJ", "920999.BJ"}); // refreshed after the shipped table
    transaction.commit();
  }
  REQUIRE(store::copy_bars(*from, *to));
  CHECK(copy.load_aliases() == source.load_aliases());
  CHECK(copy.load_aliases().size() == 248);
  // One code's alias, by either code: what a one-shot query reads (issue 43, P2).
  CHECK(copy.load_alias_of("920999.BJ") == store::CodeAlias{"837023.BJ", "920999.BJ"});
  CHECK(copy.load_alias_of("837023.BJ") == store::CodeAlias{"837023.BJ", "920999.BJ"});
  CHECK_FALSE(copy.load_alias_of("920123.BJ").has_value()); // its pair was replaced
  CHECK_FALSE(copy.load_alias_of("600519.SH").has_value());
  CHECK(copy.load_calendar_span() == source.load_calendar_span());
  const auto span = *source.load_calendar_span();
  CHECK(copy.load_open_days(span.first, span.second)
        == source.load_open_days(span.first, span.second));
  CHECK(copy.load_listings().size() == 1);
  CHECK(isos(copy.load_suspensions("600519.SH")) == std::vector<std::string>{"2006-02-23"});
  CHECK(copy.load_absences("600519.SH").size() == 1);
  REQUIRE(copy.load_ledger("").size() == 1);
  CHECK(to->load_dataset_info().as_of == date("2024-01-02")); // the ledger's, not the last bar's
}

namespace {

using domain::Kind;

// The kinds load_symbols() gives, by symbol.
std::vector<std::pair<std::string, std::optional<Kind>>> symbol_kinds(store::BarStore& store) {
  std::vector<std::pair<std::string, std::optional<Kind>>> out;
  for (const auto& info : store.load_symbols()) {
    out.emplace_back(info.symbol, info.kind);
  }
  return out;
}

} // namespace

TEST_CASE("D20: listings and ledger rows keep their kind; a day's ledger is per kind") {
  test::StoreBackend backend;
  const auto owned = backend.open_bars();
  auto& store = *owned;
  auto& market = store.market();
  {
    store::WriteTransaction transaction(store);
    market.save_listing({"000300.SH", "沪深300", date("2005-04-08"), std::nullopt, 'L', Kind::index});
    market.save_listing({"510300.SH", "沪深300ETF", date("2012-05-28"), std::nullopt, 'L', Kind::fund});
    market.save_listing({"600519.SH", "贵州茅台", date("2001-08-27"), std::nullopt, 'L'});
    market.save_ledger_day({"tushare-pro", date("2024-01-02"), "", 5000});
    market.save_ledger_day({"tushare-pro", date("2024-01-02"), "", 900, Kind::fund});
    market.save_ledger_day({"tushare-pro", date("2024-01-02"), "000300.SH", 1, Kind::index});
    market.save_ledger_day({"tushare-pro", date("2024-01-02"), "", 901, Kind::fund}); // replaces
    transaction.commit();
  }
  const auto listings = market.load_listings();
  REQUIRE(listings.size() == 3);
  CHECK(listings[0].kind == Kind::index);
  CHECK(listings[1].kind == Kind::fund);
  CHECK(listings[2].kind == Kind::stock);
  const auto ledger = market.load_ledger("tushare-pro");
  REQUIRE(ledger.size() == 3);
  // By date, symbol, then kind: the two whole-market rows first (fund before stock), each kept.
  CHECK(ledger[0].symbol.empty());
  CHECK(ledger[0].kind == Kind::fund);
  CHECK(ledger[0].rows == 901);
  CHECK(ledger[1].symbol.empty());
  CHECK(ledger[1].kind == Kind::stock);
  CHECK(ledger[1].rows == 5000);
  CHECK(ledger[2].symbol == "000300.SH");
  CHECK(ledger[2].kind == Kind::index);
}

TEST_CASE("D20: load_kind is the listing's kind, else the code's, nullopt for a code kept out") {
  test::StoreBackend backend;
  const auto owned = backend.open_bars();
  auto& store = *owned;
  auto& market = store.market();
  {
    store::WriteTransaction transaction(store);
    // A list's word beats the code's (made up: no list calls a 60xxxx code a fund).
    market.save_listing({"600000.SH", "浦发银行", std::nullopt, std::nullopt, 'L', Kind::fund});
    transaction.commit();
  }
  CHECK(market.load_kind("600000.SH") == Kind::fund);
  CHECK(market.load_kind("000300.SH") == Kind::index);
  CHECK(market.load_kind("000001.SH") == Kind::index);
  CHECK(market.load_kind("000001.SZ") == Kind::stock); // the same digits on another exchange
  CHECK(market.load_kind("510300.SH") == Kind::fund);
  CHECK(market.load_kind("159915.SZ") == Kind::fund);
  CHECK(market.load_kind("600519.SH") == Kind::stock);
  CHECK_FALSE(market.load_kind("508000.SH").has_value()); // a REIT
  CHECK_FALSE(market.load_kind("900901.SH").has_value()); // a B share
}

TEST_CASE("D20: a symbol's kind is its listing's, else its code's, whenever its summary is written") {
  test::StoreBackend backend;
  const auto owned = backend.open_bars();
  auto& store = *owned;
  auto& market = store.market();
  {
    store::WriteTransaction transaction(store);
    market.save_listing({"600000.SH", "made up", std::nullopt, std::nullopt, 'L', Kind::index});
    transaction.commit();
  }
  for (const char* symbol : {"000300.SH", "510300.SH", "600000.SH", "600519.SH", "900901.SH"}) {
    store_change(store, symbol, {make_bar("2024-01-02", 10, 11, 9, 10.5)});
  }
  using Row = std::pair<std::string, std::optional<Kind>>;
  CHECK(symbol_kinds(store)
        == std::vector<Row>{{"000300.SH", Kind::index},
                            {"510300.SH", Kind::fund},
                            {"600000.SH", Kind::index}, // the listing saved before its bars
                            {"600519.SH", Kind::stock},
                            {"900901.SH", std::nullopt}}); // kept out: stored before D20
  SUBCASE("a listing saved with another kind changes it; later summaries keep the listing's") {
    {
      store::WriteTransaction transaction(store);
      market.save_listing({"600519.SH", "made up", std::nullopt, std::nullopt, 'L', Kind::fund});
      transaction.commit();
    }
    CHECK(store.find_symbol("600519.SH")->kind == Kind::fund);
    store_change(store, "600519.SH", {make_bar("2024-01-03", 10, 11, 9, 10.5)}); // refresh_symbol
    CHECK(store.find_symbol("600519.SH")->kind == Kind::fund);
    {
      store::WriteTransaction transaction(store);
      store.save_symbol_summary("600519.SH", date("2024-01-02"), date("2024-01-03"), 2, 1.0);
      store.save_symbol_summary("510300.SH", date("2024-01-02"), date("2024-01-02"), 1, 1.0);
      transaction.commit();
    }
    CHECK(store.find_symbol("600519.SH")->kind == Kind::fund);
    CHECK(store.find_symbol("510300.SH")->kind == Kind::fund);
  }
  SUBCASE("it is what load_kind says") {
    for (const auto& [symbol, kind] : symbol_kinds(store)) {
      CAPTURE(symbol);
      CHECK(kind == market.load_kind(symbol));
    }
  }
}

TEST_CASE("D20: as_of reads the stocks' whole-market ledger rows") {
  test::StoreBackend backend;
  const auto owned = backend.open_bars();
  auto& store = *owned;
  store_change(store, "600519.SH",
               {make_bar("2024-01-02", 10, 11, 9, 10.5), make_bar("2024-01-05", 10, 11, 9, 10.5)},
               {{"tushare-pro", date("2024-01-02"), "", 5000}});
  store_change(store, "510300.SH", {make_bar("2024-01-05", 3, 3, 3, 3)},
               {{"tushare-pro", date("2024-01-05"), "", 900, Kind::fund},
                {"tushare-pro", date("2024-01-05"), "", 8, Kind::index}});
  CHECK(store.load_dataset_info().as_of == date("2024-01-02"));
  store_change(store, "600519.SH", {}, {{"tushare-pro", date("2024-01-04"), "", 5000}});
  CHECK(store.load_dataset_info().as_of == date("2024-01-04"));
}

TEST_CASE("D20: copy_bars carries the kinds of listings, ledger rows and symbols") {
  test::StoreBackend from_backend;
  test::StoreBackend to_backend;
  const auto from = from_backend.open_bars();
  const auto to = to_backend.open_bars();
  {
    store::WriteTransaction transaction(*from);
    // Made up: a listing whose kind is not its code's shows that the copy keeps the listing's.
    from->market().save_listing({"600000.SH", "made up", std::nullopt, std::nullopt, 'L', Kind::fund});
    from->market().save_listing({"000300.SH", "沪深300", std::nullopt, std::nullopt, 'L', Kind::index});
    transaction.commit();
  }
  for (const char* symbol : {"000300.SH", "510300.SH", "600000.SH", "600519.SH"}) {
    store_change(*from, symbol, {make_bar("2024-01-02", 10, 11, 9, 10.5)});
  }
  store_change(*from, "510300.SH", {},
               {{"tushare-pro", date("2024-01-02"), "", 5000},
                {"tushare-pro", date("2024-01-02"), "", 900, Kind::fund},
                {"tdx", date("2024-01-02"), "000300.SH", 1, Kind::index}});
  REQUIRE(store::copy_bars(*from, *to));
  CHECK(symbol_kinds(*to) == symbol_kinds(*from));
  CHECK(to->find_symbol("600000.SH")->kind == Kind::fund);
  const auto listings = to->market().load_listings();
  REQUIRE(listings.size() == 2);
  CHECK(listings[0].kind == Kind::index);
  CHECK(listings[1].kind == Kind::fund);
  const auto ledger = to->market().load_ledger("");
  REQUIRE(ledger.size() == 3);
  CHECK(ledger[0].kind == Kind::fund);
  CHECK(ledger[1].kind == Kind::stock);
  CHECK(ledger[2].kind == Kind::index);
}

TEST_CASE("D20: a store made before D20 is upgraded: listings and ledger are stocks', symbols get kinds") {
  test::StoreBackend backend;
  const bool sqlite = std::string(test::StoreBackend::name()) == "sqlite";
  backend.make_data_store_at(sqlite ? 7 : 5); // the last schema before D20
  const std::string summaries = sqlite ? "symbols" : "bar_symbols";
  backend.exec_data_sql(
    "INSERT INTO listings(symbol, name, list_date, delist_date, status) VALUES "
    "('600519.SH', '贵州茅台', 20010827, NULL, 'L');"
    "INSERT INTO fetch_ledger(provider, trade_date, symbol, rows) VALUES "
    "('tushare-pro', 20240102, '', 5000), ('tdx', 20240103, '600519.SH', 1);"
    "INSERT INTO " + summaries + "(symbol, first_date, last_date, bar_count, latest_factor) VALUES "
    "('000300.SH', 20240102, 20240102, 1, 1), ('510300.SH', 20240102, 20240102, 1, 1), "
    "('600519.SH', 20240102, 20240102, 1, 1), ('900901.SH', 20240102, 20240102, 1, 1);");
  const auto owned = backend.open_bars(); // migrates
  auto& store = *owned;
  auto& market = store.market();
  const auto listings = market.load_listings();
  REQUIRE(listings.size() == 1);
  CHECK(listings[0].kind == Kind::stock);
  const auto ledger = market.load_ledger("");
  REQUIRE(ledger.size() == 2);
  CHECK(ledger[0].kind == Kind::stock);
  CHECK(ledger[1].kind == Kind::stock);
  using Row = std::pair<std::string, std::optional<Kind>>;
  CHECK(symbol_kinds(store)
        == std::vector<Row>{{"000300.SH", Kind::index},
                            {"510300.SH", Kind::fund},
                            {"600519.SH", Kind::stock},
                            {"900901.SH", std::nullopt}});
  // The ledger's key has the kind: a whole day of funds beside the stocks', as_of the stocks'.
  {
    store::WriteTransaction transaction(store);
    market.save_ledger_day({"tushare-pro", date("2024-01-03"), "", 900, Kind::fund});
    market.save_ledger_day({"tushare-pro", date("2024-01-02"), "", 901, Kind::fund});
    store.finish_change("");
    transaction.commit();
  }
  CHECK(market.load_ledger("tushare-pro").size() == 3);
  CHECK(store.load_dataset_info().as_of == date("2024-01-02"));
}
