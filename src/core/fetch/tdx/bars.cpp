#include "core/fetch/tdx/bars.hpp"

#include "core/fetch/tdx/ex_rights.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

namespace ashare::fetch::tdx {
namespace {

double from_mils(std::int64_t mils) { return static_cast<double>(mils) / 1000.0; }

// The category-1 events dated after `after` (none: from the start) up to `until`.
std::vector<XdxrEvent> events_between(std::span<const XdxrEvent> events,
                                      std::optional<domain::Date> after,
                                      domain::Date until) {
  std::vector<XdxrEvent> out;
  for (const auto& event : events) {
    if (event.category == 1 && (!after || *after < event.day) && !(until < event.day)) {
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

// The problem of TDX's own numbers, before D16's: a volume that is no whole number of shares, or
// a volume or amount that is not a finite number from 0.
std::optional<import::RowProblem> number_problem(const RawBar& bar, std::int64_t line) {
  const auto volume = static_cast<double>(bar.volume);
  if (!std::isfinite(volume) || volume < 0 || volume != std::floor(volume)) {
    return import::RowProblem{line, "volume", "volume " + shown(volume)
                                                  + " is not a whole number of shares"};
  }
  const auto amount = static_cast<double>(bar.amount);
  if (!std::isfinite(amount) || amount < 0) {
    return import::RowProblem{line, "turnover", "amount " + shown(amount)
                                                    + " is not a number from 0"};
  }
  return std::nullopt;
}

} // namespace

import::ParsedFile rows_of_bars(const std::string& symbol,
                               std::span<const RawBar> bars,
                               std::span<const XdxrEvent> events,
                               const std::optional<RawBar>& previous,
                               domain::Date latest) {
  import::ParsedFile file;
  file.has_factor = false;
  file.has_change_pct = false;
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
    if (auto problem = number_problem(raw, line)) {
      problem->message = raw.day.iso() + ": " + problem->message;
      file.problems.push_back(std::move(*problem));
      continue; // a garbage bar is no base for the next one's pre_close either
    }
    row.bar.volume = std::llround(static_cast<double>(raw.volume));
    row.bar.turnover = static_cast<double>(std::llround(static_cast<double>(raw.amount) * 100)) / 100;
    if (auto problem = import::check_bar(row.bar, line, latest); !problem.column.empty()) {
      problem.message = raw.day.iso() + ": " + problem.message;
      file.problems.push_back(std::move(problem));
      continue;
    }
    if (before != nullptr) {
      const auto between = events_between(events, before->day, raw.day);
      auto cents = ex_rights_pre_close_cents(before->close_mils, between);
      if (!cents) {
        file.problems.push_back({line, "pre_close", raw.day.iso() + ": " + cents.error().message});
        continue;
      }
      row.pre_close = cents->has_value() ? static_cast<double>(**cents) / 100 : from_mils(before->close_mils);
    }
    before = &raw;
    file.rows.push_back(std::move(row));
  }
  return file;
}

} // namespace ashare::fetch::tdx
