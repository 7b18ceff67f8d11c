// P5's steady load in process (issue 11): the server's work for a one-year bars request answered
// from a compact history (query/compact_bars: the window decoded, adjusted and written as JSON
// per request) against the same request answered from a rendered one (api/history_cache: the
// window's JSON already written, joined). As in P5, the compact side picks one of many histories
// (a full market's, too many to stay in the CPU's caches) and the rendered side one of ten, each
// of 3,000 bars generated as bench/market_data.py generates them (prices of 2 decimals, volumes
// in lots, factors that step), in the same run. The end-to-end figure is P5 in
// bench/market_vs_small.py, where the kernel's share of each request is the same on both sides.
//
// Usage: ashare_bench_compact_window [ROUNDS [DAYS [HISTORIES]]]
//        (default 20000 rounds, 3000 days, 1000 compact histories)
#include "core/api/history_cache.hpp"
#include "core/api/json.hpp"
#include "core/query/bar_query.hpp"
#include "core/query/compact_bars.hpp"
#include "core/query/history.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <random>
#include <span>
#include <string>
#include <vector>

namespace {

using namespace ashare;
using Clock = std::chrono::steady_clock;

// Return `value` rounded to `decimals` places: the double nearest to that decimal, as a vendor's
// text parses (multiplying by 0.01 instead would give neighbouring doubles that no file holds).
double round_to(double value, int decimals) {
  const double scale = std::pow(10.0, decimals);
  return std::round(value * scale) / scale;
}

// Return `days` weekday bars ending on 2024-12-31, as bench/market_data.py writes one symbol.
std::vector<domain::Bar> market_bars(int days, std::uint64_t seed) {
  std::vector<domain::Date> calendar;
  for (auto day = domain::Date::from_ymd(2024, 12, 31).value(); static_cast<int>(calendar.size()) < days;
       day = day.plus_days(-1)) {
    const auto weekday = std::chrono::weekday{day.days()};
    if (weekday != std::chrono::Saturday && weekday != std::chrono::Sunday) {
      calendar.push_back(day);
    }
  }
  std::reverse(calendar.begin(), calendar.end());
  std::mt19937_64 random(seed);
  std::normal_distribution<double> gauss(0, 1);
  std::uniform_real_distribution<double> uniform(0, 1);
  std::lognormal_distribution<double> lots(11, 0.8);
  double price = 120, factor = 1, previous = 0;
  std::vector<domain::Bar> bars;
  for (const auto day : calendar) {
    if (uniform(random) < 0.01) {
      continue; // suspended
    }
    const std::chrono::year_month_day ymd{day.days()};
    if (ymd.month() == std::chrono::June && ymd.day() <= std::chrono::day(7)
        && uniform(random) < 0.25) {
      const double step = 1 + 0.005 + uniform(random) * 0.025;
      factor = round_to(factor * step, 3);
      price /= step;
    }
    const double open = round_to(price * (1 + gauss(random) * 0.005), 2);
    const double close = round_to(std::max(0.5, price * (1 + gauss(random) * 0.02)), 2);
    const double high = round_to(std::max(open, close) * (1 + std::fabs(gauss(random)) * 0.006), 2);
    const double low = round_to(std::min(open, close) * (1 - std::fabs(gauss(random)) * 0.006), 2);
    const auto volume = static_cast<std::int64_t>(lots(random)) * 100;
    const double turnover = round_to(static_cast<double>(volume) * (open + close) / 2, 2);
    const double change = previous == 0 ? 0 : round_to((close / previous - 1) * 100, 4);
    bars.push_back(domain::Bar{day, open, high, low, close, volume, turnover, change, factor});
    previous = close;
    price = close;
  }
  return bars;
}

// Return the microseconds per request of `answer` over `rounds` random one-year windows of
// random histories among `histories`.
template <typename Answer>
double time_us(const std::vector<domain::Bar>& bars, int rounds, std::size_t histories,
               Answer&& answer) {
  std::mt19937 random(5);
  std::uniform_int_distribution<std::size_t> pick(250, bars.size() - 1);
  std::uniform_int_distribution<std::size_t> history(0, histories - 1);
  std::size_t bytes = 0;
  const auto start = Clock::now();
  for (int i = 0; i < rounds; ++i) {
    const auto to = bars[pick(random)].trade_date;
    query::BarQuery query;
    query.symbols = {*domain::parse_symbol("600000.SH")};
    query.from = to.plus_days(-365);
    query.to = to;
    query.limit = 5000;
    bytes += answer(history(random), query);
  }
  const auto elapsed = std::chrono::duration<double, std::micro>(Clock::now() - start).count();
  return bytes > 0 ? elapsed / rounds : 0;
}

std::string respond(const query::BarQuery& query, api::BarsItem item) {
  api::BarsResponse response;
  response.single = true;
  response.adjusted = query.adjusted;
  response.from = query.from;
  response.to = query.to;
  response.items.push_back(std::move(item));
  return api::bars_to_json(response, std::nullopt);
}

// As api::StoreView reads a rendered history's window: its text referred to, not copied.
api::BarsItem rendered_item(const api::RenderedHistory& history, const query::BarQuery& query) {
  auto window = api::select_bars(history, "600000.SH", query);
  return api::BarsItem(std::move(window.item),
                       api::WrittenBars{window.in_place, std::move(window.json), nullptr});
}

} // namespace

