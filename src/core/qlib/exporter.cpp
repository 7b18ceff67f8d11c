#include "core/qlib/exporter.hpp"

#include "core/fnv1a.hpp"
#include "core/qlib/export_state.hpp"
#include "core/qlib/index_instruments.hpp"
#include "core/qlib/layout.hpp"
#include "core/query/series.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <fstream>
#include <limits>
#include <map>
#include <set>
#include <stdexcept>

namespace ashare::qlib {
namespace {

namespace fs = std::filesystem;
using domain::Date;

// The window's bounds when --from or --to is not given: every stored bar lies between them.
const Date k_earliest{std::chrono::sys_days{std::chrono::year{1970} / 1 / 1}};
const Date k_latest{std::chrono::sys_days{std::chrono::year{2200} / 1 / 1}};

// What says that a symbol's exported history changed: FNV-1a over the bytes of its bars.
class Fingerprint {
public:
  explicit Fingerprint(double first_factor) { add(first_factor); }
  void add(const domain::Bar& bar) {
    m_hash.add_u64(static_cast<std::uint64_t>(bar.trade_date.days().time_since_epoch().count()));
    for (const double value :
         {bar.open, bar.high, bar.low, bar.close, bar.turnover, bar.change_pct, bar.factor}) {
      add(value);
    }
    m_hash.add_u64(static_cast<std::uint64_t>(bar.volume));
  }
  std::uint64_t value() const { return m_hash.value(); }

private:
  void add(double value) { m_hash.add_u64(std::bit_cast<std::uint64_t>(value)); }
  Fnv1a m_hash;
};

// One symbol to export, as the first pass over the store found it.
struct SymbolPlan {
  domain::Symbol symbol;
  Date first;
  Date last;
  std::int64_t bars = 0;
  double first_factor = 1;          // of its first stored bar, whatever the window
  std::uint64_t fingerprint = 0;    // of every bar in the window
  std::uint64_t fingerprint_to_previous = 0; // of those up to its previous export's last date
};

// The days of the export (D19): the store's open days from the first to the last exported bar,
// never the union of the bars' dates, so a stray bar on a closed day adds no day. Past the
// stored calendar's span a day is unknown: there the bars' own dates stand in.
class Calendar {
public:
  void mark(Date date) {
    m_first = m_first ? std::min(*m_first, date) : date;
    m_last = m_last ? std::max(*m_last, date) : date;
    m_marked.push_back(date);
  }
  // Take the days from `store`; index_from() and index_to() work from then on.
  void close(store::BarStore& store) {
    if (!m_first) {
      return;
    }
    const auto span = store.market().load_calendar_span();
    std::vector<Date> days;
    if (span) {
      days = store.market().load_open_days(std::max(*m_first, span->first), std::min(*m_last, span->second));
    }
    for (const auto& date : m_marked) {
      if (!span || date < span->first || date > span->second) {
        days.push_back(date);
      }
    }
    std::sort(days.begin(), days.end());
    days.erase(std::unique(days.begin(), days.end()), days.end());
    m_days = std::move(days);
    m_marked.clear();
  }
  // Return the index of the first day on or after `date`.
  std::int32_t index_from(Date date) const {
    return static_cast<std::int32_t>(std::lower_bound(m_days.begin(), m_days.end(), date)
                                     - m_days.begin());
  }
  // Return the index of the last day on or before `date` (-1 when none).
  std::int32_t index_to(Date date) const {
    return static_cast<std::int32_t>(std::upper_bound(m_days.begin(), m_days.end(), date)
                                     - m_days.begin())
           - 1;
  }
  const std::vector<Date>& days() const { return m_days; }

private:
  std::optional<Date> m_first;
  std::optional<Date> m_last;
  std::vector<Date> m_marked;
  std::vector<Date> m_days;
};

// Return the bars of the series `symbol` answers (D19: a new code's includes the old code's)
// in the request's window.
std::vector<domain::Bar> window_bars(store::BarStore& store,
                                     const query::Aliases& aliases,
                                     const std::string& symbol,
                                     const ExportRequest& request) {
  return query::load_series_window(store, aliases, symbol, request.from.value_or(k_earliest),
                                   request.to.value_or(k_latest), domain::SortOrder::asc,
                                   std::numeric_limits<std::int64_t>::max());
}

// Return the plan of `symbol` and mark its dates on `calendar`; nullopt when it has no bar in
// the window. `previous` is its entry in the earlier export's state, if any.
std::optional<SymbolPlan> plan_symbol(store::BarStore& store,
                                      const query::Aliases& aliases,
                                      const domain::Symbol& symbol,
                                      const ExportRequest& request,
                                      const ExportedSymbol* previous,
                                      Calendar& calendar) {
  const auto bars = window_bars(store, aliases, symbol.str(), request);
  if (bars.empty()) {
    return std::nullopt;
  }
  const auto first_bar =
    query::load_series_window(store, aliases, symbol.str(), k_earliest, k_latest, domain::SortOrder::asc, 1);
  SymbolPlan plan{symbol, bars.front().trade_date, bars.back().trade_date,
                  static_cast<std::int64_t>(bars.size()), first_bar.front().factor};
  Fingerprint fingerprint(plan.first_factor);
  bool previous_done = previous == nullptr;
  for (const auto& bar : bars) {
    if (!previous_done && bar.trade_date > previous->last) {
      plan.fingerprint_to_previous = fingerprint.value();
      previous_done = true;
    }
    fingerprint.add(bar);
    calendar.mark(bar.trade_date);
  }
  plan.fingerprint = fingerprint.value();
  if (!previous_done) {
    plan.fingerprint_to_previous = plan.fingerprint;
  }
  return plan;
}

// Return each field's bytes for the bars of `bars` after `after` (all when nullopt) up to the
// plan's last date: one value per calendar day, NaN where the symbol has no bar; with the start
// index first when `after` is nullopt (a whole file).
std::vector<std::string> field_bytes(const SymbolPlan& plan,
                                     const std::vector<domain::Bar>& bars,
                                     const Calendar& calendar,
                                     std::optional<Date> after) {
  std::vector<std::string> out(k_fields.size());
  const auto first_index =
    after ? calendar.index_to(*after) + 1 : calendar.index_from(plan.first);
  const auto last_index = calendar.index_to(plan.last);
  for (auto& bytes : out) {
    bytes.reserve(4 * static_cast<std::size_t>(last_index - first_index + 2));
    if (!after) {
      append_float(bytes, static_cast<float>(first_index)); // dump_bin: the start index, a float
    }
  }
  const float nan = std::numeric_limits<float>::quiet_NaN();
  auto bar = bars.begin();
  for (auto index = first_index; index <= last_index; ++index) {
    const Date day = calendar.days()[static_cast<std::size_t>(index)];
    // D19: a bar on a day the calendar says is closed is skipped here: qlib's bins index by
    // calendar position, and the day is not in day.txt.
    while (bar != bars.end() && bar->trade_date < day) {
      ++bar;
    }
    if (bar != bars.end() && bar->trade_date == day) {
      const auto values = field_values(*bar, plan.first_factor);
      for (std::size_t f = 0; f < k_fields.size(); ++f) {
        append_float(out[f], values[f]);
      }
    } else {
      for (auto& bytes : out) {
        append_float(bytes, nan);
      }
    }
  }
  return out;
}

void write_file(const fs::path& path, const std::string& bytes, std::ios::openmode mode) {
  std::ofstream out(path, std::ios::binary | mode);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out.flush()) {
    throw std::runtime_error("cannot write " + path.string());
  }
}

// Write the whole files of `plan`.
void write_symbol(const fs::path& root,
                  const SymbolPlan& plan,
                  const std::vector<domain::Bar>& bars,
                  const Calendar& calendar) {
  const auto dir = features_dir(root, plan.symbol);
  fs::remove_all(dir);
  fs::create_directories(dir);
  const auto bytes = field_bytes(plan, bars, calendar, std::nullopt);
  for (std::size_t f = 0; f < k_fields.size(); ++f) {
    write_file(field_file(dir, k_fields[f]), bytes[f], std::ios::trunc);
  }
}

// Return whether the files of `plan`'s symbol hold exactly its previous export up to `last`.
bool files_end_at(const fs::path& root, const SymbolPlan& plan, Date last, const Calendar& calendar) {
  const auto dir = features_dir(root, plan.symbol);
  const auto expected = 4 * static_cast<std::uintmax_t>(calendar.index_to(last)
                                                        - calendar.index_from(plan.first) + 2);
  for (const auto field : k_fields) {
    std::error_code error;
    if (fs::file_size(field_file(dir, field), error) != expected || error) {
      return false;
    }
  }
  return true;
}

// Return the earlier export's calendar in `root` (empty when none).
std::vector<std::string> read_calendar(const fs::path& root) {
  std::ifstream in(root / "calendars" / "day.txt");
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) {
    lines.push_back(line);
  }
  return lines;
}

