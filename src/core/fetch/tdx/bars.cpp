#include "core/fetch/tdx/bars.hpp"

#include "core/fetch/tdx/ex_rights.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

namespace ashare::fetch::tdx {
namespace {

using domain::Kind;

double from_mils(std::int64_t mils) { return static_cast<double>(mils) / 1000.0; }

// Whether an event of `category` moves the price of a `kind` (D18, D20): a stock's dividends and
// rights, a fund's dividends and splits; an index has none.
bool applies(Kind kind, std::uint8_t category) {
  switch (kind) {
  case Kind::stock: return category == k_dividends_and_rights;
  case Kind::fund: return category == k_dividends_and_rights || category == k_unit_split;
  case Kind::index: return false;
  }
  return false;
}

// The events of `kind` dated after `after` (none: from the start) up to `until`, in date order.
std::vector<XdxrEvent> events_between(std::span<const XdxrEvent> events,
                                      Kind kind,
                                      std::optional<domain::Date> after,
                                      domain::Date until) {
  std::vector<XdxrEvent> out;
  for (const auto& event : events) {
    if (applies(kind, event.category) && (!after || *after < event.day) && !(until < event.day)) {
      out.push_back(event);
    }
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const XdxrEvent& a, const XdxrEvent& b) { return a.day < b.day; });
  return out;
}

// Return `value` as printf's %g writes it: a garbage float32 such as 5.9e-39 stays legible.
std::string shown(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", value);
  return text;
}

// The problem of TDX's own numbers, before D16's: a volume that is not a finite number from 0 or,
// in shares, not a whole number; an amount that is not a finite number from 0.
std::optional<import::RowProblem> number_problem(const RawBar& bar, Kind kind, std::int64_t line) {
  const auto volume = static_cast<double>(bar.volume);
  const bool in_lots = kind == Kind::index;
  // Lots are bounded so that x 100 stays within 64 bits (10^15 lots is no day's volume).
  if (!std::isfinite(volume) || volume < 0 || (!in_lots && volume != std::floor(volume))
      || (in_lots && volume > 1e15)) {
    return import::RowProblem{line, "volume", "volume " + shown(volume)
                                                  + (in_lots ? " is not a number of lots from 0 to 10^15"
                                                             : " is not a whole number of shares")};
  }
  const auto amount = static_cast<double>(bar.amount);
  if (!std::isfinite(amount) || amount < 0) {
    return import::RowProblem{line, "turnover", "amount " + shown(amount)
                                                    + " is not a number from 0"};
  }
  return std::nullopt;
}

// Return the volume in shares of `bar` (D20: an index's lots x 100, rounded to whole lots first).
std::int64_t shares_of(const RawBar& bar, Kind kind) {
  const auto whole = std::llround(static_cast<double>(bar.volume));
  return kind == Kind::index ? whole * 100 : whole;
}

} // namespace

import::ParsedFile rows_of_bars(const std::string& symbol,
                               Kind kind,
                               std::span<const RawBar> bars,
                               std::span<const XdxrEvent> events,
                               const std::optional<RawBar>& previous,
                               domain::Date latest) {
  import::ParsedFile file;
  file.has_factor = false;
  file.has_change_pct = false;
  const auto tick = kind == Kind::fund ? Tick::mil : Tick::cent;
  const RawBar* before = previous ? &*previous : nullptr;
  for (std::size_t i = 0; i < bars.size(); ++i) {
    const auto& raw = bars[i];
    const auto line = static_cast<std::int64_t>(i) + 1;
    import::ParsedRow row;
    row.line = line;
    row.symbol = symbol;
    row.has_change_pct = false;
    row.bar.trade_date = raw.day;
    row.bar.open = from_mils(raw.open_mils);
    row.bar.high = from_mils(raw.high_mils);
    row.bar.low = from_mils(raw.low_mils);
    row.bar.close = from_mils(raw.close_mils);
    if (auto problem = number_problem(raw, kind, line)) {
      problem->message = raw.day.iso() + ": " + problem->message;
      file.problems.push_back(std::move(*problem));
      continue; // a garbage bar is no base for the next one's pre_close either
    }
    row.bar.volume = shares_of(raw, kind);
    row.bar.turnover = static_cast<double>(std::llround(static_cast<double>(raw.amount) * 100)) / 100;
    if (auto problem = import::check_bar(row.bar, line, latest); !problem.column.empty()) {
      problem.message = raw.day.iso() + ": " + problem.message;
      file.problems.push_back(std::move(problem));
      continue;
    }
    if (before != nullptr) {
      const auto between = events_between(events, kind, before->day, raw.day);
      auto mils = ex_rights_pre_close(before->close_mils, between, tick);
      if (!mils) {
        file.problems.push_back({line, "pre_close", raw.day.iso() + ": " + mils.error().message});
        continue;
      }
      row.pre_close = from_mils(mils->value_or(before->close_mils));
    }
    before = &raw;
    file.rows.push_back(std::move(row));
  }
  return file;
}

} // namespace ashare::fetch::tdx
