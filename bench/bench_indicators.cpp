// Indicator cost against bar cost (issue 3's target: an indicator request costs no more than 1.2
// times a bars request returning the same history), and the bars request against the same work
// done without api::HistoryCache. Both go through api::dispatch in-process over
// the same store, in the same run, so the ratio is what matters, not the absolute figures.
//
// Usage: ashare_bench_indicators [BARS [ROUNDS]]   (default 5000 bars, 200 rounds)
#include "core/api/dispatch.hpp"
#include "core/api/json.hpp"
#include "core/query/bar_query.hpp"
#include "core/query/catalog.hpp"
#include "core/auth/api_key.hpp"
#include "core/store/sqlite_bar_store.hpp"
#include "core/store/sqlite_key_store.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>
#include <unistd.h>

namespace {

using namespace ashare;
using Clock = std::chrono::steady_clock;

// Fill `store` with `count` consecutive weekday bars of a random walk, with a factor step every
// 250 bars, ending on 2024-12-31.
void fill_store(store::BarStore& store, int count) {
  std::vector<domain::Date> days;
  for (auto day = domain::Date::from_ymd(2024, 12, 31).value(); static_cast<int>(days.size()) < count;
       day = day.plus_days(-1)) {
    const auto weekday = std::chrono::weekday{day.days()};
    if (weekday != std::chrono::Saturday && weekday != std::chrono::Sunday) {
      days.push_back(day);
    }
  }
  std::reverse(days.begin(), days.end());
  store::WriteTransaction transaction(store);
  double price = 20;
  unsigned seed = 12345;
  for (std::size_t i = 0; i < days.size(); ++i) {
    seed = seed * 1103515245 + 12345;
    price = std::max(1.0, price * (1 + (static_cast<double>(seed >> 16 & 0x7fff) / 32767.0 - 0.5) / 25));
    const double rounded = std::round(price * 100) / 100;
    domain::Bar bar{days[i], rounded, rounded + 0.05, rounded - 0.05, rounded, 1'000'000 + static_cast<std::int64_t>(i),
                    rounded * 1e6, 0, 1.0 + static_cast<double>(i / 250) * 0.05};
    store.upsert_bar("600000.SH", bar, true);
  }
  store.recompute_change_pct("600000.SH");
  store.refresh_symbol("600000.SH");
  store.finish_change("bench");
  transaction.commit();
}

double time_per_request_us(api::Services& services, const api::Request& request, int rounds) {
  std::size_t bytes = 0;
  for (int i = 0; i < 5; ++i) {
    bytes += api::dispatch(request, services).body.size(); // warm the caches
  }
  const auto start = Clock::now();
  for (int i = 0; i < rounds; ++i) {
    const auto response = api::dispatch(request, services);
    if (response.status != 200) {
      std::fprintf(stderr, "unexpected status %d: %s\n", response.status, response.body.str().c_str());
      std::exit(1);
    }
    bytes += response.body.size();
  }
  const auto elapsed = std::chrono::duration<double, std::micro>(Clock::now() - start).count();
  return bytes > 0 ? elapsed / rounds : 0;
}

// The bars request's work without api::HistoryCache: the window read from SQLite (the bounded
// read of query::read_window), adjusted, and every bar written as JSON.
double time_bars_from_sqlite_us(const std::filesystem::path& db, int rounds) {
  store::SqliteBarStore store(db);
  const auto catalog = query::load_catalog(store);
  query::BarQuery query;
  query.symbols = {*domain::parse_symbol("600000.SH")};
  query.from = domain::Date::from_ymd(1900, 1, 1).value();
  query.to = domain::Date::from_ymd(2024, 12, 31).value();
  query.limit = 5000;
  std::size_t bytes = 0;
  const auto start = Clock::now();
  for (int i = 0; i < rounds; ++i) {
    store::ReadTransaction snapshot(store);
    api::BarsResponse response;
    const auto* info = catalog->find("600000.SH");
    const auto read = [&](domain::Date from, domain::Date to, domain::SortOrder order,
                          std::int64_t limit) {
      return store.load_bars(info->symbol, from, to, order, limit);
    };
    response.items.emplace_back(query::read_window(info->symbol, read, query, info->latest_factor));
    bytes += api::bars_to_json(response, std::nullopt).size();
  }
  const auto elapsed = std::chrono::duration<double, std::micro>(Clock::now() - start).count();
  return bytes > 0 ? elapsed / rounds : 0;
}

} // namespace

int main(int argc, char** argv) {
  const int bars = argc > 1 ? std::atoi(argv[1]) : 5000;
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 200;
  const auto dir = std::filesystem::temp_directory_path() / ("ashare-bench-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  {
    store::SqliteBarStore store(dir / "ashare.db");
    fill_store(store, bars);
    store::SqliteKeyStore keys(dir / "ashare-keys.db");
    auth::SystemRandom random;
    const auto key = auth::generate_key(random);
    keys.insert_key({key.prefix, auth::key_digest(key.plaintext), "bench", auth::Plan::pro,
                     std::nullopt, "2024-12-31T00:00:00Z"});
    api::Services services(dir / "ashare.db", dir / "ashare-keys.db");
    const std::string authorization = "Bearer " + key.plaintext;
    const api::Request bars_request{"GET", "/v1/ohlc/range/1/day/1900-01-01/2024-12-31",
                                    "symbol=600000.SH&limit=5000", authorization};
    const double bars_us = time_per_request_us(services, bars_request, rounds);
    std::printf("bars request, %d bars of history:   %10.1f us\n", bars, bars_us);
    const double sqlite_us = time_bars_from_sqlite_us(dir / "ashare.db", rounds);
    std::printf("same bars read from SQLite, no cache: %10.1f us   cache speed-up %.1fx\n", sqlite_us,
                sqlite_us / bars_us);
    for (const char* indicator : {"sma", "ema", "rsi"}) {
      const api::Request request{"GET", std::string("/v1/indicators/") + indicator,
                                 "symbol=600000.SH&window=50", authorization};
      const double us = time_per_request_us(services, request, rounds);
      std::printf("%s request (window 50, limit 10):      %10.1f us   ratio %.3f (target <= 1.2)\n",
                  indicator, us, us / bars_us);
    }
  }
  std::filesystem::remove_all(dir);
  return 0;
}
