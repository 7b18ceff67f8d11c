// api::HistoryCache: a window selected from a cached history answers exactly what the reference
// (reading the window from SQLite, tests/unit/reference_bar_query.hpp) answers (bars, next_url,
// summary and every byte of each bar's JSON), and so does the bounded read of query::read_window;
// entries go stale with the store's generation, and the byte budget holds.
#include "reference_bar_query.hpp"
#include "testutil.hpp"

#include "core/api/answer.hpp"
#include "core/api/bars_endpoint.hpp"
#include "core/api/history_cache.hpp"
#include "core/api/dispatch.hpp"
#include "core/api/json.hpp"
#include "core/api/store_view.hpp"
#include "core/query/catalog.hpp"
#include "core/store/sqlite_bar_store.hpp"

#include <doctest/doctest.h>

#include <functional>
#include <nlohmann/json.hpp>

using namespace ashare;
using test::date;

namespace {

struct CacheFixture {
  test::TempDir dir;
  std::filesystem::path db = dir / "ashare.db";
  store::SqliteBarStore store{db};

  CacheFixture() {
    test::import_fixture(store, "bancob_600519.SH.csv"); // factors step 4 times
    test::import_fixture(store, "jenny_000001.SZ.csv");  // no factors
  }
};

query::BarQuery make_query(const char* from, const char* to, bool adjusted, domain::SortOrder sort,
                           std::int64_t limit) {
  query::BarQuery query;
  query.from = date(from);
  query.to = date(to);
  query.adjusted = adjusted;
  query.sort = sort;
  query.limit = limit;
  query.include_summary = true;
  return query;
}

// The fixture's store as `serve` answers it (with the history cache) and as a one-shot command
// does (without).
struct CachedAndOneShot {
  api::Services cached;
  api::Services one_shot;
  api::Services compact; // a budget whose rendered share holds neither history: compact forms
  explicit CachedAndOneShot(const CacheFixture& f)
      : cached(f.db, f.dir / "ashare-keys.db"), one_shot(f.db, f.dir / "ashare-keys.db"),
        compact(f.db, f.dir / "ashare-keys.db") {
    one_shot.cache_histories = false;
    compact.histories.set_budget(1u << 20);
  }
};

// A body without what differs between two answers of the same data: the request id.
nlohmann::json comparable_body(const std::string& body) {
  auto parsed = nlohmann::json::parse(body);
  parsed.erase("request_id");
  return parsed;
}

// Bars requests (path, query): windows, sort, limit, summary, raw prices, an unknown symbol among
// several.
std::vector<std::pair<std::string, std::string>> bar_requests() {
  const std::string bars = "/v1/ohlc/range/1/day/";
  return {
      {bars + "2024-01-01/2024-06-30", "symbol=600519.SH"},
      {bars + "2023-01-01/2025-12-31", "symbol=600519.SH,000001.SZ&sort=desc&limit=7"},
      {bars + "2024-06-01/2024-07-31", "symbol=600519.SH&adjusted=false&include=summary"},
      {bars + "2024-06-01/2024-07-31", "symbol=600519.SH,999999.SH&include=summary&limit=3"},
      {bars + "2026-01-01/2026-12-31", "symbol=000001.SZ"},
  };
}

// Return the body of a single-symbol bars response holding `item`, written from `exact` when
// it has one entry per bar.
std::string bars_json(query::SymbolBars item, std::vector<domain::BarTenThousandths> exact) {
  api::BarsResponse response;
  response.items.emplace_back(query::ExactWindow{std::move(item), std::move(exact)});
  return api::bars_to_json(response, std::nullopt);
}

} // namespace