// Return why everything must be written again (nullopt: the earlier export can be brought up to
// date), given its `state` and this export's `request` and `calendar`.
std::optional<std::string> fresh_reason(const fs::path& root,
                                        const std::optional<ExportState>& state,
                                        const ExportRequest& request,
                                        const Calendar& calendar) {
  if (!state) {
    return std::nullopt; // nothing to bring up to date: every symbol is new
  }
  if (!state->complete) {
    return "the earlier export did not finish";
  }
  if (state->from != request.from) {
    return "--from differs from the earlier export's";
  }
  const auto previous = read_calendar(root);
  if (previous.size() > calendar.days().size()) {
    return "the calendar is shorter than the earlier export's";
  }
  for (std::size_t i = 0; i < previous.size(); ++i) {
    if (previous[i] != calendar.days()[i].iso()) {
      return "the calendar changed before " + (previous.empty() ? "" : previous.back())
             + " (a trade date was added or removed)";
    }
  }
  return std::nullopt;
}

// Return whether `dir` may be written: missing, empty, or holding an earlier export.
Status check_directory(const fs::path& dir) {
  if (!fs::exists(dir)) {
    return Ok{};
  }
  if (!fs::is_directory(dir)) {
    return make_error(ErrorCode::invalid_input, dir.string() + " is not a directory");
  }
  if (fs::is_empty(dir) || fs::exists(dir / k_state_file)) {
    return Ok{};
  }
  return make_error(ErrorCode::invalid_input,
                    dir.string() + " holds files that ashare export did not write; export into "
                                   "a new or empty directory, or an earlier export's");
}

