#include "core/fetch/tushare/fetch_run.hpp"

#include "core/fetch/ask_ahead.hpp"
#include "core/fetch/write_batch.hpp"
#include "core/fetch/factor_chain.hpp"
#include "core/fetch/gaps.hpp"
#include "core/fetch/tushare/tables.hpp"
#include "core/import/importer.hpp"

#include <algorithm>
#include <chrono>
#include <future>
#include <set>
#include <string_view>
#include <unordered_set>
#include <utility>

namespace ashare::fetch::tushare {
namespace {

using nlohmann::json;

std::string yyyymmdd(domain::Date day) {
  return std::to_string(day.yyyymmdd());
}

std::string joined(const std::vector<std::string>& symbols) {
  std::string out;
  for (const auto& symbol : symbols) {
    out += (out.empty() ? "" : ",") + symbol;
  }
  return out;
}

using Suspensions = std::vector<std::pair<std::string, domain::Date>>;

// A day's answer from the source, before it is written.
struct DayAnswer {
  DailyRows daily;
  AdjFactors adj;
  Suspensions suspensions;
  std::size_t answered_rows = 0;
};

// The calls of one day, made ahead on another thread while the day before is written. Their
// tables are read there too (and their items freed), so that the writing thread only checks
// and writes.
struct DayCalls {
  CallResult daily;
  std::optional<CallResult> adj;     // not asked: the token may not, or the day has no rows
  std::optional<CallResult> suspend; // likewise
  std::size_t answered_rows = 0;     // the items of `daily`'s table
  std::optional<Result<DailyRows>> rows;                            // when `daily` answered
  std::optional<Result<AdjFactors>> adj_factors; // when `adj` answered
  std::optional<Result<Suspensions>> suspensions;                   // when `suspend` answered
};

// What commits with a day's bars (D18, D19).
struct DayRecord {
  domain::Date day;
  Suspensions suspensions;
  std::vector<std::string> marks_gone; // absent_at_source marks of symbols answered after all
  std::vector<std::string> marks_new;  // a repair: the symbols asked that the source lacks too
  bool repair = false;                 // a repair writes no ledger row
  std::vector<std::string> ledger_symbols; // the symbols a fetch named; none: the whole market
  std::int64_t rows = 0;                   // answered
};

// Save `record` into `store`, inside the transaction of its day's bars.
void save_day_record(store::BarStore& store, const DayRecord& record) {
  for (const auto& [symbol, date] : record.suspensions) {
    store.save_suspension(symbol, date);
  }
  for (const auto& symbol : record.marks_gone) {
    store.delete_absence(symbol, record.day); // a bar came after all
  }
  for (const auto& symbol : record.marks_new) {
    store.save_absence({symbol, record.day, k_provider});
  }
  if (record.repair) {
    return;
  }
  if (record.ledger_symbols.empty()) {
    store.save_ledger_day({k_provider, record.day, "", record.rows});
  }
  for (const auto& symbol : record.ledger_symbols) {
    store.save_ledger_day({k_provider, record.day, symbol, record.rows});
  }
}

// Days written while the next one is already at hand share a transaction, up to this long
// (WriteBatch): a fast source is written at the importer's pace, a slow one a day at a time, and
// no transaction waits on the source for longer.
constexpr std::chrono::milliseconds k_group_window{500};

// Days answered and not yet written, at most (fetch/ask_ahead.hpp).
constexpr std::size_t k_days_ahead = 2;

json day_params(domain::Date day, const std::vector<std::string>& symbols) {
  json params{{"trade_date", yyyymmdd(day)}};
  if (!symbols.empty()) {
    params["ts_code"] = joined(symbols);
  }
  return params;
}

bool ends_fetch(const CallResult& result) {
  const auto* failure = std::get_if<CallFailure>(&result);
  return failure != nullptr && failure->kind != CallFailure::Kind::permission;
}

// D18: a reference table (calendar, listings, aliases, suspensions) that cannot be refreshed is
// a warning for any reason but quota or token: only those two end the fetch.
bool is_quota_or_token(const CallFailure& failure) {
  return failure.kind == CallFailure::Kind::quota || failure.kind == CallFailure::Kind::token;
}

bool ends_reference(const CallResult& result) {
  const auto* failure = std::get_if<CallFailure>(&result);
  return failure != nullptr && is_quota_or_token(*failure);
}

bool ends_fetch(const DayCalls& calls) {
  return ends_fetch(calls.daily) || (calls.adj && ends_fetch(*calls.adj))
         || (calls.suspend && ends_reference(*calls.suspend));
}

bool refused_permission(const std::optional<CallResult>& result) {
  const auto* failure = result ? std::get_if<CallFailure>(&*result) : nullptr;
  return failure != nullptr && failure->kind == CallFailure::Kind::permission;
}

bool failed(const std::optional<CallResult>& result) {
  return result && std::holds_alternative<CallFailure>(*result);
}

class TushareFetch {
public:
  TushareFetch(store::BarStore& store,
               Client& client,
               const FetchOptions& options,
               const std::function<void(const FetchProgress&)>& progress)
      : m_store(store), m_client(client), m_options(options), m_progress(progress), m_chain(store),
        m_batch(store, k_provider) {}