TEST_CASE("api::select_bars and query::read_window, from the store or compact bars, answer what the "
          "reference answers") {
  CacheFixture f;
  const auto catalog = query::load_catalog(f.store);
  const std::vector<std::pair<const char*, const char*>> windows{
    {"2024-01-01", "2024-06-30"}, {"2023-09-25", "2023-09-25"}, {"1990-01-01", "2099-12-31"},
    {"2026-01-01", "2026-12-31"}, {"2024-06-19", "2024-06-18"}, {"2020-01-01", "2023-09-24"},
  };
  for (const auto* symbol : {"600519.SH", "000001.SZ"}) {
    const auto* info = catalog->find(symbol);
    REQUIRE(info != nullptr);
    const auto history =
      api::render_history(query::load_history(f.store, symbol, info->latest_factor));
    const auto compact = query::CompactBars::encode(query::load_all_bars(f.store, symbol));
    for (const auto& [from, to] : windows) {
      for (const bool adjusted : {true, false}) {
        for (const auto sort : {domain::SortOrder::asc, domain::SortOrder::desc}) {
          for (const std::int64_t limit : {1, 7, 5000}) {
            CAPTURE(symbol);
            CAPTURE(from);
            CAPTURE(to);
            CAPTURE(adjusted);
            CAPTURE(limit);
            auto query = make_query(from, to, adjusted, sort, limit);
            query.symbols = {*domain::parse_symbol(symbol)};
            const auto expected = test::reference_bar_query(f.store, *catalog, query).front();
            const auto window = api::select_bars(*history, symbol, query);
            const auto& got = window.item;
            const auto& pieces = window.json;
            const auto got_bars = window.bars();
            CHECK(got.known);
            CHECK(got.has_more == expected.has_more);
            REQUIRE(got_bars.size() == expected.bars.size());
            // Ascending, the bars are not copied: they are the history's own (issue 35).
            if (sort == domain::SortOrder::asc) {
              CHECK(got.bars.empty());
            }
            std::string joined_expected;
            for (std::size_t i = 0; i < got_bars.size(); ++i) {
              CHECK(got_bars[i] == expected.bars[i]);
              joined_expected += (i > 0 ? "," : "") + api::bar_to_json(expected.bars[i]);
            }
            std::string joined_got;
            for (const auto piece : pieces) {
              joined_got += (joined_got.empty() ? "" : ",") + std::string(piece);
            }
            CHECK(joined_got == joined_expected);
            // One piece for an ascending slice (written without copying bar by bar).
            if (sort == domain::SortOrder::asc) {
              CHECK(pieces.size() == (got_bars.empty() ? 0u : 1u));
            }
            // The bounded read a one-shot command can answer from, through the same pick.
            const auto read = [&](domain::Date first, domain::Date last, domain::SortOrder order,
                                  std::int64_t most) {
              return f.store.load_bars(symbol, first, last, order, most);
            };
            const auto from_read = query::read_window(symbol, read, query, info->latest_factor);
            CHECK(from_read.has_more == expected.has_more);
            CHECK(from_read.bars == expected.bars);
            // And the same window from the compact form, written from its whole 1/10000s
            // (issue 11, P5): the same bytes.
            auto from_compact = compact.read_window(symbol, query, info->latest_factor);
            CHECK(from_compact.item.has_more == expected.has_more);
            CHECK(from_compact.item.bars == expected.bars);
            CHECK(bars_json(std::move(from_compact.item), std::move(from_compact.exact))
                  == bars_json(expected, {}));
            CHECK(got.summary.has_value() == expected.summary.has_value());
            if (got.summary && expected.summary) {
              CHECK(got.summary->open_first == expected.summary->open_first);
              CHECK(got.summary->close_last == expected.summary->close_last);
              CHECK(got.summary->return_pct == expected.summary->return_pct);
              CHECK(got.summary->bars_count == expected.summary->bars_count);
            }
          }
        }
      }
    }
  }
}

TEST_CASE("query::History::price_series reads what BarStore::load_price_series reads (D9)") {
  CacheFixture f;
  const auto history = query::load_history(f.store, "600519.SH", 8.305);
  for (const auto field : {store::PriceField::open, store::PriceField::high, store::PriceField::low,
                           store::PriceField::close}) {
    CAPTURE(store::price_field_name(field));
    const auto expected = f.store.load_price_series("600519.SH", field);
    const auto got = history.price_series(field);
    CHECK(got.dates == expected.dates);
    CHECK(got.prices == expected.prices);
    CHECK(got.factors == expected.factors);
  }
}