void write_text(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  const auto temporary = path.string() + ".tmp";
  write_file(temporary, text, std::ios::trunc);
  fs::rename(temporary, path);
}

// Return those of `plans` that are stocks: D20's instruments/all.txt lists no index and no fund
// (their series are under features/ all the same, for a workflow's benchmark).
std::vector<const SymbolPlan*> stock_plans(store::BarStore& store,
                                           const std::vector<const SymbolPlan*>& plans) {
  std::map<std::string, std::optional<domain::Kind>> kinds;
  for (const auto& info : store.load_symbols()) {
    kinds.emplace(info.symbol, info.kind);
  }
  std::vector<const SymbolPlan*> out;
  for (const auto* plan : plans) {
    const auto found = kinds.find(plan->symbol.str());
    // D19: a new code whose bars are all under the old one has no summary of its own.
    const auto kind =
      found != kinds.end() ? found->second : store.market().load_kind(plan->symbol.str());
    if (kind == domain::Kind::stock) {
      out.push_back(plan);
    }
  }
  return out;
}

// Write calendars/day.txt and instruments/all.txt as dump_bin does, all.txt listing `plans`.
void write_calendar_and_instruments(const fs::path& root,
                                    const Calendar& calendar,
                                    std::vector<const SymbolPlan*> plans) {
  std::string days;
  for (const auto& day : calendar.days()) {
    days += day.iso() + "\n";
  }
  write_text(root / "calendars" / "day.txt", days);
  std::sort(plans.begin(), plans.end(), [](const SymbolPlan* a, const SymbolPlan* b) {
    return instrument_code(a->symbol) < instrument_code(b->symbol);
  });
  std::string instruments;
  for (const auto* plan : plans) {
    instruments += instrument_code(plan->symbol) + "\t" + plan->first.iso() + "\t"
                   + plan->last.iso() + "\n";
  }
  write_text(root / "instruments" / "all.txt", instruments);
}

