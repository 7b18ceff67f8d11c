#include "core/fetch/tdx/fetch_run.hpp"

#include "core/domain/symbol.hpp"
#include "core/fetch/write_batch.hpp"
#include "core/fetch/factor_chain.hpp"
#include "core/fetch/gaps.hpp"
#include "core/fetch/szse_calendar.hpp"
#include "core/fetch/tdx/bars.hpp"
#include "core/fetch/tdx/universe.hpp"

#include <algorithm>
#include <chrono>
#include <map>
#include <set>
#include <utility>

namespace ashare::fetch::tdx {
namespace {

// How far before the first day to fetch a symbol's bars back from: the bar before that day gives
// its pre_close (a page of 800 bars reaches about three years back, so this costs no call).
constexpr int k_lookback_days = 400;

// A symbol of the universe, and the plan's days its ledger rows lack.
struct SymbolTask {
  std::string symbol;
  Market market = Market::sz;
  std::string code;
  std::vector<domain::Date> days;
};

domain::Date month_first(domain::Date day) {
  const std::chrono::year_month_day ymd(day.days());
  return *domain::Date::from_ymd(static_cast<int>(ymd.year()), static_cast<unsigned>(ymd.month()), 1);
}

domain::Date next_month(domain::Date first) {
  const std::chrono::year_month_day ymd(first.days());
  const auto next = std::chrono::year_month_day(ymd.year() / ymd.month() / 1) + std::chrono::months(1);
  return *domain::Date::from_ymd(static_cast<int>(next.year()), static_cast<unsigned>(next.month()), 1);
}

class TdxFetch {
public:
  TdxFetch(store::BarStore& store,
           Client& client,
           const MonthGetter& get_month,
           const FetchOptions& options,
           const std::function<void(const FetchProgress&)>& progress)
      : m_store(store), m_client(client), m_get_month(get_month), m_options(options),
        m_progress(progress), m_chain(store), m_batch(store, k_provider) {}

  FetchReport run();

private:
  // Stop with `end` and `message`; return false so that callers can `return stop(...)`.
  bool stop(FetchEnd end, std::string message) {
    m_report.end = end;
    m_report.message = std::move(message);
    return false;
  }
  void warn(std::string warning) { m_report.warnings.push_back(std::move(warning)); }

  void refresh_calendar();
  // The universe (the symbols named, else every A-share code the servers list) with each
  // symbol's days to fetch; nullopt when listing failed (the fetch stopped).
  std::optional<std::vector<SymbolTask>> universe(const Plan& plan);
  bool fetch_symbols(const Plan& plan, std::vector<SymbolTask>& tasks);
  bool fetch_symbol(const Plan& plan, const SymbolTask& task);
  // Continue the stored history of `symbol` backwards from its first bar, when the rows of `file`
  // reach before it.
  void prepare_backward(const std::string& symbol, const import::ParsedFile& file, domain::Date first_kept);
  bool commit_symbols();
  // D19: ask again for each `missing` bar, a symbol at a time; mark what TDX lacks too
  // absent_at_source.
  bool repair_gaps();
  // Replace the staged rows of each plan day by its whole-market row, once every symbol is
  // stored through it; the last completed day only when published (D18's 90%).
  void record_whole_market(const Plan& plan);
  void tell(const std::string& symbol);