int main(int argc, char** argv) {
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 20000;
  const int days = argc > 2 ? std::atoi(argv[2]) : 3000;
  const auto count = static_cast<std::size_t>(argc > 3 ? std::atoi(argv[3]) : 1000);
  constexpr std::size_t k_rendered = 10;
  if (rounds < 5 || days < 300 || count < 1) {
    std::fprintf(stderr, "usage: ashare_bench_compact_window [ROUNDS [DAYS [HISTORIES]]]\n");
    return 2;
  }
  struct Compact {
    query::CompactBars bars;
    double latest_factor;
  };
  std::vector<Compact> compacts;
  std::vector<std::shared_ptr<const api::RenderedHistory>> rendered;
  for (std::size_t i = 0; i < std::max(count, k_rendered); ++i) {
    const auto bars = market_bars(days, 20261123 + i);
    if (i < count) {
      compacts.push_back(Compact{query::CompactBars::encode(bars), bars.back().factor});
    }
    if (i < k_rendered) {
      rendered.push_back(api::render_history(query::make_history(bars, bars.back().factor)));
    }
  }
  const auto bars = market_bars(days, 20261123); // the dates windows end on
  // As api/bars_endpoint answers from each.
  const auto compact_answer = [&](std::size_t i, const query::BarQuery& query) {
    return respond(query, api::BarsItem(compacts[i].bars.read_window(
                            "600000.SH", query, compacts[i].latest_factor)));
  };
  const auto from_compact = [&](std::size_t i, const query::BarQuery& query) {
    return compact_answer(i, query).size();
  };
  const auto from_rendered = [&](std::size_t i, const query::BarQuery& query) {
    return respond(query, rendered_item(*rendered[i], query)).size();
  };
  // The same answer both ways, or the figures mean nothing.
  query::BarQuery check;
  check.symbols = {*domain::parse_symbol("600000.SH")};
  check.from = bars.front().trade_date;
  check.to = bars.back().trade_date;
  check.limit = 5000;
  for (const bool adjusted : {true, false}) {
    check.adjusted = adjusted;
    if (compact_answer(0, check) != respond(check, rendered_item(*rendered[0], check))) {
      std::fprintf(stderr, "the compact and rendered answers differ (adjusted %d)\n", adjusted);
      return 1;
    }
  }
  std::vector<double> compact_us, rendered_us;
  for (int round = 0; round < 5; ++round) { // alternating
    compact_us.push_back(time_us(bars, rounds / 5, compacts.size(), from_compact));
    rendered_us.push_back(time_us(bars, rounds / 5, rendered.size(), from_rendered));
  }
  std::sort(compact_us.begin(), compact_us.end());
  std::sort(rendered_us.begin(), rendered_us.end());
  const double c = compact_us[2], r = rendered_us[2];
  std::size_t compact_bytes = 0;
  for (const auto& history : compacts) {
    compact_bytes += history.bars.bytes();
  }
  std::printf("P5w one-year window from one of %zu compact histories: %6.1f us, from one of %zu "
              "rendered: %5.1f us, difference %.1f us (%d bars each, %.1f compact bytes a bar)\n",
              compacts.size(), c, rendered.size(), r, c - r, static_cast<int>(bars.size()),
              static_cast<double>(compact_bytes) / static_cast<double>(compacts.size())
                / static_cast<double>(bars.size()));
  return 0;
}