  FetchReport run();

private:
  // Stop with `end` and `message`; return false so that callers can `return stop(...)`.
  bool stop(FetchEnd end, std::string message) {
    m_report.end = end;
    m_report.message = std::move(message);
    return false;
  }
  bool stop(const CallFailure& failure) { return stop(end_of(failure), failure.message); }
  void warn(std::string warning) { m_report.warnings.push_back(std::move(warning)); }

  // Call `api`; a permission refusal returns nullopt after warning once (the fallback is the
  // caller's), any other failure stops the fetch (and also returns nullopt).
  std::optional<Table> call_optional(const char* api, const json& params, bool& permitted);
  std::optional<Table> call_required(const char* api, const json& params);
  // What call_optional and call_required make of a call's result.
  std::optional<Table> optional_table(CallResult&& result, bool& permitted);
  std::optional<Table> required_table(CallResult&& result);
  // Call the reference API `api` for `table` (its name in a warning: "the listings").
  std::optional<Table> call_reference(const char* api, const json& params, std::string_view fields,
                                      std::string_view table);
  // What call_reference makes of a call's result: a failure but quota or token warns (once a
  // table) and returns nullopt, quota or token stops the fetch (and also returns nullopt).
  std::optional<Table> reference_table(CallResult&& result, std::string_view table);
  // Warn that `table` was not refreshed, because of `why`; once a table and run.
  void warn_not_refreshed(std::string_view table, const std::string& why);
  // Make a day's calls; only the client is used, so that it may run ahead on another thread.
  DayCalls call_day(const json& params, bool adj, bool suspend);
  // Read a day's calls into its answer, or stop.
  std::optional<DayAnswer> answer_of(domain::Date day, DayCalls calls);

  bool refresh_calendar();
  bool refresh_listings();
  bool refresh_aliases();
  bool seed_previous_adj(domain::Date first_day);
  bool prepare_backward(const Plan& plan);
  bool prepare_backward_symbol(const store::SymbolInfo& symbol, domain::Date first_day);
  std::optional<DayAnswer> ask_day(domain::Date day, const std::vector<std::string>& symbols);
  bool published(domain::Date day, std::size_t rows);
  bool check_rows(domain::Date day, DailyRows& rows);
  // Add `answer` for `day` to the open batch of days; a repair marks the `asked` symbols it
  // lacks absent_at_source instead of writing ledger rows.
  void write_day(domain::Date day, DayAnswer& answer, const std::vector<std::string>& asked, bool repair);
  // Commit the days written since the last commit, or stop.
  bool commit_days();
  bool repair_gaps();
  bool fetch_days(const Plan& plan);
  // Check and write a day's answer; false when the fetch stops before it.
  bool write_answer(domain::Date day, std::optional<DayAnswer> answer);
  void tell(std::optional<domain::Date> day);

