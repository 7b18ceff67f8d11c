// Tushare Pro as a provider (fetch/provider.hpp; D18, D19): what `fetch tushare` and `verify
// --against tushare` ask, and how its answers read. A market's day is `daily` by trade_date (the
// symbols named, in calls of at most 100 codes), with its `adj_factor` where the token may call it
// (else the pre_close chain, said once) and its `suspend_d`; a symbol's span is `daily` and
// `adj_factor` by ts_code over its days. The calendar is `trade_cal` (SSE), the other reference
// tables `stock_basic` (listed, delisted and paused) and `bse_mapping`; a reference table (the
// suspensions too) that cannot be had for any reason but the quota or the token is a warning, said
// once, and the run goes on with what the store holds (D18). Calls go through a Client
// (tushare/client.hpp): the pace, the pages, the retries and the refusals are its.
//
// D20: a market's day of funds is `fund_daily` by trade_date with its `fund_adj` (else the pre_close
// chain, said once); an index is a span, `index_daily` by ts_code (no factors: an index's is 1);
// the listings add `fund_basic` (market E) and `index_basic` by each index's ts_code. A symbol is
// asked through its code's kind's API, and a code D20 keeps out is dropped from every answer. A
// token that may not call `fund_daily` or `index_daily` leaves that kind out of the run, said once.
// An index's membership is `index_weight` by index_code over a window (Tushare files CSI 300's
// under 399300.SZ: asked so for 000300.SH), its snapshots filed under the index asked for.
#pragma once

#include "core/fetch/provider.hpp"
#include "core/fetch/tushare/client.hpp"

#include <set>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace ashare::fetch::tushare {

inline constexpr const char* k_provider = "tushare-pro";

// Return how a fetch ends on `failure` (D18): quota or token 4, failing 3, else refused 1.
FetchEnd end_of(const CallFailure& failure);

class TushareProvider final : public Provider {
public:
  explicit TushareProvider(Client& client) : m_client(client) {}

  std::string name() const override { return k_provider; }
  std::string display_name() const override { return "Tushare"; }
  UnitShape market_shape() const override { return UnitShape::market_day; }
  std::vector<domain::Kind> kinds() const override { return {domain::k_kinds.begin(), domain::k_kinds.end()}; }
  bool indices_lag() const override { return true; }
  References calendar(domain::Date today, std::optional<domain::Date> from, const Waiting& waiting) override;
  References references(const UniverseAsk& ask, const Waiting& waiting) override;
  // daily, adj_factor and suspend_d a stocks' day, fund_daily and fund_adj a funds' day, an
  // index_daily per index per 8,000 rows; the calendar, the listings and the aliases first.
  std::int64_t estimate(const PlanSize& size) const override;
  // A market's day answers every stock and fund; the indices are asked a span each (D20).
  std::variant<std::vector<std::string>, Stop> universe(const UniverseAsk& ask) override {
    return ask.named.empty() ? ask.indices : ask.named;
  }
  Asked fetch(const Unit& unit, const Waiting& waiting) override;
  // D20: `index_weight` by index_code over [first, last], paged; 000300.SH asked as 399300.SZ.
  bool answers_members() const override { return true; }
  std::variant<Snapshots, Stop> members(const std::string& index, domain::Date first, domain::Date last,
                                        const Waiting& waiting) override;
  std::int64_t requests() const override { return m_client.requests(); }

private:
  // Call `api_name` with `params`; a refusal for the token's points returns nullopt once `permitted`
  // is cleared and `warnings` say so (the fallback is the caller's), anything else that fails is
  // `stop`ped at (and returns nullopt too).
  std::optional<Table> call_permitted(const char* api_name,
                                      const nlohmann::json& params,
                                      bool& permitted,
                                      std::vector<std::string>& warnings,
                                      std::optional<Stop>& stop);
  // Call the reference API `api_name` for `table` (its name in a warning: "the listings"). D18:
  // the quota or the token `stop`s the run; any other failure (a refusal, an API the service does
  // not know, a reply it cannot read, a source that kept failing) is a warning, and nullopt.
  std::optional<Table> call_reference(const char* api_name,
                                      const nlohmann::json& params,
                                      std::string_view fields,
                                      std::string_view table,
                                      std::vector<std::string>& warnings,
                                      std::optional<Stop>& stop);
  // Warn in `warnings` that `table` was not refreshed, because of `why`: once a table and run.
  void not_refreshed(std::string_view table, const std::string& why, std::vector<std::string>& warnings);
  Asked fetch_day(const Unit& unit);
  Asked fetch_span(const Unit& unit);
  void ask_kind_listings(const UniverseAsk& ask, References& out);
  bool ask_day_adj(const char* api_name,
                   bool& permitted,
                   const std::vector<nlohmann::json>& calls,
                   Fetched& out,
                   std::optional<Stop>& stop);
  bool& bars_permitted(domain::Kind kind);
  bool& adj_permitted(domain::Kind kind);
  // Call `kind`'s bars API with `params`, its table added to `tables`; or the kind refused (`out`
  // says so), or a stop.
  std::optional<Stop> call_bars(domain::Kind kind, const nlohmann::json& params, std::vector<Table>& tables, Fetched& out);
  std::optional<Stop> ask_named_kinds(const Unit& unit, std::vector<Table>& tables, Fetched& out);
  bool ask_day_suspensions(const std::vector<nlohmann::json>& calls, Fetched& out, std::optional<Stop>& stop);
  void ask_listings(References& out);
  void ask_aliases(References& out);

  Client& m_client;
  bool m_adj_permitted = true; // until the token is refused `adj_factor`
  bool m_daily_permitted = true;      // never cleared: a refused `daily` stops the run
  bool m_fund_adj_permitted = true;   // until refused `fund_adj`: the pre_close chain then
  bool m_fund_daily_permitted = true; // until refused `fund_daily`: the funds are left out (D20)
  bool m_index_daily_permitted = true; // until refused `index_daily`: the indices are left out
  bool m_index_weight_permitted = true; // until refused `index_weight`: no membership this run
  bool m_suspend_asked = true; // until `suspend_d` fails: the same answer every day costs a call a day
  std::set<std::string, std::less<>> m_not_refreshed; // the reference tables warned of
};

} // namespace ashare::fetch::tushare
