#include "core/fetch/gaps.hpp"

#include "core/domain/kind.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace ashare::fetch {
namespace {

struct Window {
  domain::Date from;
  domain::Date to;
};

// The window every symbol is judged within, and (D20) where each kind's default one starts.
struct Windows {
  Window all;
  // The first ledger day of each kind that has one; none when one window is every kind's (--from,
  // or a store without a ledger).
  std::optional<std::map<domain::Kind, domain::Date>> kind_starts;
};

// Return the default windows: from the first ledger day (else the first stored bar) to as_of, each
// kind's from its own first ledger day.
std::optional<Windows> default_windows(store::BarStore& store,
                                       const std::vector<store::SymbolInfo>& symbols,
                                       const GapRequest& request) {
  std::optional<domain::Date> from = request.from;
  std::optional<std::map<domain::Kind, domain::Date>> kind_starts;
  if (!from) {
    const auto ledger = store.market().load_ledger("");
    if (!ledger.empty()) {
      from = ledger.front().trade_date;
      kind_starts.emplace();
      for (const auto& row : ledger) {
        kind_starts->emplace(row.kind, row.trade_date); // ascending: each kind's first stays
      }
    }
    for (const auto& symbol : symbols) {
      if (!from || (ledger.empty() && symbol.first_date < *from)) {
        from = symbol.first_date;
      }
    }
  }
  auto to = request.to ? request.to : store.load_dataset_info().as_of;
  if (!from || !to) {
    return std::nullopt;
  }
  return Windows{{*from, *to}, std::move(kind_starts)};
}

// Return the kind `listing` or `stored` gives a symbol; a code D20 keeps out, stored before D20,
// is judged with the stocks (whose ledger rows fetched it).
domain::Kind judged_kind(const std::optional<store::Listing>& listing,
                         const std::optional<store::SymbolInfo>& stored) {
  if (listing) {
    return listing->kind;
  }
  return stored && stored->kind ? *stored->kind : domain::Kind::stock;
}

// The days a symbol of `kind` is judged on: its kind's window (D20: from the kind's first ledger
// day), all of it with a listing (days outside the listing are not_listed gaps), else its stored
// bars' span within it. A kind no run took (the listed funds of a store whose token may not call
// `fund_daily`) is judged as a symbol without a listing is, within the whole window: a fund never
// fetched, not at all.
std::optional<Window> judged_span(const std::optional<store::Listing>& listing,
                                  const std::optional<store::SymbolInfo>& stored,
                                  domain::Kind kind,
                                  const Windows& windows) {
  auto window = windows.all;
  bool listed = listing.has_value();
  if (windows.kind_starts) {
    const auto start = windows.kind_starts->find(kind);
    if (start == windows.kind_starts->end()) {
      listed = false;
    } else {
      window.from = start->second;
    }
  }
  if (listed) {
    return window;
  }
  if (!stored) {
    return std::nullopt;
  }
  const Window span{std::max(window.from, stored->first_date), std::min(window.to, stored->last_date)};
  return span.to < span.from ? std::nullopt : std::optional(span);
}

GapReason reason_of(domain::Date day,
                    const std::optional<store::Listing>& listing,
                    const std::set<domain::Date>& suspended,
                    const std::set<domain::Date>& absent) {
  if (listing && ((listing->list_date && day < *listing->list_date)
                  || (listing->delist_date && *listing->delist_date < day))) {
    return GapReason::not_listed;
  }
  if (suspended.count(day) != 0) {
    return GapReason::suspended;
  }
  if (absent.count(day) != 0) {
    return GapReason::absent_at_source;
  }
  return GapReason::missing;
}

void judge_symbol(store::BarStore& store,
                  const std::string& symbol,
                  const std::optional<store::Listing>& listing,
                  const std::vector<domain::Date>& open_days,
                  const Window& span,
                  GapReport& report) {
  std::set<domain::Date> have;
  for (const auto& bar : store.load_bars(symbol, span.from, span.to, domain::SortOrder::asc,
                                         static_cast<std::int64_t>(open_days.size()) + 1)) {
    have.insert(bar.trade_date);
  }
  const auto suspensions = store.market().load_suspensions(symbol);
  const std::set<domain::Date> suspended(suspensions.begin(), suspensions.end());
  std::set<domain::Date> absent;
  for (const auto& absence : store.market().load_absences(symbol)) {
    absent.insert(absence.trade_date);
  }
  ++report.symbols;
  for (const auto day : open_days) {
    if (day < span.from || span.to < day || have.count(day) != 0) {
      continue;
    }
    const auto reason = reason_of(day, listing, suspended, absent);
    report.gaps.push_back({symbol, day, reason});
    ++report.counts[static_cast<std::size_t>(reason)];
  }
}

} // namespace

std::string_view gap_reason_name(GapReason reason) {
  switch (reason) {
  case GapReason::not_listed:
    return "not_listed";
  case GapReason::suspended:
    return "suspended";
  case GapReason::absent_at_source:
    return "absent_at_source";
  case GapReason::missing:
    return "missing";
  }
  return "";
}

Result<GapReport> find_gaps(store::BarStore& store, const GapRequest& request) {
  if (request.from && request.to && *request.to < *request.from) {
    return make_error(ErrorCode::invalid_parameter,
                      "--from " + request.from->iso() + " is after --to " + request.to->iso());
  }
  store::ReadTransaction snapshot(store);
  const auto stored = store.load_symbols();
  std::map<std::string, store::Listing> listings;
  for (auto& listing : store.market().load_listings()) {
    listings.emplace(listing.symbol, std::move(listing));
  }
  std::map<std::string, store::SymbolInfo> by_symbol;
  for (const auto& info : stored) {
    by_symbol.emplace(info.symbol, info);
  }
  std::set<std::string> names(request.symbols.begin(), request.symbols.end());
  for (const auto& name : names) {
    if (by_symbol.count(name) == 0 && listings.count(name) == 0) {
      return make_error(ErrorCode::invalid_symbol, "unknown symbol \"" + name + "\": the store neither holds nor lists it");
    }
  }
  if (names.empty()) {
    for (const auto& [name, info] : by_symbol) {
      names.insert(name);
    }
    for (const auto& [name, listing] : listings) {
      names.insert(name);
    }
  }
  GapReport report;
  const auto windows = default_windows(store, stored, request);
  if (!windows) {
    return report; // an empty store: nothing is missing
  }
  report.from = windows->all.from;
  report.to = windows->all.to;
  const auto open_days = store.market().load_open_days(windows->all.from, windows->all.to);
  for (const auto& name : names) {
    const auto listing = listings.count(name) != 0 ? std::optional(listings.at(name)) : std::nullopt;
    const auto info = by_symbol.count(name) != 0 ? std::optional(by_symbol.at(name)) : std::nullopt;
    if (const auto span = judged_span(listing, info, judged_kind(listing, info), *windows)) {
      judge_symbol(store, name, listing, open_days, *span, report);
    }
  }
  return report;
}

} // namespace ashare::fetch