  store::BarStore& m_store;
  Client& m_client;
  const FetchOptions& m_options;
  const std::function<void(const FetchProgress&)>& m_progress;
  FactorChain m_chain;
  WriteBatch m_batch;
  FetchReport m_report;
  bool m_adj_permitted = true;
  bool m_suspend_asked = true; // false once suspend_d failed: the run goes on without it (D18)
  std::set<std::string, std::less<>> m_not_refreshed; // the reference tables warned of
  std::optional<std::size_t> m_previous_rows; // the previous open day's answer, for D18's 90%
  std::set<domain::Date> m_open_days;
  std::map<domain::Date, std::set<std::string>> m_absent; // absent_at_source marks, by day
};

std::optional<Table> TushareFetch::optional_table(CallResult&& result, bool& permitted) {
  if (auto* failure = std::get_if<CallFailure>(&result)) {
    if (failure->kind != CallFailure::Kind::permission) {
      stop(*failure);
    } else if (permitted) { // said once, even when a day asked ahead was refused too
      permitted = false;
      warn(failure->message);
    }
    return std::nullopt;
  }
  return std::move(std::get<Table>(result));
}

std::optional<Table> TushareFetch::required_table(CallResult&& result) {
  if (auto* failure = std::get_if<CallFailure>(&result)) {
    stop(*failure);
    return std::nullopt;
  }
  return std::move(std::get<Table>(result));
}

void TushareFetch::warn_not_refreshed(std::string_view table, const std::string& why) {
  if (m_not_refreshed.emplace(table).second) {
    warn(std::string(table) + (table == "the calendar" ? " was" : " were") + " not refreshed: " + why);
  }
}

std::optional<Table> TushareFetch::reference_table(CallResult&& result, std::string_view table) {
  if (auto* failure = std::get_if<CallFailure>(&result)) {
    if (is_quota_or_token(*failure)) {
      stop(*failure);
    } else {
      warn_not_refreshed(table, failure->message);
    }
    return std::nullopt;
  }
  return std::move(std::get<Table>(result));
}

std::optional<Table> TushareFetch::call_reference(const char* api,
                                                  const json& params,
                                                  std::string_view fields,
                                                  std::string_view table) {
  return reference_table(m_client.call(api, params, fields), table);
}

std::optional<Table> TushareFetch::call_optional(const char* api, const json& params, bool& permitted) {
  if (!permitted) {
    return std::nullopt;
  }
  return optional_table(m_client.call(api, params, ""), permitted);
}

std::optional<Table> TushareFetch::call_required(const char* api, const json& params) {
  return required_table(m_client.call(api, params, ""));
}

void TushareFetch::tell(std::optional<domain::Date> day) {
  if (m_progress) {
    m_progress(FetchProgress{m_report.days_stored, m_report.plan ? m_report.plan->days.size() : 0,
                             m_report.rows, m_client.requests(), day, {}});
  }
}

bool TushareFetch::refresh_calendar() {
  // D19: refresh what the plan may read (a year back, to the end of next year); a failed refresh
  // is a warning while the stored calendar covers the days asked (plan_fetch checks that).
  const auto today = utc8_day(m_options.now).date;
  auto first = today.plus_days(-400);
  if (m_options.from && *m_options.from < first) {
    first = *m_options.from;
  }
  const auto last = domain::Date::from_ymd(static_cast<int>(static_cast<int>(
                                               std::chrono::year_month_day(today.days()).year()) + 1),
                                           12, 31);
  const auto table = call_reference("trade_cal",
                                    json{{"exchange", "SSE"},
                                         {"start_date", yyyymmdd(first)},
                                         {"end_date", yyyymmdd(last.value_or(today))}},
                                    "cal_date,is_open", "the calendar");
  if (!table) {
    return m_report.end == FetchEnd::done; // warned, or quota or token
  }
  auto calendar = read_calendar(*table);
  if (!calendar || !calendar->span) {
    warn_not_refreshed("the calendar", calendar ? std::string("Tushare `trade_cal` answered no days")
                                                : calendar.error().message);
    return true;
  }
  store::WriteTransaction transaction(m_store);
  m_store.save_calendar(calendar->span->first, calendar->span->second, calendar->open_days);
  transaction.commit();
  return true;
}

bool TushareFetch::refresh_listings() {
  // D19: listed, delisted and paused symbols, so that delisted ones keep their bars and gaps.
  std::vector<store::Listing> listings;
  for (const char* status : {"L", "D", "P"}) {
    auto table = call_reference("stock_basic", json{{"list_status", status}}, "", "the listings");
    if (!table) {
      return m_report.end == FetchEnd::done; // warned: the listings stay as stored
    }
    auto read = read_listings(*table);
    if (!read) {
      warn_not_refreshed("the listings", read.error().message);
      return true;
    }
    listings.insert(listings.end(), read->begin(), read->end());
  }
  // Only what changed is written: a whole market's listings barely change from one day to the next.
  std::map<std::string, store::Listing> stored;
  for (auto& listing : m_store.load_listings()) {
    auto symbol = listing.symbol;
    stored.emplace(std::move(symbol), std::move(listing));
  }
  const auto unchanged = [&stored](const store::Listing& listing) {
    const auto it = stored.find(listing.symbol);
    return it != stored.end() && it->second.name == listing.name
           && it->second.list_date == listing.list_date && it->second.delist_date == listing.delist_date
           && it->second.status == listing.status;
  };
  store::WriteTransaction transaction(m_store);
  for (const auto& listing : listings) {
    if (!unchanged(listing)) {
      m_store.save_listing(listing);
    }
  }
  transaction.commit();
  return true;
}

bool TushareFetch::refresh_aliases() {
  // D19: the Beijing code change, shipped and refreshed from bse_mapping; a change is written as
  // a change of the store (the generation moves: what either code answers moved).
  auto table = call_reference("bse_mapping", json::object(), "", "the code aliases");
  if (!table) {
    return m_report.end == FetchEnd::done; // warned: the aliases stay as stored
  }
  auto read = read_bse_mapping(*table);
  if (!read) {
    warn_not_refreshed("the code aliases", read.error().message);
    return true;
  }
  const auto stored = m_store.load_aliases();
  std::vector<store::CodeAlias> changed;
  for (const auto& alias : *read) {
    if (std::find(stored.begin(), stored.end(), alias) == stored.end()) {
      changed.push_back(alias);
    }
  }
  if (changed.empty()) {
    return true;
  }
  store::WriteTransaction transaction(m_store);
  for (const auto& alias : changed) {
    m_store.save_alias(alias);
  }
  m_store.finish_change("");
  transaction.commit();
  warn("the Beijing code aliases changed for " + std::to_string(changed.size())
       + (changed.size() == 1 ? " code" : " codes") + " (Tushare `bse_mapping`)");
  return true;
}

bool TushareFetch::seed_previous_adj(domain::Date first_day) {
  // The step of the first day divides by each symbol's factor on the open day before it: asked
  // for only when a stored history ends before that day (a chain to continue).
  const auto before = m_store.load_open_days(first_day.plus_days(-30), first_day.plus_days(-1));
  const auto symbols = m_store.load_symbols();
  const bool continued = std::any_of(symbols.begin(), symbols.end(), [&](const store::SymbolInfo& symbol) {
    return symbol.last_date < first_day;
  });
  if (before.empty() || !m_adj_permitted || !continued) {
    return true;
  }
  auto table = call_optional("adj_factor", json{{"trade_date", yyyymmdd(before.back())}},
                             m_adj_permitted);
  if (m_report.end != FetchEnd::done) {
    return false;
  }
  if (table) {
    if (auto adj = read_adj_factors(*table)) {
      for (const auto& [symbol, value] : *adj) {
        m_chain.remember_adj(symbol, before.back(), value);
      }
    }
  }
  return true;
}

bool TushareFetch::prepare_backward_symbol(const store::SymbolInfo& symbol, domain::Date first_day) {
  // D18: a stored history that starts after the first fetched day is continued backwards from its
  // first bar, so that the join has no step: its rows up to that bar, from the source.
  const json params{{"ts_code", symbol.symbol},
                    {"start_date", yyyymmdd(first_day)},
                    {"end_date", yyyymmdd(symbol.first_date)}};
  auto table = call_required("daily", params);
  if (!table) {
    return false;
  }
  auto rows = read_daily(std::move(*table));
  if (!rows) {
    return stop(FetchEnd::refused, std::string(k_provider) + ": " + rows.error().message);
  }
  auto& parsed = rows->file.rows;
  import::sort_by_symbol_and_date(rows->file);
  for (const auto& row : parsed) {
    // D18: a bar on a closed day is refused here too: it would put a step into the chain.
    const auto day = row.bar.trade_date;
    if (m_store.load_open_days(day, day).empty()) {
      return stop(FetchEnd::refused_row,
                  std::string(k_provider) + ": " + symbol.symbol + " on " + day.iso()
                      + ": trade_date: a bar on the closed day " + day.iso() + "; nothing of it was written");
    }
  }
  std::map<std::int64_t, double> adj;
  if (auto adj_table = call_optional("adj_factor", params, m_adj_permitted)) {
    if (auto factors = read_adj_factor_rows(*adj_table)) {
      for (const auto& factor : *factors) {
        adj[factor.date.yyyymmdd()] = factor.value;
      }
    }
  } else if (m_report.end != FetchEnd::done) {
    return false;
  }
  const auto anchor = m_store.load_bars(symbol.symbol, symbol.first_date, symbol.first_date,
                                        domain::SortOrder::asc, 1);
  if (anchor.empty() || parsed.empty() || parsed.back().bar.trade_date != symbol.first_date) {
    return true; // the source lacks the stored first day: the rows start their own chain
  }
  const auto factors = backward_factors(parsed, anchor.front(), adj);
  for (std::size_t i = 0; i + 1 < parsed.size(); ++i) {
    m_chain.set_backward(symbol.symbol, parsed[i].bar.trade_date, factors[i]);
  }
  return true;
}

bool TushareFetch::prepare_backward(const Plan& plan) {
  const auto first_day = plan.days.front();
  const std::set<std::string> named(m_options.symbols.begin(), m_options.symbols.end());
  for (const auto& symbol : m_store.load_symbols()) {
    const bool asked = named.empty() || named.count(symbol.symbol) != 0;
    if (asked && first_day < symbol.first_date && !prepare_backward_symbol(symbol, first_day)) {
      return false;
    }
  }
  return true;
}

DayCalls TushareFetch::call_day(const json& params, bool adj, bool suspend) {
  DayCalls calls;
  calls.daily = m_client.call("daily", params, "");
  auto* daily = std::get_if<Table>(&calls.daily);
  if (daily == nullptr) {
    return calls;
  }
  calls.answered_rows = daily->items.size();
  if (calls.answered_rows == 0) {
    calls.rows = read_daily(std::move(*daily));
    return calls;
  }
  // Read while the day's other calls are under way: reading is most of this thread's work.
  auto rows = std::async(std::launch::async,
                         [table = std::move(*daily)]() mutable { return read_daily(std::move(table)); });
  daily->items = {};
  if (adj) {
    calls.adj = m_client.call("adj_factor", params, "");
    if (auto* table = std::get_if<Table>(&*calls.adj)) {
      calls.adj_factors = read_adj_factors(*table);
      table->items = {};
    }
  }
  if (suspend && !(calls.adj && ends_fetch(*calls.adj))) {
    calls.suspend = m_client.call("suspend_d", params, "");
    if (auto* table = std::get_if<Table>(&*calls.suspend)) {
      calls.suspensions = read_suspensions(*table);
      table->items = {};
    }
  }
  calls.rows = rows.get();
  return calls;
}

std::optional<DayAnswer> TushareFetch::answer_of(domain::Date day, DayCalls calls) {
  if (!required_table(std::move(calls.daily))) {
    return std::nullopt;
  }
  auto& rows = *calls.rows;
  if (!rows) {
    stop(FetchEnd::refused, std::string(k_provider) + " on " + day.iso() + ": " + rows.error().message);
    return std::nullopt;
  }
  DayAnswer answer{std::move(*rows), {}, {}, calls.answered_rows};
  if (calls.adj && optional_table(std::move(*calls.adj), m_adj_permitted) && *calls.adj_factors) {
    answer.adj = std::move(**calls.adj_factors);
  }
  if (calls.suspend && m_report.end == FetchEnd::done) {
    // D18: suspensions that cannot be had are a warning; the day's bars are written without them.
    if (failed(calls.suspend)) {
      m_suspend_asked = false; // the run asks no more (AskAhead's thread stops on its own)
    }
    if (reference_table(std::move(*calls.suspend), "the suspensions")) {
      if (*calls.suspensions) {
        answer.suspensions = std::move(**calls.suspensions);
      } else {
        warn_not_refreshed("the suspensions", calls.suspensions->error().message);
      }
    }
  }
  if (m_report.end != FetchEnd::done) {
    return std::nullopt;
  }
  return answer;
}

std::optional<DayAnswer> TushareFetch::ask_day(domain::Date day, const std::vector<std::string>& symbols) {
  return answer_of(day, call_day(day_params(day, symbols), m_adj_permitted, m_suspend_asked));
}

bool TushareFetch::published(domain::Date day, std::size_t rows) {
  // D18: the last completed day with under 90% of the previous open day's rows is not yet
  // published in full: stop before it, and ask again next run.
  if (day != m_report.plan->last_completed || !m_options.symbols.empty() || !m_previous_rows) {
    return true;
  }
  if (rows * 10 >= *m_previous_rows * 9) {
    return true;
  }
  return stop(FetchEnd::not_yet_published,
              day.iso() + " is not yet published in full at Tushare (" + std::to_string(rows)
                  + " bars, the day before had " + std::to_string(*m_previous_rows)
                  + "): it will be asked for again next run");
}

bool TushareFetch::check_rows(domain::Date day, DailyRows& rows) {
  auto& file = rows.file;
  // D18: a bar on a day the calendar says is closed is refused, as is one of another day, and a
  // second bar of a symbol (D16's duplicate row). Symbols are looked for twice only in an answer
  // that has one twice.
  std::vector<std::string_view> symbols;
  symbols.reserve(file.rows.size());
  for (const auto& row : file.rows) {
    symbols.push_back(row.symbol);
  }
  std::sort(symbols.begin(), symbols.end());
  const bool twice = std::adjacent_find(symbols.begin(), symbols.end()) != symbols.end();
  std::unordered_set<std::string_view> answered;
  const auto refused = [&](const import::ParsedRow& row) {
    const auto date = row.bar.trade_date;
    if (date != day) {
      file.problems.push_back({row.line, "trade_date",
                               (m_open_days.count(date) != 0 ? "a bar of " : "a bar on the closed day ")
                                   + date.iso() + " in the answer for " + day.iso()});
      return true;
    }
    if (twice && !answered.insert(row.symbol).second) {
      file.problems.push_back({row.line, "ts_code", "a second bar of " + row.symbol});
      return true;
    }
    return false;
  };
  std::vector<bool> left_out; // decided before a row moves: `answered` views their symbols
  left_out.reserve(file.rows.size());
  for (const auto& row : file.rows) {
    left_out.push_back(refused(row));
  }
  std::size_t kept = 0;
  for (std::size_t i = 0; i < file.rows.size(); ++i) {
    if (!left_out[i]) {
      if (kept != i) {
        file.rows[kept] = std::move(file.rows[i]);
      }
      ++kept;
    }
  }
  file.rows.resize(kept);
  if (file.problems.empty() || m_options.skip_invalid) {
    for (const auto& problem : file.problems) {
      warn(std::string(k_provider) + ": " + rows.code_on_line(problem.line) + " on " + day.iso()
           + ": " + problem.column + ": " + problem.message
           + (problem.column == "ts_code" ? " (left out, the first is written)"
                                          : " (left out, the day's bar stays missing)"));
    }
    return true;
  }
  const auto& first = *std::min_element(file.problems.begin(), file.problems.end(),
                                        [](const auto& a, const auto& b) { return a.line < b.line; });
  return stop(FetchEnd::refused_row,
              std::string(k_provider) + ": " + rows.code_on_line(first.line) + " on " + day.iso()
                  + ": " + first.column + ": " + first.message
                  + "; nothing of that day was written (--skip-invalid writes the rest)");
}

void TushareFetch::write_day(domain::Date day,
                             DayAnswer& answer,
                             const std::vector<std::string>& asked,
                             bool repair) {
  auto& rows = answer.daily.file.rows;
  const auto origins = m_chain.settle(rows, answer.adj);
  DayRecord record{day, std::move(answer.suspensions), {}, {}, repair, {}, 0};
  record.rows = static_cast<std::int64_t>(answer.answered_rows);
  if (!repair) {
    record.ledger_symbols = asked;
  }
  if (const auto marks = m_absent.find(day); marks != m_absent.end()) {
    for (const auto& row : rows) {
      if (marks->second.erase(row.symbol) != 0) {
        record.marks_gone.push_back(row.symbol);
      }
    }
  }
  if (repair) {
    // D19: asked again, and the source has no bar either.
    std::set<std::string_view> answered;
    for (const auto& row : rows) {
      answered.insert(row.symbol);
    }
    for (const auto& symbol : asked) {
      if (answered.count(symbol) == 0 && m_absent[day].insert(symbol).second) {
        record.marks_new.push_back(symbol);
      }
    }
    m_report.absent_marked += static_cast<std::int64_t>(record.marks_new.size());
  }
  m_batch.add(std::move(rows), origins,
              [record = std::move(record)](store::BarStore& store) { save_day_record(store, record); });
}

bool TushareFetch::commit_days() {
  const auto committed = m_batch.commit();
  if (!committed) {
    return stop(FetchEnd::refused, std::string(k_provider) + ": " + committed.error().message
                                       + "; nothing of the days since the last commit was written");
  }
  m_report.days_stored += committed->units;
  m_report.rows += committed->rows;
  return true;
}

bool TushareFetch::fetch_days(const Plan& plan) {
  for (const auto& row : m_store.load_ledger(k_provider)) {
    if (row.symbol.empty() && row.trade_date < plan.days.front()) {
      m_previous_rows = static_cast<std::size_t>(row.rows); // ascending: the last one before
    }
  }
  // The days' calls go out on a thread of their own while days are written, up to
  // k_days_ahead days ahead: still one request in flight (D18). A permission refusal of
  // adj_factor, and any failure of suspend_d, ends the asking of that API there (the writing
  // warns of it, once); an answer that ends the fetch ends the asking.
  AskAhead<domain::Date, DayCalls, int> ahead(
      plan.days, k_days_ahead,
      [this, adj = m_adj_permitted, suspend = m_suspend_asked](const domain::Date& day,
                                                               const std::function<void(int)>&) mutable {
        auto calls = call_day(day_params(day, m_options.symbols), adj, suspend);
        adj = adj && !refused_permission(calls.adj);
        suspend = suspend && !failed(calls.suspend);
        return calls;
      },
      [](const DayCalls& calls) { return ends_fetch(calls); });
  for (const auto day : plan.days) {
    tell(day);
    auto calls = ahead.take();
    if (!calls || !write_answer(day, answer_of(day, std::move(*calls)))) {
      // The days before the one that stopped the fetch are whole: they stay.
      (void)commit_days();
      return false;
    }
    if (!ahead.at_hand_within(k_group_window - m_batch.age()) && !commit_days()) {
      return false;
    }
  }
  if (!commit_days()) {
    return false;
  }
  tell(std::nullopt);
  return true;
}

bool TushareFetch::write_answer(domain::Date day, std::optional<DayAnswer> answer) {
  if (!answer || !published(day, answer->answered_rows)) {
    return false;
  }
  if (answer->answered_rows == 0) {
    warn("Tushare answered no bars for " + day.iso() + ": recorded as an empty day");
  }
  if (!check_rows(day, answer->daily)) {
    return false;
  }
  m_previous_rows = answer->answered_rows;
  write_day(day, *answer, m_options.symbols, false);
  return true;
}

bool TushareFetch::repair_gaps() {
  // D19: ask again for each `missing` bar, a day at a time, in calls of at most 100 codes.
  const auto gaps = find_gaps(m_store, {m_options.symbols, m_options.from, m_options.to});
  if (!gaps) {
    return stop(FetchEnd::refused, gaps.error().message);
  }
  std::map<domain::Date, std::vector<std::string>> by_day;
  for (const auto& gap : gaps->gaps) {
    if (gap.reason == GapReason::missing) {
      by_day[gap.day].push_back(gap.symbol);
    }
  }
  m_report.plan->days.clear();
  for (const auto& [day, symbols] : by_day) {
    m_report.plan->days.push_back(day);
  }
  for (const auto& [day, symbols] : by_day) {
    tell(day);
    for (std::size_t first = 0; first < symbols.size(); first += 100) {
      const std::vector<std::string> chunk(
          symbols.begin() + static_cast<std::ptrdiff_t>(first),
          symbols.begin() + static_cast<std::ptrdiff_t>(std::min(first + 100, symbols.size())));
      auto answer = ask_day(day, chunk);
      if (!answer || !check_rows(day, answer->daily)) {
        return false;
      }
      write_day(day, *answer, chunk, true);
      if (!commit_days()) {
        return false;
      }
      --m_report.days_stored; // counted once per day below
    }
    ++m_report.days_stored;
  }
  tell(std::nullopt);
  return true;
}

FetchReport TushareFetch::run() {
  for (const auto& absence : m_store.load_absences("")) {
    m_absent[absence.trade_date].insert(absence.symbol);
  }
  if (!m_options.dry_run && !refresh_calendar()) {
    return m_report;
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
    (void)repair_gaps();
    if (m_report.end == FetchEnd::done && m_report.days_stored == 0) {
      m_report.end = FetchEnd::up_to_date;
    }
  } else if (m_options.dry_run) {
    // daily, adj_factor and suspend_d a day; the calendar, three listings and the aliases first.
    m_report.estimated_requests = static_cast<std::int64_t>(plan->days.size()) * 3 + 5;
    m_report.end = FetchEnd::planned;
  } else if (plan->days.empty()) {
    m_report.end = FetchEnd::up_to_date;
  } else {
    for (const auto day : m_store.load_open_days(plan->start.plus_days(-30), plan->end)) {
      m_open_days.insert(day);
    }
    (void)(refresh_listings() && refresh_aliases() && seed_previous_adj(plan->days.front()) && prepare_backward(*plan)
           && fetch_days(*plan));
  }
  m_report.requests = m_client.requests();
  finish_report(m_store, k_provider, m_options, m_report);
  return m_report;
}

} // namespace

FetchEnd end_of(const CallFailure& failure) {
  switch (failure.kind) {
  case CallFailure::Kind::quota:
  case CallFailure::Kind::token:
    return FetchEnd::quota_or_token;
  case CallFailure::Kind::failing:
    return FetchEnd::source_failing;
  default:
    return FetchEnd::refused;
  }
}

FetchReport fetch_tushare(store::BarStore& store,
                          Client& client,
                          const FetchOptions& options,
                          const std::function<void(const FetchProgress&)>& progress) {
  return TushareFetch(store, client, options, progress).run();
}

} // namespace ashare::fetch::tushare