// Return the symbols to export: those asked (each known), else every stored one. D19: the series
// of a code that changed is written once, under the new code, whichever code holds its bars.
Result<std::vector<domain::Symbol>> resolve_symbols(store::BarStore& store,
                                                    const query::Aliases& aliases,
                                                    const std::vector<domain::Symbol>& asked) {
  std::vector<std::string> names;
  for (const auto& symbol : asked) {
    const auto partner = aliases.partner(symbol.str());
    if (!store.find_symbol(symbol.str()) && !(partner && store.find_symbol(*partner))) {
      return make_error(ErrorCode::invalid_symbol, "unknown symbol \"" + symbol.str() + "\"");
    }
    names.push_back(symbol.str());
  }
  if (asked.empty()) {
    for (const auto& info : store.load_symbols()) {
      names.push_back(info.symbol);
    }
  }
  std::vector<domain::Symbol> out;
  std::set<std::string> seen;
  for (auto& name : names) {
    if (const auto* pair = aliases.find(name)) {
      name = pair->new_symbol;
    }
    auto symbol = domain::parse_symbol(name);
    if (symbol && seen.insert(name).second) {
      out.push_back(std::move(*symbol));
    }
  }
  return out;
}

// Return the entry of `name` in the earlier export's `state`, or nullptr.
const ExportedSymbol* find_previous(const std::optional<ExportState>& state,
                                    const std::string& name) {
  if (!state) {
    return nullptr;
  }
  const auto found = state->symbols.find(name);
  return found != state->symbols.end() ? &found->second : nullptr;
}

// Reports the export's steps to `progress`: each symbol once planned, once written.
class StepCounter {
public:
  StepCounter(const ExportProgress& progress, std::size_t symbols)
      : m_progress(progress), m_total(static_cast<std::int64_t>(symbols) * 2) {}
  void step() {
    if (m_progress) {
      m_progress(++m_done, m_total);
    }
  }
  void finish() {
    if (m_progress) {
      m_progress(m_total, m_total);
    }
  }

private:
  const ExportProgress& m_progress;
  std::int64_t m_total;
  std::int64_t m_done = 0;
};

// Return the failure of a `request` that cannot run: a window that ends before it starts, or a
// directory that is not an export's.
Status check_request(const ExportRequest& request) {
  if (request.from && request.to && *request.from > *request.to) {
    return make_error(ErrorCode::invalid_parameter, "--from " + request.from->iso()
                                                      + " is later than --to " + request.to->iso());
  }
  return check_directory(request.dir);
}

// First pass: return the plans of those of `symbols` with bars in the window, their dates marked
// on `calendar`, which is closed once all are.
std::vector<SymbolPlan> plan_symbols(store::BarStore& store,
                                     const query::Aliases& aliases,
                                     const std::vector<domain::Symbol>& symbols,
                                     const ExportRequest& request,
                                     const std::optional<ExportState>& state,
                                     Calendar& calendar,
                                     StepCounter& steps) {
  std::vector<SymbolPlan> plans;
  for (const auto& symbol : symbols) {
    const auto* previous = find_previous(state, symbol.str());
    if (auto plan = plan_symbol(store, aliases, symbol, request, previous, calendar)) {
      plans.push_back(std::move(*plan));
    }
    steps.step();
  }
  calendar.close(store);
  return plans;
}

// Make request.dir ready for the second pass: created, its earlier export's `state` marked
// unfinished, and the files it owns removed when the export is `fresh`.
void prepare_directory(const ExportRequest& request,
                       const std::optional<ExportState>& state,
                       bool fresh) {
  fs::create_directories(request.dir);
  // Marked unfinished first: a run cut short is never taken for a complete export.
  if (state) {
    auto unfinished = *state;
    unfinished.complete = false;
    save_export_state(request.dir / k_state_file, unfinished);
  }
  if (fresh) {
    for (const char* owned : {"features", "calendars", "instruments"}) {
      fs::remove_all(request.dir / owned);
    }
  }
}