TEST_CASE("api::HistoryCache") {
  CacheFixture f;
  const auto catalog = query::load_catalog(f.store);
  const auto* info = catalog->find("600519.SH");
  const auto generation = catalog->dataset.generation;

  SUBCASE("a hit returns the same history; a new generation loads again") {
    api::HistoryCache cache(64u << 20);
    const auto first = cache.find_or_load(f.store, "600519.SH", info->latest_factor, generation);
    CHECK(first->history.raw.size() == 500);
    CHECK(cache.bytes() == first->bytes);
    CHECK(cache.find_or_load(f.store, "600519.SH", info->latest_factor, generation) == first);
    const auto next = cache.find_or_load(f.store, "600519.SH", info->latest_factor, generation + 1);
    CHECK(next != first);
    CHECK(cache.bytes() == next->bytes);
    // An older generation (a request that began before the change) does not evict the newer.
    const auto old = cache.find_or_load(f.store, "600519.SH", info->latest_factor, generation);
    CHECK(old != next);
    CHECK(cache.find_or_load(f.store, "600519.SH", info->latest_factor, generation + 1) == next);
  }
  SUBCASE("the budget holds: least recently used first, too big never kept") {
    const auto one =
      api::render_history(query::load_history(f.store, "600519.SH", info->latest_factor))->bytes;
    api::HistoryCache cache(one + one / 2);
    const auto* other = catalog->find("000001.SZ");
    cache.find_or_load(f.store, "600519.SH", info->latest_factor, generation);
    cache.find_or_load(f.store, "000001.SZ", other->latest_factor, generation);
    CHECK(cache.bytes() <= one + one / 2);
    api::HistoryCache tiny(one / 2);
    const auto history = tiny.find_or_load(f.store, "600519.SH", info->latest_factor, generation);
    CHECK(history->history.raw.size() == 500);
    CHECK(tiny.bytes() == 0);
  }
}

TEST_CASE("api::dispatch: bars served from the cache follow an import") {
  test::TempDir dir;
  const auto data = dir / "ashare.db";
  const auto keys = dir / "ashare-keys.db";
  {
    store::SqliteBarStore store(data);
    REQUIRE(test::import_text(store,
                              "symbol,trade_date,open,high,low,close,volume,turnover,factor\n"
                              "600519.SH,2024-01-02,10,11,9,10.5,100,1050,1\n",
                              test::import_options(false, "unit"))
              .committed);
  }
  api::Services services(data, keys);
  const auto key = test::create_key(keys, auth::Plan::pro, std::nullopt);
  const auto get = [&] {
    const auto response =
      api::dispatch(api::Request{"GET", "/v1/ohlc/range/1/day/2024-01-01/2024-01-31",
                                 "symbol=600519.SH", "Bearer " + key.plaintext},
                    services);
    REQUIRE(response.status == 200);
    return nlohmann::json::parse(response.body.str());
  };
  CHECK(get()["ohlc"].size() == 1);
  CHECK(get()["ohlc"][0]["close"] == 10.5);
  {
    store::SqliteBarStore store(data);
    REQUIRE(test::import_text(store,
                              "symbol,trade_date,open,high,low,close,volume,turnover,factor\n"
                              "600519.SH,2024-01-02,10,11,9,10.6,100,1060,1\n"
                              "600519.SH,2024-01-03,5,6,4,5.5,100,550,2\n",
                              test::import_options(false, "unit"))
              .committed);
  }
  const auto after = get();
  REQUIRE(after["ohlc"].size() == 2);
  CHECK(after["ohlc"][0]["close"] == 5.3);  // D8: 10.6 * 1 / 2
  CHECK(after["ohlc"][1]["close"] == 5.5);
}