  store::BarStore& m_store;
  Client& m_client;
  const MonthGetter& m_get_month;
  const FetchOptions& m_options;
  const std::function<void(const FetchProgress&)>& m_progress;
  FactorChain m_chain;
  WriteBatch m_batch;
  FetchReport m_report;
  std::set<domain::Date> m_open_days;             // over the plan's span
  std::map<std::string, store::SymbolInfo> m_stored; // the stored symbols when the fetch began
  std::size_t m_symbols_total = 0;
  std::size_t m_symbols_done = 0;
  std::size_t m_pending_symbols = 0; // written since the last commit
};

void TdxFetch::tell(const std::string& symbol) {
  if (m_progress) {
    m_progress(FetchProgress{m_symbols_done, m_symbols_total, m_report.rows, m_client.requests(),
                             std::nullopt, symbol});
  }
}

void TdxFetch::refresh_calendar() {
  // D19: SZSE's monthList, a month a request, from a month back (or --from) to this month.
  const auto today = utc8_day(m_options.now).date;
  auto first = today.plus_days(-31);
  if (m_options.from && *m_options.from < first) {
    first = *m_options.from;
  }
  std::vector<CalendarMonth> months;
  for (auto month = month_first(first); !(today < month); month = next_month(month)) {
    const auto answer = m_get_month(month);
    std::string why;
    if (const auto* failure = std::get_if<NetworkFailure>(&answer)) {
      why = failure->message;
    } else if (const auto& reply = std::get<Answer>(answer); reply.status != 200) {
      why = "HTTP " + std::to_string(reply.status);
    } else if (auto read = read_szse_month(reply.body, month); !read) {
      why = read.error().message;
    } else {
      months.push_back(std::move(*read));
      continue;
    }
    warn("the calendar was not refreshed from SZSE from " + month.iso().substr(0, 7) + " on: " + why);
    break;
  }
  if (months.empty()) {
    return;
  }
  store::WriteTransaction transaction(m_store);
  for (const auto& month : months) {
    m_store.save_calendar(month.first, month.last, month.open_days);
  }
  transaction.commit();
}

std::optional<std::vector<SymbolTask>> TdxFetch::universe(const Plan& plan) {
  auto listed = universe_of(m_client, m_options.symbols);
  if (!listed) {
    stop(end_of(listed.error()), "tdx: " + listed.error().message);
    return std::nullopt;
  }
  std::vector<SymbolTask> tasks;
  for (auto& symbol : *listed) {
    tasks.push_back({std::move(symbol.symbol), symbol.market, std::move(symbol.code), {}});
  }
  // A symbol staged through a day by a fetch cut short is not asked for it again.
  std::set<std::pair<domain::Date, std::string>> staged;
  if (!m_options.refetch) {
    for (const auto& row : m_store.load_ledger(k_provider)) {
      if (!row.symbol.empty()) {
        staged.emplace(row.trade_date, row.symbol);
      }
    }
  }
  for (auto& task : tasks) {
    for (const auto day : plan.days) {
      if (staged.count({day, task.symbol}) == 0) {
        task.days.push_back(day);
      }
    }
  }
  return tasks;
}

void TdxFetch::prepare_backward(const std::string& symbol,
                                const import::ParsedFile& file,
                                domain::Date first_kept) {
  // D18: a stored history that starts after the first fetched day is continued backwards from its
  // first bar, so that the join has no step.
  const auto stored = m_stored.find(symbol);
  if (stored == m_stored.end() || !(first_kept < stored->second.first_date)) {
    return;
  }
  const auto first_date = stored->second.first_date;
  const auto& rows = file.rows;
  const auto begin = std::find_if(rows.begin(), rows.end(),
                                  [&](const auto& row) { return !(row.bar.trade_date < first_kept); });
  const auto end = std::find_if(begin, rows.end(),
                                [&](const auto& row) { return first_date < row.bar.trade_date; });
  if (begin == end || std::prev(end)->bar.trade_date != first_date) {
    return; // the source lacks the stored first day: the rows start their own chain
  }
  const auto anchor = m_store.load_bars(symbol, first_date, first_date, domain::SortOrder::asc, 1);
  if (anchor.empty()) {
    return;
  }
  const std::span<const import::ParsedRow> segment(&*begin, static_cast<std::size_t>(end - begin));
  const auto factors = backward_factors(segment, anchor.front(), {});
  for (std::size_t i = 0; i + 1 < segment.size(); ++i) {
    m_chain.set_backward(symbol, segment[i].bar.trade_date, factors[i]);
  }
}

bool TdxFetch::fetch_symbol(const Plan& plan, const SymbolTask& task) {
  const auto first = task.days.front();
  auto bars = m_client.daily_bars(task.market, task.code, first.plus_days(-k_lookback_days));
  if (!bars) {
    return stop(end_of(bars.error()), "tdx: " + task.symbol + ": " + bars.error().message);
  }
  auto events = m_client.ex_rights(task.market, task.code);
  if (!events) {
    return stop(end_of(events.error()), "tdx: " + task.symbol + ": " + events.error().message);
  }
  // Bars past the plan's end are left: today's before 15:30 UTC+8 is not final (D18).
  std::erase_if(*bars, [&](const RawBar& bar) { return plan.end < bar.day; });
  auto file = rows_of_bars(task.symbol, *bars, *events, std::nullopt, utc8_day(m_options.now).date);
  const std::set<domain::Date> wanted(task.days.begin(), task.days.end());
  const auto where = [&](domain::Date day) {
    return "tdx (" + m_client.host() + "): " + task.symbol + " on " + day.iso() + ": ";
  };
  // D18: a bar that fails a check, on a day being fetched, is reported with host, code and day.
  for (auto& problem : file.problems) {
    const auto day = (*bars)[static_cast<std::size_t>(problem.line - 1)].day;
    if (wanted.count(day) == 0) {
      continue; // not written: only a base it is not
    }
    if (problem.message.starts_with(day.iso() + ": ")) {
      problem.message.erase(0, day.iso().size() + 2); // where() names the day
    }
    if (!m_options.skip_invalid) {
      return stop(FetchEnd::refused_row,
                  where(day) + problem.column + ": " + problem.message
                      + "; nothing of that symbol was written (--skip-invalid writes the rest)");
    }
    warn(where(day) + problem.column + ": " + problem.message + " (left out, the day's bar stays missing)");
  }
  std::vector<import::ParsedRow> kept;
  std::map<domain::Date, std::int64_t> answered; // bars a day: 0 or 1
  for (const auto& row : file.rows) {
    const auto day = row.bar.trade_date;
    if (!(day < plan.start) && m_open_days.count(day) == 0) {
      return stop(FetchEnd::refused_row, where(day) + "trade_date: a bar on the closed day " + day.iso()
                                             + "; nothing of that symbol was written");
    }
    if (wanted.count(day) != 0) {
      kept.push_back(row);
      answered[day] = 1;
    }
  }
  if (!kept.empty()) {
    prepare_backward(task.symbol, file, kept.front().bar.trade_date);
  }
  const auto origins = m_chain.settle(kept, {});
  const auto rows = static_cast<std::int64_t>(kept.size());
  m_batch.add(std::move(kept), origins,
              [symbol = task.symbol, days = task.days, answered = std::move(answered)](store::BarStore& store) {
                for (const auto day : days) {
                  const auto it = answered.find(day);
                  store.save_ledger_day({k_provider, day, symbol, it == answered.end() ? 0 : it->second});
                }
              });
  m_report.rows += rows;
  ++m_pending_symbols;
  return true;
}

bool TdxFetch::commit_symbols() {
  const auto committed = m_batch.commit();
  if (!committed) {
    return stop(FetchEnd::refused, std::string(k_provider) + ": " + committed.error().message
                                       + "; nothing of the symbols since the last commit was written");
  }
  m_report.symbols_stored += m_pending_symbols;
  m_pending_symbols = 0;
  return true;
}

bool TdxFetch::fetch_symbols(const Plan& plan, std::vector<SymbolTask>& tasks) {
  m_symbols_total = tasks.size();
  for (const auto& task : tasks) {
    if (task.days.empty()) {
      ++m_symbols_done; // staged by a fetch cut short
      continue;
    }
    tell(task.symbol);
    if (!fetch_symbol(plan, task)) {
      // The symbols before the one that stopped the fetch are whole: they stay.
      (void)commit_symbols();
      return false;
    }
    ++m_symbols_done;
    // Each symbol commits on its own: the next may hang on a host for the whole timeout, and
    // what was answered before it must be kept (a commit costs well under a millisecond).
    if (!commit_symbols()) {
      return false;
    }
  }
  if (!commit_symbols()) {
    return false;
  }
  tell("");
  return true;
}

bool TdxFetch::repair_gaps() {
  const auto gaps = find_gaps(m_store, {m_options.symbols, m_options.from, m_options.to});
  if (!gaps) {
    return stop(FetchEnd::refused, gaps.error().message);
  }
  std::map<std::string, std::vector<domain::Date>> by_symbol;
  std::set<domain::Date> days_asked; // what the report calls the days fetched, as Tushare's repair
  for (const auto& gap : gaps->gaps) {
    if (gap.reason == GapReason::missing) {
      by_symbol[gap.symbol].push_back(gap.day);
      days_asked.insert(gap.day);
    }
  }
  m_report.plan->days.assign(days_asked.begin(), days_asked.end());
  std::set<std::pair<std::string, domain::Date>> marked;
  for (const auto& absence : m_store.load_absences("")) {
    marked.emplace(absence.symbol, absence.trade_date);
  }
  m_symbols_total = by_symbol.size();
  for (const auto& [symbol, days] : by_symbol) {
    tell(symbol);
    const auto market = market_of(symbol);
    if (!market) {
      ++m_symbols_done;
      continue; // no TDX market: nothing to ask
    }
    auto bars = m_client.daily_bars(*market, symbol.substr(0, symbol.rfind('.')), days.front().plus_days(-k_lookback_days));
    if (!bars) {
      (void)commit_symbols();
      return stop(end_of(bars.error()), "tdx: " + symbol + ": " + bars.error().message);
    }
    auto events = m_client.ex_rights(*market, symbol.substr(0, symbol.rfind('.')));
    if (!events) {
      (void)commit_symbols();
      return stop(end_of(events.error()), "tdx: " + symbol + ": " + events.error().message);
    }
    const auto file = rows_of_bars(symbol, *bars, *events, std::nullopt, utc8_day(m_options.now).date);
    const std::set<domain::Date> wanted(days.begin(), days.end());
    for (const auto& problem : file.problems) {
      const auto day = (*bars)[static_cast<std::size_t>(problem.line - 1)].day;
      if (wanted.count(day) != 0) {
        // A bar TDX has but that fails a check is no absence: the day stays missing.
        marked.emplace(symbol, day);
        warn("tdx (" + m_client.host() + "): " + symbol + " on " + day.iso() + ": " + problem.column + ": "
             + problem.message + " (left out, the day's bar stays missing)");
      }
    }
    std::vector<import::ParsedRow> found;
    for (const auto& row : file.rows) {
      if (wanted.count(row.bar.trade_date) != 0) {
        found.push_back(row);
      }
    }
    std::vector<domain::Date> absent;
    for (const auto day : days) {
      const bool answered = std::any_of(found.begin(), found.end(), [day](const auto& row) { return row.bar.trade_date == day; });
      if (!answered && marked.emplace(symbol, day).second) {
        absent.push_back(day);
      }
    }
    const auto origins = m_chain.settle(found, {});
    m_report.rows += static_cast<std::int64_t>(found.size());
    m_report.absent_marked += static_cast<std::int64_t>(absent.size());
    m_batch.add(std::move(found), origins, [symbol = symbol, absent = std::move(absent)](store::BarStore& store) {
      for (const auto day : absent) {
        store.save_absence({symbol, day, k_provider}); // asked again, and TDX has no bar either
      }
    });
    ++m_pending_symbols;
    ++m_symbols_done;
    if (!commit_symbols()) {
      return false;
    }
  }
  m_report.days_stored = days_asked.size();
  tell("");
  return true;
}

void TdxFetch::record_whole_market(const Plan& plan) {
  std::map<domain::Date, std::int64_t> bars_on;
  for (const auto& row : m_store.load_ledger(k_provider)) {
    if (!row.symbol.empty()) {
      bars_on[row.trade_date] += row.rows;
    }
  }
  std::optional<std::int64_t> previous;
  for (const auto& row : m_store.load_ledger(k_provider)) {
    if (row.symbol.empty() && row.trade_date < plan.days.front()) {
      previous = row.rows; // ascending: the last whole-market day before the plan
    }
  }
  store::WriteTransaction transaction(m_store);
  for (const auto day : plan.days) {
    const auto bars = bars_on[day];
    if (day == plan.last_completed && previous && bars * 10 < *previous * 9) {
      // D18: the servers have not all of the day yet; its staged rows go, so that every symbol
      // is asked for it again next run (the bars written stay: a later answer replaces them).
      m_store.forget_symbol_ledger_days(k_provider, day);
      stop(FetchEnd::not_yet_published,
           day.iso() + " is not yet published in full at TDX (" + std::to_string(bars)
               + " bars, the day before had " + std::to_string(*previous)
               + "): it will be asked for again next run");
      break;
    }
    if (bars == 0) {
      warn("TDX answered no bars for " + day.iso() + ": recorded as an empty day");
    }
    m_store.save_ledger_day({k_provider, day, "", bars});
    m_store.forget_symbol_ledger_days(k_provider, day);
    ++m_report.days_stored;
    previous = bars;
  }
  transaction.commit();
}

FetchReport TdxFetch::run() {
  if (!m_options.dry_run) {
    refresh_calendar();
  }
  auto last = last_completed_day(m_store, m_options.now);
  if (!last) {
    stop(FetchEnd::refused, last.error().message);
    return m_report;
  }
  auto plan = plan_fetch(m_store, {k_provider, m_options.symbols, m_options.from, m_options.to,
                                   m_options.refetch}, *last);
  if (!plan) {
    stop(FetchEnd::refused, plan.error().message);
    return m_report;
  }
  m_report.plan = *plan;
  if (m_options.repair && !m_options.dry_run) {
    for (auto& info : m_store.load_symbols()) {
      auto symbol = info.symbol;
      m_stored.emplace(std::move(symbol), std::move(info));
    }
    (void)repair_gaps();
    if (m_report.end == FetchEnd::done && m_report.rows == 0 && m_report.absent_marked == 0) {
      m_report.end = FetchEnd::up_to_date;
    }
  } else if (m_options.dry_run) {
    // A symbol's bars and its ex-rights events; the three markets' lists first (a page at least).
    const auto symbols = m_options.symbols.empty() ? m_store.load_symbols().size() : m_options.symbols.size();
    m_report.estimated_requests = static_cast<std::int64_t>(symbols) * 2 + (m_options.symbols.empty() ? 3 : 0);
    m_report.end = FetchEnd::planned;
  } else if (plan->days.empty()) {
    m_report.end = FetchEnd::up_to_date;
  } else {
    for (const auto day : m_store.load_open_days(plan->start, plan->end)) {
      m_open_days.insert(day);
    }
    for (auto& info : m_store.load_symbols()) {
      auto symbol = info.symbol;
      m_stored.emplace(std::move(symbol), std::move(info));
    }
    auto tasks = universe(*plan);
    if (tasks && fetch_symbols(*plan, *tasks)) {
      if (m_options.symbols.empty()) {
        record_whole_market(*plan);
      } else {
        m_report.days_stored = plan->days.size();
      }
    }
  }
  m_report.requests = m_client.requests();
  finish_report(m_store, k_provider, m_options, m_report);
  return m_report;
}

} // namespace

FetchReport fetch_tdx(store::BarStore& store,
                      Client& client,
                      const MonthGetter& get_month,
                      const FetchOptions& options,
                      const std::function<void(const FetchProgress&)>& progress) {
  return TdxFetch(store, client, get_month, options, progress).run();
}

} // namespace ashare::fetch::tdx
