#include "core/fetch/tushare/provider.hpp"

#include "core/fetch/tushare/tables.hpp"
#include "core/import/factors.hpp"

#include <algorithm>
#include <chrono>
#include <future>
#include <string_view>
#include <unordered_set>
#include <utility>

namespace ashare::fetch::tushare {
namespace {

using nlohmann::json;

// Codes a `daily` call names at most (its ts_code list).
constexpr std::size_t k_codes_per_call = 100;

std::string yyyymmdd(domain::Date day) {
  return std::to_string(day.yyyymmdd());
}

// Return the parameters of the calls of a market's `day`: one for the whole market, else one per
// k_codes_per_call of `symbols`.
std::vector<json> day_calls(domain::Date day, const std::vector<std::string>& symbols) {
  if (symbols.empty()) {
    return {json{{"trade_date", yyyymmdd(day)}}};
  }
  std::vector<json> calls;
  for (std::size_t first = 0; first < symbols.size(); first += k_codes_per_call) {
    std::string codes;
    for (std::size_t i = first; i < std::min(symbols.size(), first + k_codes_per_call); ++i) {
      codes += (codes.empty() ? "" : ",") + symbols[i];
    }
    calls.push_back(json{{"trade_date", yyyymmdd(day)}, {"ts_code", codes}});
  }
  return calls;
}

Stop stop_of(const CallFailure& failure) {
  return Stop{end_of(failure), failure.message};
}

// Tells `waiting` what the client does, while it lives: how long it waited out the source's rate
// window, or zero for anything else it did (a call sent, a retry).
class Listening {
public:
  Listening(Client& client, const Waiting& waiting) : m_client(client) {
    if (waiting) {
      m_client.set_on_event([&waiting](const CallEvent& event) {
        waiting(event.kind == CallEvent::Kind::waited_for_window ? event.waited : std::chrono::milliseconds(0));
      });
    }
  }
  Listening(const Listening&) = delete;
  Listening& operator=(const Listening&) = delete;
  ~Listening() { m_client.set_on_event({}); }

private:
  Client& m_client;
};

// Take out of `out.rows` the second bars of a symbol on `day` (D16's duplicate row): the first is
// written. Symbols are looked for twice only in an answer that has one twice.
void take_second_bars(Fetched& out, domain::Date day) {
  std::vector<std::string_view> symbols;
  symbols.reserve(out.rows.size());
  for (const auto& row : out.rows) {
    symbols.push_back(row.symbol);
  }
  std::sort(symbols.begin(), symbols.end());
  if (std::adjacent_find(symbols.begin(), symbols.end()) == symbols.end()) {
    return;
  }
  std::unordered_set<std::string> seen;
  std::erase_if(out.rows, [&](const import::ParsedRow& row) {
    if (row.bar.trade_date != day || seen.insert(row.symbol).second) {
      return false;
    }
    out.problems.push_back({row.line, row.symbol, day, "ts_code", "a second bar of " + row.symbol, true});
    return true;
  });
}

// Add the rows and problems of a day's `daily` answers (`read`, one per call) to `out`, their
// lines numbered across the calls; or say why the day cannot be read.
std::optional<Stop> add_day_rows(std::vector<Result<DailyRows>>& read, domain::Date day, Fetched& out) {
  std::int64_t offset = 0;
  for (auto& rows : read) {
    if (!rows) {
      return Stop{FetchEnd::refused, std::string(k_provider) + " on " + day.iso() + ": " + rows.error().message};
    }
    for (const auto& problem : rows->file.problems) {
      out.problems.push_back({problem.line + offset, rows->code_on_line(problem.line), day, problem.column,
                              problem.message});
    }
    for (auto& row : rows->file.rows) {
      row.line += offset;
      out.rows.push_back(std::move(row));
    }
    offset += static_cast<std::int64_t>(rows->row_codes.size());
  }
  take_second_bars(out, day);
  return std::nullopt;
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

std::optional<Table> TushareProvider::call_permitted(const char* api_name,
                                                     const json& params,
                                                     bool& permitted,
                                                     std::vector<std::string>& warnings,
                                                     std::optional<Stop>& stop) {
  if (!permitted) {
    return std::nullopt;
  }
  auto result = m_client.call(api_name, params, "");
  if (const auto* failure = std::get_if<CallFailure>(&result)) {
    if (failure->kind == CallFailure::Kind::permission) {
      permitted = false;
      warnings.push_back(failure->message);
    } else {
      stop = stop_of(*failure);
    }
    return std::nullopt;
  }
  return std::move(std::get<Table>(result));
}

void TushareProvider::not_refreshed(std::string_view table, const std::string& why,
                                    std::vector<std::string>& warnings) {
  if (m_not_refreshed.emplace(table).second) {
    warnings.push_back(std::string(table) + (table == "the calendar" ? " was" : " were") + " not refreshed: " + why);
  }
}

std::optional<Table> TushareProvider::call_reference(const char* api_name,
                                                     const json& params,
                                                     std::string_view fields,
                                                     std::string_view table,
                                                     std::vector<std::string>& warnings,
                                                     std::optional<Stop>& stop) {
  auto result = m_client.call(api_name, params, fields);
  if (const auto* failure = std::get_if<CallFailure>(&result)) {
    if (failure->kind == CallFailure::Kind::quota || failure->kind == CallFailure::Kind::token) {
      stop = stop_of(*failure);
    } else {
      not_refreshed(table, failure->message, warnings);
    }
    return std::nullopt;
  }
  return std::move(std::get<Table>(result));
}

References TushareProvider::calendar(domain::Date today, std::optional<domain::Date> from, const Waiting& waiting) {
  const Listening listening(m_client, waiting);
  // D19: what the plan may read, a year back (or from --from) to the end of next year.
  auto first = today.plus_days(-400);
  if (from && *from < first) {
    first = *from;
  }
  const auto year = static_cast<int>(std::chrono::year_month_day(today.days()).year()) + 1;
  const auto last = domain::Date::from_ymd(year, 12, 31).value_or(today);
  References out;
  const auto table = call_reference(
      "trade_cal", json{{"exchange", "SSE"}, {"start_date", yyyymmdd(first)}, {"end_date", yyyymmdd(last)}},
      "cal_date,is_open", "the calendar", out.warnings, out.stop);
  if (!table) {
    return out; // warned, or quota or token
  }
  const auto read = read_calendar(*table);
  if (!read || !read->span) {
    not_refreshed("the calendar", read ? std::string("Tushare `trade_cal` answered no days") : read.error().message,
                  out.warnings);
    return out;
  }
  out.calendar.push_back({read->span->first, read->span->second, read->open_days});
  return out;
}

void TushareProvider::ask_listings(References& out) {
  // D19: listed, delisted and paused symbols, so that delisted ones keep their bars and gaps.
  std::vector<store::Listing> listings;
  for (const char* status : {"L", "D", "P"}) {
    auto table = call_reference("stock_basic", json{{"list_status", status}}, "", "the listings", out.warnings,
                                out.stop);
    if (!table) {
      return; // warned or stopped: the listings stay as stored
    }
    auto read = read_listings(*table);
    if (!read) {
      not_refreshed("the listings", read.error().message, out.warnings);
      return;
    }
    listings.insert(listings.end(), read->begin(), read->end());
  }
  out.listings = std::move(listings);
}

void TushareProvider::ask_aliases(References& out) {
  // D19: the Beijing code change, shipped and refreshed from bse_mapping.
  auto table = call_reference("bse_mapping", json::object(), "", "the code aliases", out.warnings, out.stop);
  if (!table) {
    return; // warned or stopped: the aliases stay as stored
  }
  auto read = read_bse_mapping(*table);
  if (!read) {
    not_refreshed("the code aliases", read.error().message, out.warnings);
    return;
  }
  out.aliases = std::move(*read);
}

References TushareProvider::references(const Waiting& waiting) {
  const Listening listening(m_client, waiting);
  References out;
  out.aliases_from = "Tushare `bse_mapping`";
  ask_listings(out);
  if (!out.stop) {
    ask_aliases(out);
  }
  return out;
}

bool TushareProvider::ask_day_adj(const std::vector<json>& calls, Fetched& out, std::optional<Stop>& stop) {
  for (const auto& params : calls) {
    auto table = call_permitted("adj_factor", params, m_adj_permitted, out.warnings, stop);
    if (!table) {
      return !stop; // refused: the factors follow the pre_close chain
    }
    if (auto read = read_adj_factors(*table)) {
      out.adj.merge(*read);
    }
  }
  return true;
}

bool TushareProvider::ask_day_suspensions(const std::vector<json>& calls, Fetched& out, std::optional<Stop>& stop) {
  // D18: suspensions that cannot be had are a warning; the day's bars are written without them.
  for (const auto& params : calls) {
    if (!m_suspend_asked) {
      return true;
    }
    auto table = call_reference("suspend_d", params, "", "the suspensions", out.warnings, stop);
    if (!table) {
      m_suspend_asked = false; // asked no more this run
      return !stop;
    }
    if (auto read = read_suspensions(*table)) {
      out.suspensions.insert(out.suspensions.end(), read->begin(), read->end());
    } else {
      not_refreshed("the suspensions", read.error().message, out.warnings);
    }
  }
  return true;
}

Asked TushareProvider::fetch_day(const Unit& unit) {
  const auto day = unit.days.front();
  const auto calls = day_calls(day, unit.symbols);
  Fetched out;
  out.where = k_provider;
  std::optional<Stop> stop;
  if (unit.factors_before) {
    const json params{{"trade_date", yyyymmdd(*unit.factors_before)}};
    if (auto table = call_permitted("adj_factor", params, m_adj_permitted, out.warnings, stop)) {
      if (auto read = read_adj_factors(*table)) {
        out.adj_before = std::move(*read);
      }
    } else if (stop) {
      return *stop;
    }
  }
  std::vector<Table> tables;
  for (const auto& params : calls) {
    auto daily = m_client.call("daily", params, "");
    if (const auto* failure = std::get_if<CallFailure>(&daily)) {
      return stop_of(*failure);
    }
    out.answered += std::get<Table>(daily).items.size();
    tables.push_back(std::move(std::get<Table>(daily)));
  }
  // Read while the day's other calls are under way: reading is most of this thread's work.
  auto reading = std::async(out.answered > 0 ? std::launch::async : std::launch::deferred,
                            [tables = std::move(tables)]() mutable {
                              std::vector<Result<DailyRows>> read;
                              for (auto& table : tables) {
                                read.push_back(read_daily(std::move(table)));
                              }
                              return read;
                            });
  if (out.answered > 0
      && (!ask_day_adj(calls, out, stop) || (unit.with_suspensions && !ask_day_suspensions(calls, out, stop)))) {
    return *stop;
  }
  auto read = reading.get();
  if (auto why = add_day_rows(read, day, out)) {
    return *why;
  }
  return out;
}

Asked TushareProvider::fetch_span(const Unit& unit) {
  const auto& symbol = unit.symbols.front();
  const json params{{"ts_code", symbol},
                    {"start_date", yyyymmdd(unit.days.front())},
                    {"end_date", yyyymmdd(unit.days.back())}};
  auto daily = m_client.call("daily", params, "");
  if (const auto* failure = std::get_if<CallFailure>(&daily)) {
    return stop_of(*failure);
  }
  auto rows = read_daily(std::move(std::get<Table>(daily)));
  if (!rows) {
    return Stop{FetchEnd::refused, std::string(k_provider) + ": " + rows.error().message};
  }
  Fetched out;
  out.where = k_provider;
  out.answered = rows->row_codes.size();
  for (const auto& problem : rows->file.problems) {
    out.problems.push_back({problem.line, rows->code_on_line(problem.line),
                            rows->day_on_line(problem.line).value_or(unit.days.front()), problem.column,
                            problem.message});
  }
  import::sort_by_symbol_and_date(rows->file);
  out.rows = std::move(rows->file.rows);
  std::optional<Stop> stop;
  if (auto table = call_permitted("adj_factor", params, m_adj_permitted, out.warnings, stop)) {
    if (const auto factors = read_adj_factor_rows(*table)) {
      for (const auto& factor : *factors) {
        out.span_adj[factor.date.yyyymmdd()] = factor.value;
      }
    }
  }
  if (stop) {
    return *stop;
  }
  return out;
}

Asked TushareProvider::fetch(const Unit& unit, const Waiting& waiting) {
  const Listening listening(m_client, waiting);
  return unit.shape == UnitShape::market_day ? fetch_day(unit) : fetch_span(unit);
}

} // namespace ashare::fetch::tushare