TEST_CASE("issue 11: without the history cache (a one-shot command), or with compact histories, the "
          "answers are the same") {
  CacheFixture f;
  CachedAndOneShot services(f);
  auto& [cached, one_shot, compact] = services;
  const api::Caller pro{0, auth::Plan::pro, false};
  auto requests = bar_requests();
  requests.insert(requests.end(), {
    {"/v1/indicators/sma", "symbol=600519.SH&window=20&limit=50"},
    {"/v1/indicators/ema", "symbol=600519.SH,000001.SZ&order=asc&series_type=high"},
    {"/v1/indicators/rsi", "symbol=600519.SH&adjusted=false&timestamp.gte=2024-06-03"},
    {"/healthz", ""},
  });
  for (const auto& [path, query] : requests) {
    CAPTURE(path);
    CAPTURE(query);
    const api::Request request{"GET", path, query, std::nullopt};
    // Three times: a server reads a symbol's first miss row by row; asked again, it reads the
    // rows once more while its filler loads the history (issue 35); the third is from the cache.
    for (int time = 0; time < 3; ++time) {
      CAPTURE(time);
      const auto expected = api::dispatch_trusted(request, cached, pro);
      const auto got = api::dispatch_trusted(request, one_shot, pro);
      CHECK(got.status == expected.status);
      CHECK(comparable_body(got.body.str()) == comparable_body(expected.body.str()));
      const auto from_compact = api::dispatch_trusted(request, compact, pro);
      CHECK(from_compact.status == expected.status);
      CHECK(comparable_body(from_compact.body.str()) == comparable_body(expected.body.str()));
      test::await_idle(cached.filler);
      test::await_idle(compact.filler);
    }
  }
  CHECK(one_shot.histories.bytes() == 0); // nothing was cached
  CHECK(cached.histories.bytes() > 0);
  const auto generation = cached.bars.acquire()->load_generation();
  for (const auto* symbol : {"600519.SH", "000001.SZ"}) {
    CAPTURE(symbol);
    CHECK(cached.histories.find(symbol, generation).rendered);
    CHECK(compact.histories.find(symbol, generation).compact);
  }
}

TEST_CASE("issue 35: a cached answer's bars are the rendering's, by reference, and a body keeps "
          "them through an eviction and an import") {
  CacheFixture f;
  api::Services services(f.db, f.dir / "ashare-keys.db");
  const api::Caller pro{0, auth::Plan::pro, false};
  const api::Request request{"GET", "/v1/ohlc/range/1/day/2023-01-01/2024-12-31",
                             "symbol=600519.SH&adjusted=false&include=summary", std::nullopt};
  // The second request has the filler render the history; the third is served from it.
  api::dispatch_trusted(request, services, pro);
  api::dispatch_trusted(request, services, pro);
  test::await_idle(services.filler);
  const auto in_flight = api::dispatch_trusted(request, services, pro);
  REQUIRE(in_flight.status == 200);
  CHECK(in_flight.body.piece_count() == 3); // the envelope's head, the bars, the envelope's end
  CHECK(in_flight.body.prefix().size() < 1024);
  const auto sent = in_flight.body.str();
  CHECK(comparable_body(sent) == comparable_body(api::dispatch_trusted(request, services, pro).body.str()));

  // The store changes (the cache's entry goes stale and a new one is rendered), and the cache
  // drops everything: the body in flight is unchanged, byte for byte.
  REQUIRE(test::import_text(f.store,
                            "symbol,trade_date,open,high,low,close,volume,turnover,factor\n"
                            "600519.SH,2024-12-31,1,2,0.5,1.5,100,150,1\n",
                            test::import_options(false, "unit"))
            .committed);
  for (int time = 0; time < 3; ++time) {
    api::dispatch_trusted(request, services, pro);
    test::await_idle(services.filler);
  }
  services.histories.set_budget(1);
  CHECK(services.histories.bytes() == 0);
  CHECK(in_flight.body.str() == sent);
  const auto after = nlohmann::json::parse(api::dispatch_trusted(request, services, pro).body.str());
  CHECK(after["ohlc"].back()["close"] == 1.5); // the import took effect
}

