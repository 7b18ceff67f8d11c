#include "core/fetch/plan.hpp"

#include "core/domain/kind.hpp"

#include <algorithm>
#include <set>

namespace ashare::fetch {
namespace {

using namespace std::chrono;

Error past_calendar(domain::Date day, domain::Date calendar_end) {
  return make_error(ErrorCode::invalid_input,
                    day.iso() + " is past the end of the stored calendar (" + calendar_end.iso()
                        + "): whether it is a trading day is unknown; refresh the calendar "
                          "(`ashare fetch tushare` does, or `ashare import` a trade_cal file)");
}

} // namespace

domain::Date default_start(store::BarStore& store,
                           const std::vector<store::LedgerDay>& ledger,
                           domain::Date end) {
  if (!ledger.empty()) {
    return ledger.front().trade_date;
  }
  // D18: the last 250 trading days; look back far enough to find them (about a year and a half).
  const auto open = store.market().load_open_days(end.plus_days(-k_first_fetch_days * 2 - 30), end);
  if (open.size() <= static_cast<std::size_t>(k_first_fetch_days)) {
    return open.empty() ? end : open.front();
  }
  return open[open.size() - k_first_fetch_days];
}

namespace {

// Return whether `day` is planned for a kind whose symbols `own_rows` are planned from their own
// (day, symbol) rows in `ledger`: when one of them lacks its row.
bool lacks_own_row(const std::vector<store::LedgerDay>& ledger,
                   domain::Date day,
                   const std::vector<std::string>& own_rows) {
  std::set<std::string> held;
  for (const auto& row : ledger) {
    if (row.trade_date == day && !row.symbol.empty()) {
      held.insert(row.symbol);
    }
  }
  return std::any_of(own_rows.begin(), own_rows.end(),
                     [&held](const std::string& symbol) { return held.count(symbol) == 0; });
}

} // namespace

Utc8Day utc8_day(system_clock::time_point instant) {
  const auto local = floor<minutes>(instant) + hours{8};
  const auto day = floor<days>(local);
  const auto minute_of_day = duration_cast<minutes>(local - day).count();
  return {domain::Date{day}, minute_of_day >= 15 * 60 + 30};
}

Result<domain::Date> last_completed_day(store::BarStore& store, system_clock::time_point instant) {
  const auto now = utc8_day(instant);
  const auto span = store.market().load_calendar_span();
  if (!span || span->second < now.date) {
    return past_calendar(now.date, span ? span->second : domain::k_first_session);
  }
  const auto open = store.market().load_open_days(now.date.plus_days(-60), now.date);
  for (auto it = open.rbegin(); it != open.rend(); ++it) {
    if (*it < now.date || now.after_close) {
      return *it;
    }
  }
  return make_error(ErrorCode::invalid_input,
                    "the stored calendar has no open day in the 60 days before " + now.date.iso());
}

std::optional<domain::Date> find_open_day_before(store::BarStore& store, domain::Date day) {
  const auto before = store.market().load_open_days(day.plus_days(-30), day.plus_days(-1));
  return before.empty() ? std::nullopt : std::optional(before.back());
}

bool ledger_holds(const std::vector<store::LedgerDay>& ledger,
                  domain::Date day,
                  const std::vector<std::string>& symbols) {
  std::set<std::string> held;
  std::set<domain::Kind> whole; // the kinds whose whole market holds the day
  for (const auto& row : ledger) {
    if (row.trade_date != day) {
      continue;
    }
    if (row.symbol.empty()) {
      if (symbols.empty()) {
        return true;
      }
      whole.insert(row.kind);
    } else {
      held.insert(row.symbol);
    }
  }
  // D20: a named symbol is held by its own row, or by the whole market of its code's kind.
  return !symbols.empty() && std::all_of(symbols.begin(), symbols.end(), [&](const std::string& symbol) {
    return held.count(symbol) != 0 || whole.count(domain::classify_code(symbol).kind.value_or(domain::Kind::stock)) != 0;
  });
}

Result<Plan> plan_fetch(store::BarStore& store,
                        const PlanRequest& request,
                        domain::Date last_completed,
                        const KindPlan& of) {
  if (request.from && request.to && *request.from > *request.to) {
    return make_error(ErrorCode::invalid_parameter,
                      "--from " + request.from->iso() + " is after --to " + request.to->iso());
  }
  const auto span = store.market().load_calendar_span();
  for (const auto& day : {request.from, request.to}) {
    if (day && (!span || span->second < *day)) {
      return past_calendar(*day, span ? span->second : domain::k_first_session);
    }
  }
  // D20: each kind plans from its own ledger rows (a whole day of funds holds no stock); a run
  // naming symbols reads every kind's, each symbol held by its own kind's (ledger_holds).
  auto ledger = store.market().load_ledger(request.provider);
  if (request.symbols.empty()) {
    std::erase_if(ledger, [&of](const store::LedgerDay& row) { return row.kind != of.kind; });
  }
  Plan plan;
  plan.last_completed = last_completed;
  plan.end = request.to ? std::min(*request.to, last_completed) : last_completed;
  plan.start = request.from ? *request.from : default_start(store, ledger, plan.end);
  if (!request.from && ledger.empty() && of.kind == domain::Kind::stock) {
    const auto as_of = store.load_dataset_info().as_of;
    if (as_of && *as_of < plan.start) {
      const auto after = store.market().load_open_days(as_of->plus_days(1), plan.start);
      plan.gap_from = after.empty() ? plan.start : after.front();
    }
  }
  for (const auto day : store.market().load_open_days(plan.start, plan.end)) {
    const bool lacking = of.own_rows.empty() ? !ledger_holds(ledger, day, request.symbols)
                                             : lacks_own_row(ledger, day, of.own_rows);
    if (request.refetch || lacking) {
      plan.days.push_back(day);
    }
  }
  return plan;
}

} // namespace ashare::fetch