// Append to the files of `plan`'s symbol its days after `previous_last`.
void append_symbol(store::BarStore& store,
                   const query::Aliases& aliases,
                   const ExportRequest& request,
                   const SymbolPlan& plan,
                   Date previous_last,
                   const Calendar& calendar) {
  const auto bars = window_bars(store, aliases, plan.symbol.str(), request);
  const auto bytes = field_bytes(plan, bars, calendar, previous_last);
  const auto dir = features_dir(request.dir, plan.symbol);
  for (std::size_t f = 0; f < k_fields.size(); ++f) {
    write_file(field_file(dir, k_fields[f]), bytes[f], std::ios::app);
  }
}

// Second pass, one symbol: bring the files of `plan` up to date from its `previous` export (when
// its history up to then is unchanged), else write them whole; note which on `report`.
void export_symbol(store::BarStore& store,
                   const query::Aliases& aliases,
                   const ExportRequest& request,
                   const SymbolPlan& plan,
                   const ExportedSymbol* previous,
                   const Calendar& calendar,
                   ExportReport& report) {
  const auto& name = plan.symbol.str();
  const bool unchanged_before = previous != nullptr && previous->first == plan.first
                                && previous->fingerprint == plan.fingerprint_to_previous
                                && previous->last <= plan.last
                                && files_end_at(request.dir, plan, previous->last, calendar);
  if (!unchanged_before) {
    write_symbol(request.dir, plan, window_bars(store, aliases, name, request), calendar);
    (previous != nullptr ? report.rewritten : report.written).push_back(name);
  } else if (plan.last > previous->last) {
    append_symbol(store, aliases, request, plan, previous->last, calendar);
    report.appended.push_back(name);
  }
}

// Remove the files of the symbols of the earlier export's `state` that `next` no longer holds.
void remove_dropped(const fs::path& root,
                    const ExportState& state,
                    const ExportState& next,
                    ExportReport& report) {
  for (const auto& [name, previous] : state.symbols) {
    if (!next.symbols.contains(name)) {
      if (auto symbol = domain::parse_symbol(name)) {
        fs::remove_all(features_dir(root, *symbol));
      }
      report.removed.push_back(name);
    }
  }
}

} // namespace

Result<ExportReport> export_qlib(store::BarStore& store,
                                 const ExportRequest& request,
                                 const ExportProgress& progress) {
  if (auto status = check_request(request); !status) {
    return status.error();
  }
  store::ReadTransaction snapshot(store);
  const auto aliases = query::load_aliases(store);
  auto symbols = resolve_symbols(store, aliases, request.symbols);
  if (!symbols) {
    return symbols.error();
  }
  const fs::path state_path = request.dir / k_state_file;
  const auto state = load_export_state(state_path);
  StepCounter steps(progress, symbols->size());
  Calendar calendar;
  const auto plans = plan_symbols(store, aliases, *symbols, request, state, calendar, steps);

  ExportReport report;
  report.fresh_reason = fresh_reason(request.dir, state, request, calendar);
  const bool fresh = !state || report.fresh_reason.has_value();
  prepare_directory(request, state, fresh);
  ExportState next{false, request.from, {}};
  std::vector<const SymbolPlan*> exported;
  for (const auto& plan : plans) {
    const auto* previous = fresh ? nullptr : find_previous(state, plan.symbol.str());
    export_symbol(store, aliases, request, plan, previous, calendar, report);
    next.symbols[plan.symbol.str()] = ExportedSymbol{plan.first, plan.last, plan.fingerprint};
    exported.push_back(&plan);
    report.bars += plan.bars;
    steps.step();
  }
  if (!fresh) {
    remove_dropped(request.dir, *state, next, report);
  }
  write_calendar_and_instruments(request.dir, calendar, stock_plans(store, exported));
  if (!calendar.days().empty()) {
    report.index_files =
      write_index_instruments(store.market(), request.dir, calendar.days().back());
  }
  next.complete = true;
  save_export_state(state_path, next);
  steps.finish();
  report.symbols = static_cast<std::int64_t>(plans.size());
  report.calendar_days = static_cast<std::int64_t>(calendar.days().size());
  return report;
}

} // namespace ashare::qlib