TEST_CASE("issue 31: api::answer is dispatch_trusted's answer, typed, bar for bar") {
  CacheFixture f;
  api::Services services(f.db, f.dir / "ashare-keys.db");
  services.cache_histories = false; // as the one-shot command line runs
  const std::string bars = "/v1/ohlc/range/1/day/";
  auto requests = bar_requests();
  requests.insert(requests.end(), {
    {bars + "2024-01-01/2024-06-30", "symbol=999999.SH"},           // 400, D1
    {bars + "2001-01-01/2024-06-30", "symbol=600519.SH,000001.SZ"}, // 403 for Free
  });
  for (const auto plan : {auth::Plan::pro, auth::Plan::free}) {
    const api::Caller caller{0, plan, false};
    for (const auto& [path, query] : requests) {
      CAPTURE(path);
      CAPTURE(query);
      const auto expected = api::dispatch_trusted(api::Request{"GET", path, query, std::nullopt},
                                                  services, caller);
      auto request = api::parse_typed_request(path, query);
      REQUIRE(request);
      REQUIRE(*request);
      api::StoreView view(services.bars, services.catalog, services.histories, services.filler, false,
                          api::Waiting::allowed, api::StoreView::Clock::now());
      const auto got = api::answer(**request, caller, view, "request-id");
      if (expected.status != 200) {
        REQUIRE(std::holds_alternative<Error>(got));
        const auto error = api::error_from_json(expected.body.str());
        REQUIRE(error);
        CHECK(std::get<Error>(got).code == error->code);
        CHECK(std::get<Error>(got).message == error->message);
        continue;
      }
      REQUIRE(std::holds_alternative<api::BarsResponse>(got));
      const auto& response = std::get<api::BarsResponse>(got);
      CHECK(comparable_body(api::bars_to_json(response, std::nullopt)) == comparable_body(expected.body.str()));
      const auto parsed = api::bars_from_json(expected.body.str());
      REQUIRE(parsed);
      REQUIRE(response.items.size() == parsed->items.size());
      for (std::size_t i = 0; i < response.items.size(); ++i) {
        CHECK(api::item_error(response, i).has_value() == parsed->items[i].error.has_value());
      }
    }
  }
}

TEST_CASE("issue 11: serve --cache-budget: the cache keeps within the budget it is given") {
  CacheFixture f;
  api::Services services(f.db, f.dir / "ashare-keys.db");
  const api::Caller pro{0, auth::Plan::pro, false};
  const auto ask = [&](const char* symbol) {
    const api::Request request{"GET", "/v1/ohlc/range/1/day/2024-01-01/2024-06-30",
                               std::string("symbol=") + symbol, std::nullopt};
    REQUIRE(api::dispatch_trusted(request, services, pro).status == 200);
    test::await_idle(services.filler); // what the request asked the filler for is loaded (issue 35)
  };
  ask("600519.SH"); // a first miss reads just its rows
  CHECK(services.histories.bytes() == 0);
  ask("600519.SH"); // asked again: now cached whole (HistoryCache::admit)
  const auto one = services.histories.bytes();
  ask("000001.SZ");
  ask("000001.SZ");
  const auto both = services.histories.bytes();
  REQUIRE(one > 0);
  REQUIRE(both > one); // the default budget holds both

  // A budget that fits the larger history (000001.SZ's 1,212 bars), not both: the least recently
  // used (600519.SH's 500) leaves at once.
  REQUIRE(both - one > one);
  services.histories.set_budget(both - one);
  CHECK(services.histories.bytes() == both - one);
  const auto generation = services.bars.acquire()->load_generation();
  CHECK(services.histories.find("000001.SZ", generation));
  CHECK(!services.histories.find("600519.SH", generation));
  // Asked again after leaving, it comes back in place of 000001.SZ only once asked for more than
  // twice as often (HistoryCache::admit): an even load over more symbols than fit does not evict
  // a history per request (issue 11, P5). It comes back compact: an eighth of this budget cannot
  // hold it rendered.
  ask("600519.SH"); // asked 3 times, 000001.SZ 3 times (the find above counts)
  ask("600519.SH");
  ask("600519.SH");
  CHECK(services.histories.bytes() == both - one);
  CHECK(!services.histories.find("600519.SH", generation));
  ask("600519.SH"); // 6: not more than twice 3
  CHECK(services.histories.bytes() == both - one);
  ask("600519.SH"); // 7: loaded, and 000001.SZ leaves
  const auto back = services.histories.find("600519.SH", generation);
  REQUIRE(back.compact);
  CHECK(services.histories.bytes() == back.compact->bytes());
  CHECK(back.compact->bytes() < one / 10);
  CHECK(!services.histories.find("000001.SZ", generation));
}

