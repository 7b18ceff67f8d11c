#include "core/fetch/tdx/provider.hpp"

#include "core/fetch/szse_calendar.hpp"
#include "core/fetch/tdx/bars.hpp"
#include "core/fetch/tdx/universe.hpp"

#include <cassert>
#include <chrono>

namespace ashare::fetch::tdx {
namespace {

// How far before a span's first day its bars are asked from: the bar before that day gives its
// pre_close (a page of 800 bars reaches about three years back, so this costs no call).
constexpr int k_lookback_days = 400;

domain::Date month_first(domain::Date day) {
  const std::chrono::year_month_day ymd(day.days());
  return *domain::Date::from_ymd(static_cast<int>(ymd.year()), static_cast<unsigned>(ymd.month()), 1);
}

domain::Date next_month(domain::Date first) {
  const std::chrono::year_month_day ymd(first.days());
  const auto next = std::chrono::year_month_day(ymd.year() / ymd.month() / 1) + std::chrono::months(1);
  return *domain::Date::from_ymd(static_cast<int>(next.year()), static_cast<unsigned>(next.month()), 1);
}

Stop stop_of(const Error& error, const std::string& what) {
  return Stop{end_of(error), "tdx: " + what + error.message};
}

// Return the problem of a bar of `symbol` that rows_of_bars refused, on the bar's `day` (its
// message starts with that day, which the run's message names itself).
BarProblem problem_of(const std::string& symbol, domain::Date day, const import::RowProblem& problem) {
  auto message = problem.message;
  if (message.starts_with(day.iso() + ": ")) {
    message.erase(0, day.iso().size() + 2);
  }
  return {problem.line, symbol, day, problem.column, std::move(message)};
}

} // namespace

References TdxProvider::calendar(domain::Date today, std::optional<domain::Date> from, const Waiting&) {
  // D19: SZSE's monthList, a month a request, from a month back (or --from) to this month; the
  // first month that fails ends the asking, with a warning.
  auto first = today.plus_days(-31);
  if (from && *from < first) {
    first = *from;
  }
  References out;
  for (auto month = month_first(first); !(today < month); month = next_month(month)) {
    const auto outcome = m_szse.send(http::Call{http::Method::get, szse_month_url("", month), {}, {}});
    std::string why;
    if (const auto* failure = std::get_if<http::Failure>(&outcome)) {
      why = failure->message;
    } else if (const auto& reply = std::get<http::Reply>(outcome); reply.status != 200) {
      why = "HTTP " + std::to_string(reply.status);
    } else if (auto read = read_szse_month(reply.body, month); !read) {
      why = read.error().message;
    } else {
      out.calendar.push_back({read->first, read->last, std::move(read->open_days)});
      continue;
    }
    out.warnings.push_back("the calendar was not refreshed from SZSE from " + month.iso().substr(0, 7)
                           + " on: " + why);
    break;
  }
  return out;
}

std::variant<std::vector<std::string>, Stop> TdxProvider::universe(const UniverseAsk& ask) {
  auto listed = universe_of(m_client, ask);
  if (!listed) {
    return stop_of(listed.error(), "");
  }
  std::vector<std::string> symbols;
  for (auto& symbol : *listed) {
    symbols.push_back(std::move(symbol.symbol));
  }
  return symbols;
}

Asked TdxProvider::fetch(const Unit& unit, const Waiting&) {
  const auto& symbol = unit.symbols.front();
  assert(unit.shape == UnitShape::symbol_span); // TDX answers a symbol at a time
  const auto market = market_of(symbol);
  if (!market) {
    return Stop{FetchEnd::refused, "tdx: " + symbol + ": TDX answers SZ, SH and BJ codes only"};
  }
  const auto kind = domain::kind_of_code(symbol);
  if (!kind) {
    return Stop{FetchEnd::refused, "tdx: " + kind.error().message};
  }
  const auto code = symbol.substr(0, symbol.rfind('.'));
  const auto first = unit.days.front();
  const auto last = unit.days.back();
  const bool index = *kind == domain::Kind::index;
  auto bars = m_client.daily_bars(*market, code, first.plus_days(-k_lookback_days),
                                  index ? BarLayout::index : BarLayout::security);
  if (!bars) {
    return stop_of(bars.error(), symbol + ": ");
  }
  // D20: an index has no ex-rights events (its factor is 1): not asked.
  const auto events = index ? Result<std::vector<XdxrEvent>>(std::vector<XdxrEvent>{}) : m_client.ex_rights(*market, code);
  if (!events) {
    return stop_of(events.error(), symbol + ": ");
  }
  // Bars past the span are left: today's before 15:30 UTC+8 is not final (D18).
  std::erase_if(*bars, [&](const RawBar& bar) { return last < bar.day; });
  auto file = rows_of_bars(symbol, *kind, *bars, *events, std::nullopt, last);
  Fetched out;
  out.where = "tdx (" + m_client.host() + ")";
  out.float32_sizes = true;
  for (const auto& problem : file.problems) {
    const auto day = (*bars)[static_cast<std::size_t>(problem.line - 1)].day;
    if (!(day < first)) { // before the span, a bar is only a base
      out.problems.push_back(problem_of(symbol, day, problem));
    }
  }
  for (auto& row : file.rows) {
    if (!(row.bar.trade_date < first)) {
      out.rows.push_back(std::move(row));
    }
  }
  out.answered = out.rows.size();
  return out;
}

} // namespace ashare::fetch::tdx
