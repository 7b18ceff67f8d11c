#include "core/fetch/tushare/provider.hpp"

#include "core/fetch/tushare/tables.hpp"
#include "core/import/factors.hpp"

#include <algorithm>
#include <chrono>
#include <future>
#include <iterator>
#include <string_view>
#include <unordered_set>
#include <utility>

namespace ashare::fetch::tushare {
namespace {

using nlohmann::json;

// Codes a `daily` call names at most (its ts_code list).
constexpr std::size_t k_codes_per_call = 100;

// Rows an `index_daily` call answers at most (D20: one call per index per 8,000 rows).
constexpr std::size_t k_index_rows_per_call = 8000;

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

// Return the kind of `symbol` by its code (D20), nullopt for a code D20 keeps out.
std::optional<domain::Kind> code_kind(const std::string& symbol) {
  return domain::classify_code(symbol).kind;
}

// Return those of `symbols` of `kind` by their code.
std::vector<std::string> of_kind(const std::vector<std::string>& symbols, domain::Kind kind) {
  std::vector<std::string> out;
  std::copy_if(symbols.begin(), symbols.end(), std::back_inserter(out),
               [kind](const std::string& symbol) { return code_kind(symbol) == kind; });
  return out;
}

// The APIs that answer a kind's bars and factors (D20): an index has no factors (its factor is 1).
struct KindApis {
  const char* bars;
  const char* adj; // nullptr: none
};

KindApis apis_of(domain::Kind kind) {
  switch (kind) {
  case domain::Kind::fund:
    return {"fund_daily", "fund_adj"};
  case domain::Kind::index:
    return {"index_daily", nullptr};
  default:
    return {"daily", "adj_factor"};
  }
}

// Return `why` (a refusal quoting the source) followed by `then`: the source's final full stop
// ("。" or ".") dropped, so that "; " does not follow it.
std::string then_said(std::string why, std::string_view then) {
  for (const std::string_view stop : {"\u3002", "."}) {
    if (why.ends_with(stop)) {
      why.erase(why.size() - stop.size());
      break;
    }
  }
  return why + "; " + std::string(then);
}

// Return the words a refused kind is left out with.
std::string left_out(const std::string& why, domain::Kind kind) {
  return then_said(why, std::string("the ") + (kind == domain::Kind::fund ? "funds" : "indices")
                            + " are left out of this run (D20)");
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

// Drop the rows of codes D20 keeps out (a REIT in `fund_daily`'s answer, a B share): no kind.
void drop_kept_out(Fetched& out) {
  std::erase_if(out.rows, [](const import::ParsedRow& row) { return !code_kind(row.symbol); });
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

void TushareProvider::ask_kind_listings(const UniverseAsk& ask, References& out) {
  // D20: the funds listed on the exchanges (market E), and each index asked by its code.
  std::vector<store::Listing> listings;
  const auto add = [&](const std::optional<Table>& table, auto read, std::string_view what) {
    if (!table) {
      return;
    }
    auto read_rows = read(*table);
    if (!read_rows) {
      not_refreshed(what, read_rows.error().message, out.warnings);
      return;
    }
    listings.insert(listings.end(), read_rows->begin(), read_rows->end());
  };
  const bool funds = ask.kinds.empty() || std::find(ask.kinds.begin(), ask.kinds.end(), domain::Kind::fund) != ask.kinds.end();
  if (funds) {
    add(call_reference("fund_basic", json{{"market", "E"}}, "", "the funds' listings", out.warnings, out.stop),
        read_fund_listings, "the funds' listings");
  }
  for (const auto& index : ask.indices) {
    if (out.stop) {
      return;
    }
    add(call_reference("index_basic", json{{"ts_code", index}}, "", "the indices' listings", out.warnings, out.stop),
        read_index_listings, "the indices' listings");
  }
  if (!listings.empty()) {
    if (!out.listings) {
      out.listings.emplace();
    }
    out.listings->insert(out.listings->end(), listings.begin(), listings.end());
  }
}

References TushareProvider::references(const UniverseAsk& ask, const Waiting& waiting) {
  const Listening listening(m_client, waiting);
  References out;
  out.aliases_from = "Tushare `bse_mapping`";
  const bool stocks = !ask.named.empty() || ask.kinds.empty()
                      || std::find(ask.kinds.begin(), ask.kinds.end(), domain::Kind::stock) != ask.kinds.end();
  if (stocks) {
    ask_listings(out);
  }
  if (stocks && !out.stop) {
    ask_aliases(out);
  }
  if (ask.named.empty() && !out.stop) {
    ask_kind_listings(ask, out);
  }
  return out;
}

std::int64_t TushareProvider::estimate(const PlanSize& size) const {
  // A day of stocks: daily, adj_factor, suspend_d; of funds: fund_daily, fund_adj; each index one
  // index_daily per 8,000 rows (D20: about 13 calls a day with the default eight). The calendar,
  // stock_basic (three statuses) and bse_mapping, fund_basic, an index_basic per index first;
  // an index_weight per index whose membership is asked (a window's snapshots, one page or more).
  const auto pages = (size.index_days + k_index_rows_per_call - 1) / k_index_rows_per_call;
  const bool stocks = size.stock_days > 0 || size.named;
  return static_cast<std::int64_t>(size.stock_days * 3 + size.fund_days * 2 + size.indices * pages)
         + 1 + (stocks ? 4 : 0) + (size.fund_days > 0 ? 1 : 0)
         + static_cast<std::int64_t>(size.index_days > 0 ? size.indices : 0)
         + static_cast<std::int64_t>(size.members);
}

bool TushareProvider::ask_day_adj(const char* api_name,
                                  bool& permitted,
                                  const std::vector<json>& calls,
                                  Fetched& out,
                                  std::optional<Stop>& stop) {
  for (const auto& params : calls) {
    auto table = call_permitted(api_name, params, permitted, out.warnings, stop);
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

bool& TushareProvider::bars_permitted(domain::Kind kind) {
  return kind == domain::Kind::fund ? m_fund_daily_permitted : kind == domain::Kind::index ? m_index_daily_permitted : m_daily_permitted;
}

bool& TushareProvider::adj_permitted(domain::Kind kind) {
  return kind == domain::Kind::fund ? m_fund_adj_permitted : m_adj_permitted;
}

std::optional<Stop> TushareProvider::call_bars(domain::Kind kind,
                                               const json& params,
                                               std::vector<Table>& tables,
                                               Fetched& out) {
  // D20: a kind whose bars API the token may not call is left out (a stock's `daily` stops the run).
  bool& permitted = bars_permitted(kind);
  if (!permitted) {
    out.kind_refused = true;
    return std::nullopt;
  }
  auto answer = m_client.call(apis_of(kind).bars, params, "");
  if (const auto* failure = std::get_if<CallFailure>(&answer)) {
    if (failure->kind != CallFailure::Kind::permission || kind == domain::Kind::stock) {
      return stop_of(*failure);
    }
    permitted = false;
    out.kind_refused = true;
    out.warnings.push_back(left_out(failure->message, kind));
    return std::nullopt;
  }
  out.answered += std::get<Table>(answer).items.size();
  tables.push_back(std::move(std::get<Table>(answer)));
  return std::nullopt;
}

std::optional<Stop> TushareProvider::ask_named_kinds(const Unit& unit, std::vector<Table>& tables, Fetched& out) {
  // A run naming funds and indices asks them on the day by code: funds as a day's ts_code list,
  // each index by its code (index_daily answers one code a call).
  const auto day = yyyymmdd(unit.days.front());
  std::vector<json> calls;
  for (const auto& params : day_calls(unit.days.front(), of_kind(unit.symbols, domain::Kind::fund))) {
    calls.push_back(params);
  }
  const bool funds = !of_kind(unit.symbols, domain::Kind::fund).empty();
  for (std::size_t i = 0; funds && i < calls.size(); ++i) {
    if (auto stop = call_bars(domain::Kind::fund, calls[i], tables, out)) {
      return stop;
    }
  }
  for (const auto& index : of_kind(unit.symbols, domain::Kind::index)) {
    if (auto stop = call_bars(domain::Kind::index, json{{"ts_code", index}, {"start_date", day}, {"end_date", day}},
                              tables, out)) {
      return stop;
    }
  }
  out.kind_refused = false; // named: a kind refused is a warning, the others are written
  std::optional<Stop> stop;
  if (funds && out.answered > 0) {
    (void)ask_day_adj("fund_adj", m_fund_adj_permitted, calls, out, stop);
  }
  return stop;
}

Asked TushareProvider::fetch_day(const Unit& unit) {
  const auto day = unit.days.front();
  const bool named = !unit.symbols.empty();
  const auto kind = named ? domain::Kind::stock : unit.kind;
  const auto stocks = of_kind(unit.symbols, domain::Kind::stock);
  const auto calls = named && stocks.empty() ? std::vector<json>{} : day_calls(day, named ? stocks : unit.symbols);
  Fetched out;
  out.where = k_provider;
  std::optional<Stop> stop;
  if (unit.factors_before && !calls.empty()) {
    const json params{{"trade_date", yyyymmdd(*unit.factors_before)}};
    if (auto table = call_permitted(apis_of(kind).adj, params, adj_permitted(kind), out.warnings, stop)) {
      if (auto read = read_adj_factors(*table)) {
        out.adj_before = std::move(*read);
      }
    } else if (stop) {
      return *stop;
    }
  }
  std::vector<Table> tables;
  for (const auto& params : calls) {
    if (auto why = call_bars(kind, params, tables, out)) {
      return *why;
    }
    if (out.kind_refused) {
      return out;
    }
  }
  const auto stock_rows = out.answered;
  if (named) {
    if (auto why = ask_named_kinds(unit, tables, out)) {
      return *why;
    }
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
  const bool suspensions = unit.with_suspensions && kind == domain::Kind::stock;
  if (stock_rows > 0
      && (!ask_day_adj(apis_of(kind).adj, adj_permitted(kind), calls, out, stop)
          || (suspensions && !ask_day_suspensions(calls, out, stop)))) {
    return *stop;
  }
  auto read = reading.get();
  if (auto why = add_day_rows(read, day, out)) {
    return *why;
  }
  drop_kept_out(out);
  return out;
}

Asked TushareProvider::fetch_span(const Unit& unit) {
  const auto& symbol = unit.symbols.front();
  const auto kind = code_kind(symbol).value_or(domain::Kind::stock);
  const json params{{"ts_code", symbol},
                    {"start_date", yyyymmdd(unit.days.front())},
                    {"end_date", yyyymmdd(unit.days.back())}};
  Fetched out;
  out.where = k_provider;
  std::vector<Table> tables;
  if (auto why = call_bars(kind, params, tables, out)) {
    return *why;
  }
  if (out.kind_refused) {
    return out;
  }
  auto rows = read_daily(std::move(tables.front()));
  if (!rows) {
    return Stop{FetchEnd::refused, std::string(k_provider) + ": " + rows.error().message};
  }
  for (const auto& problem : rows->file.problems) {
    out.problems.push_back({problem.line, rows->code_on_line(problem.line),
                            rows->day_on_line(problem.line).value_or(unit.days.front()), problem.column,
                            problem.message});
  }
  import::sort_by_symbol_and_date(rows->file);
  out.rows = std::move(rows->file.rows);
  std::optional<Stop> stop;
  const char* adj = apis_of(kind).adj;
  if (auto table = adj == nullptr ? std::nullopt : call_permitted(adj, params, adj_permitted(kind), out.warnings, stop)) {
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

std::variant<Snapshots, Stop> TushareProvider::members(const std::string& index,
                                                       domain::Date first,
                                                       domain::Date last,
                                                       const Waiting& waiting) {
  const Listening listening(m_client, waiting);
  // D20: 000300.SH answered nothing for years (waditu/tushare #801 #1175 #1224); its weights are
  // filed under 399300.SZ.
  const std::string asked = index == "000300.SH" ? "399300.SZ" : index;
  Snapshots out;
  std::optional<Stop> stop;
  const json params{{"index_code", asked}, {"start_date", yyyymmdd(first)}, {"end_date", yyyymmdd(last)}};
  auto table = call_permitted("index_weight", params, m_index_weight_permitted, out.warnings, stop);
  if (stop) {
    return *stop;
  }
  if (!table) { // refused for the token's points: said once, the run goes on
    for (auto& warning : out.warnings) {
      warning = then_said(warning, "the indices' membership is left out of this run (D20)");
    }
    return out;
  }
  auto read = read_index_weight(*table);
  if (!read) {
    return Stop{FetchEnd::refused, std::string(k_provider) + ": " + read.error().message};
  }
  out.by_day = std::move(*read);
  return out;
}

Asked TushareProvider::fetch(const Unit& unit, const Waiting& waiting) {
  const Listening listening(m_client, waiting);
  return unit.shape == UnitShape::market_day ? fetch_day(unit) : fetch_span(unit);
}

} // namespace ashare::fetch::tushare