TEST_CASE("issue 11: rendered histories hold at most an eighth of the budget, compact ones the rest") {
  CacheFixture f;
  api::Services services(f.db, f.dir / "ashare-keys.db");
  const auto generation = services.bars.acquire()->load_generation();
  const auto rendered_600519 = api::estimated_history_bytes(500);
  // A budget whose eighth holds 600519.SH's 500 bars rendered but not 000001.SZ's 1,212 too.
  constexpr auto share = api::HistoryCache::k_rendered_share;
  services.histories.set_budget(share * (rendered_600519 + rendered_600519 / 10));
  const api::Caller pro{0, auth::Plan::pro, false};
  for (const auto* symbol : {"600519.SH", "600519.SH", "000001.SZ", "000001.SZ"}) {
    const api::Request request{"GET", "/v1/ohlc/range/1/day/2024-01-01/2024-06-30",
                               std::string("symbol=") + symbol, std::nullopt};
    REQUIRE(api::dispatch_trusted(request, services, pro).status == 200);
    test::await_idle(services.filler);
  }
  const auto first = services.histories.find("600519.SH", generation);
  const auto second = services.histories.find("000001.SZ", generation);
  CHECK(first.rendered);
  CHECK(second.compact);
  CHECK(services.histories.bytes() == first.rendered->bytes + second.compact->bytes());
}

TEST_CASE("issue 11: a compact history asked for more than twice as often as the least recently "
          "used rendered one takes its place") {
  CacheFixture f;
  api::Services services(f.db, f.dir / "ashare-keys.db");
  const auto catalog = query::load_catalog(f.store);
  const auto rendered_000001 =
    api::render_history(query::load_history(f.store, "000001.SZ",
                                            catalog->find("000001.SZ")->latest_factor))
      ->bytes;
  // A budget whose eighth holds 000001.SZ rendered, but not 600519.SH beside it.
  services.histories.set_budget(api::HistoryCache::k_rendered_share
                                * (rendered_000001 + api::estimated_history_bytes(500) / 2));
  // As a server asks: in memory on a network thread, deferred to a worker when the store is
  // needed. Return whether the request was deferred.
  const auto key = test::create_key(f.dir / "ashare-keys.db", auth::Plan::pro, std::nullopt);
  const auto ask = [&](const char* symbol) {
    const api::Request request{"GET", "/v1/ohlc/range/1/day/2024-01-01/2024-06-30",
                               std::string("symbol=") + symbol, "Bearer " + key.plaintext};
    auto step = api::dispatch_in_memory(request, services);
    bool deferred = false;
    if (const auto* response = std::get_if<api::Response>(&step)) {
      REQUIRE(response->status == 200);
    } else {
      REQUIRE(std::holds_alternative<api::Deferred>(step));
      REQUIRE(api::finish_dispatch(request, services, std::get<api::Deferred>(step)).status == 200);
      deferred = true;
    }
    test::await_idle(services.filler); // what the request asked the filler for is loaded (issue 35)
    return deferred;
  };
  ask("000001.SZ");
  ask("000001.SZ"); // asked twice: rendered
  ask("600519.SH");
  ask("600519.SH"); // asked twice: compact, the rendered share being full
  const auto both = services.histories.bytes();
  CHECK(both > rendered_000001);
  CHECK(both < rendered_000001 + rendered_000001 / 10);
  CHECK(!ask("600519.SH")); // 3 and 4: not more than twice 000001.SZ's 2, answered compact in memory
  CHECK(!ask("600519.SH"));
  CHECK(services.histories.bytes() == both);
  // 5: answered from the compact form in memory; the filler renders it in place of 000001.SZ.
  CHECK(!ask("600519.SH"));
  const auto generation = services.bars.acquire()->load_generation();
  const auto promoted = services.histories.find("600519.SH", generation);
  REQUIRE(promoted.rendered);
  CHECK(services.histories.bytes() == promoted.rendered->bytes);
  CHECK(!services.histories.find("000001.SZ", generation));
}

TEST_CASE("issue 11: a one-shot request reads only its own symbols' catalog entries") {
  CacheFixture f;
  api::Services services(f.db, f.dir / "ashare-keys.db");
  for (const bool cache_histories : {true, false}) {
    CAPTURE(cache_histories);
    api::StoreView view(services.bars, services.catalog, services.histories, services.filler,
                        cache_histories,
                        api::Waiting::allowed, api::StoreView::Clock::now());
    const std::vector<domain::Symbol> asked{*domain::parse_symbol("600519.SH"),
                                            *domain::parse_symbol("999999.SH")};
    const auto catalog = view.catalog(asked);
    REQUIRE(catalog);
    CHECK(catalog->find("600519.SH") != nullptr);
    CHECK(catalog->find("999999.SH") == nullptr); // unknown either way (D1)
    // A server's catalog knows every symbol; a one-shot command's only those it asked for.
    CHECK((catalog->find("000001.SZ") != nullptr) == cache_histories);
    CHECK(catalog->dataset.as_of == date("2025-10-23"));
  }
}

