// A provider for the run's tests (fetch/run_fetch.hpp): a market of closes by symbol and day,
// answered in either shape (a market's day, a symbol's span), with failures, bad bars, warnings and
// waits on demand, a record of every unit asked, and index membership snapshots when a case
// sets `membership` (D20). Its bars are plain (open = high = low =
// close, pre_close the close before unless a case sets one), so a case reads its factors at sight.
#pragma once

#include "core/fetch/provider.hpp"

#include <atomic>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

namespace ashare::test {

class FakeProvider final : public fetch::Provider {
public:
  using SymbolDay = std::pair<std::string, domain::Date>;

  explicit FakeProvider(fetch::UnitShape shape) : m_shape(shape) {}

  std::map<std::string, std::map<domain::Date, double>> closes; // the market: symbol -> day -> close
  std::map<SymbolDay, double> pre_closes;                       // where not the close before
  std::set<SymbolDay> bad_bars;        // sent with a high below its low: a problem, no row
  std::optional<SymbolDay> fails_at;   // the unit asking for this (symbol or day) stops the run
  fetch::FetchEnd fails_with = fetch::FetchEnd::source_failing;
  std::vector<std::string> unit_warnings;    // every unit's answer says these
  std::vector<std::string> calendar_warnings; // the calendar's refresh says these
  std::chrono::milliseconds waits{0};         // each unit waits this long for the window (told)
  std::vector<fetch::Unit> asked;             // every unit asked, in order
  std::vector<std::thread::id> asked_on;      // the thread each was asked on
  int calendars_asked = 0;
  int references_asked = 0;
  std::vector<domain::Kind> taken_kinds{domain::Kind::stock}; // what kinds() says
  // D20: whether it answers membership, its snapshots (index -> day -> members), and each
  // membership asked (index, first day, last day), in order.
  bool membership = false;
  std::map<std::string, std::map<domain::Date, std::vector<store::MemberWeight>>> snapshots;
  std::vector<std::tuple<std::string, domain::Date, domain::Date>> members_asked;

  std::string name() const override { return "fake"; }
  std::string display_name() const override { return "Fake"; }
  fetch::UnitShape market_shape() const override { return m_shape; }
  std::vector<domain::Kind> kinds() const override { return taken_kinds; }

  fetch::References calendar(domain::Date, std::optional<domain::Date>, const fetch::Waiting&) override {
    ++calendars_asked;
    ++m_requests;
    fetch::References out;
    out.warnings = calendar_warnings;
    return out;
  }
  fetch::References references(const fetch::UniverseAsk&, const fetch::Waiting&) override {
    ++references_asked;
    return {};
  }
  std::int64_t estimate(const fetch::PlanSize& size) const override {
    const auto symbols = size.stocks + size.funds + size.indices;
    return static_cast<std::int64_t>(size.members * 1000 + size.stock_days * 100 + symbols) * (size.named ? -1 : 1);
  }
  bool answers_members() const override { return membership; }
  std::variant<fetch::Snapshots, fetch::Stop> members(const std::string& index, domain::Date first, domain::Date last,
                                                      const fetch::Waiting&) override {
    members_asked.emplace_back(index, first, last);
    ++m_requests;
    fetch::Snapshots out;
    for (const auto& [day, members] : snapshots[index]) {
      if (first <= day && day <= last) {
        out.by_day[day] = members;
      }
    }
    return out;
  }
  std::variant<std::vector<std::string>, fetch::Stop> universe(const fetch::UniverseAsk& ask) override {
    if (!ask.named.empty()) {
      return ask.named;
    }
    std::vector<std::string> all;
    for (const auto& [symbol, days] : closes) {
      all.push_back(symbol);
    }
    return all;
  }

  fetch::Asked fetch(const fetch::Unit& unit, const fetch::Waiting& waiting) override {
    asked.push_back(unit);
    asked_on.push_back(std::this_thread::get_id());
    ++m_requests;
    if (waits.count() > 0 && waiting) {
      waiting(waits);
      waiting(std::chrono::milliseconds(0));
    }
    if (fails_at && (std::count(unit.symbols.begin(), unit.symbols.end(), fails_at->first) != 0
                     || (unit.shape == fetch::UnitShape::market_day && unit.days.front() == fails_at->second))) {
      return fetch::Stop{fails_with, "fake: it broke at " + fails_at->first + " " + fails_at->second.iso()};
    }
    fetch::Fetched out;
    out.where = "fake";
    out.warnings = unit_warnings;
    for (const auto& [symbol, days] : closes) {
      if (unit_asks(unit, symbol)) {
        add_bars(unit, symbol, days, out);
      }
    }
    out.answered = out.rows.size() + out.problems.size();
    return out;
  }

  std::int64_t requests() const override { return m_requests.load(); }

private:
  static bool unit_asks(const fetch::Unit& unit, const std::string& symbol) {
    return unit.symbols.empty() || std::count(unit.symbols.begin(), unit.symbols.end(), symbol) != 0;
  }

  void add_bars(const fetch::Unit& unit, const std::string& symbol, const std::map<domain::Date, double>& days,
                fetch::Fetched& out) {
    std::optional<double> before;
    for (const auto& [day, close] : days) {
      const auto previous = std::exchange(before, close);
      if (day < unit.days.front() || unit.days.back() < day) {
        continue;
      }
      if (bad_bars.count({symbol, day}) != 0) {
        out.problems.push_back({m_line++, symbol, day, "high", "high 1 is below low 2"});
        continue;
      }
      import::ParsedRow row;
      row.line = m_line++;
      row.symbol = symbol;
      row.bar.trade_date = day;
      row.bar.open = row.bar.high = row.bar.low = row.bar.close = close;
      row.bar.volume = 100;
      row.bar.turnover = close * 100;
      const auto set = pre_closes.find({symbol, day});
      row.pre_close = set != pre_closes.end() ? std::optional(set->second) : previous;
      out.rows.push_back(std::move(row));
    }
  }

  fetch::UnitShape m_shape;
  std::int64_t m_line = 1;
  std::atomic<std::int64_t> m_requests = 0;
};

} // namespace ashare::test