TEST_CASE("issue 11: an indicator asked again is read from the series kept with its history") {
  CacheFixture f;
  CachedAndOneShot services(f);
  auto& [cached, one_shot, compact] = services;
  const api::Caller pro{0, auth::Plan::pro, false};
  // Six series differing in one part of the key each: more than a history keeps (4).
  const std::vector<std::string> queries{
    "/v1/indicators/sma?symbol=600519.SH&window=20&limit=30",
    "/v1/indicators/sma?symbol=600519.SH&window=20&limit=30&adjusted=false",
    "/v1/indicators/sma?symbol=600519.SH&window=20&limit=30&series_type=high",
    "/v1/indicators/sma?symbol=600519.SH&window=21&limit=30",
    "/v1/indicators/ema?symbol=600519.SH&window=20&limit=30",
    "/v1/indicators/rsi?symbol=600519.SH&window=20&limit=30&order=asc",
  };
  // Rounds of all six: the first reads rows, the second loads the history, then series are
  // computed, kept, read, and the oldest let go.
  for (int round = 0; round < 4; ++round) {
    for (const auto& target : queries) {
      CAPTURE(round);
      CAPTURE(target);
      const auto question = target.find('?');
      const api::Request request{"GET", target.substr(0, question), target.substr(question + 1),
                                 std::nullopt};
      const auto got = api::dispatch_trusted(request, cached, pro);
      test::await_idle(cached.filler);
      const auto expected = api::dispatch_trusted(request, one_shot, pro);
      REQUIRE(got.status == 200);
      CHECK(comparable_body(got.body.str()) == comparable_body(expected.body.str()));
    }
  }
}

TEST_CASE("issue 11: IndicatorSeriesMemo computes a key once and keeps the newest four") {
  api::IndicatorSeriesMemo memo;
  int computed = 0;
  const auto series_of = [&](int window) {
    query::IndicatorQuery query;
    query.indicator = query::Indicator::rsi;
    query.window = window;
    return memo.find_or_compute(api::IndicatorSeriesMemo::key_of(query), [&] {
      ++computed;
      return query::IndicatorLines{{static_cast<double>(window)}, {}, {}};
    });
  };
  CHECK(series_of(14)->value.front() == 14);
  CHECK(series_of(14)->value.front() == 14);
  CHECK(computed == 1);
  for (int window = 1; window <= 4; ++window) {
    CHECK(series_of(window)->value.front() == window);
  }
  CHECK(computed == 5);
  CHECK(memo.size() == 4);
  CHECK(series_of(14)->value.front() == 14); // let go for window 4: computed again
  CHECK(computed == 6);
  CHECK(series_of(4)->value.front() == 4); // still kept
  CHECK(computed == 6);
}

TEST_CASE("D13: IndicatorSeriesMemo keys tell every parameter and the convention apart") {
  query::IndicatorQuery base;
  base.indicator = query::Indicator::macd;
  const auto key = api::IndicatorSeriesMemo::key_of(base);
  for (const auto& change : std::vector<std::function<void(query::IndicatorQuery&)>>{
         [](auto& q) { q.fast = 5; }, [](auto& q) { q.slow = 30; }, [](auto& q) { q.signal = 4; },
         [](auto& q) { q.k = 2.5; }, [](auto& q) { q.n = 5; }, [](auto& q) { q.m1 = 2; },
         [](auto& q) { q.m2 = 4; }, [](auto& q) { q.window = 7; },
         [](auto& q) { q.convention = query::Convention::tdx; },
         [](auto& q) { q.adjusted = false; },
         [](auto& q) { q.series_type = store::PriceField::open; },
         [](auto& q) { q.indicator = query::Indicator::kdj; }}) {
    auto other = base;
    change(other);
    CHECK_FALSE(api::IndicatorSeriesMemo::key_of(other) == key);
  }
}
