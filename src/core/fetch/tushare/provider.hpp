// Tushare Pro as a provider (fetch/provider.hpp; D18, D19): what `fetch tushare` and `verify
// --against tushare` ask, and how its answers read. A market's day is `daily` by trade_date (the
// symbols named, in calls of at most 100 codes), with its `adj_factor` where the token may call it
// (else the pre_close chain, said once) and its `suspend_d`; a symbol's span is `daily` and
// `adj_factor` by ts_code over its days. The calendar is `trade_cal` (SSE), the other reference
// tables `stock_basic` (listed, delisted and paused) and `bse_mapping`; a reference table (the
// suspensions too) that cannot be had for any reason but the quota or the token is a warning, said
// once, and the run goes on with what the store holds (D18). Calls go through a Client
// (tushare/client.hpp): the pace, the pages, the retries and the refusals are its.
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
  References calendar(domain::Date today, std::optional<domain::Date> from, const Waiting& waiting) override;
  References references(const Waiting& waiting) override;
  // daily, adj_factor and suspend_d a day; the calendar, three listings and the aliases first.
  std::int64_t estimate(std::size_t days, std::size_t, bool) const override {
    return static_cast<std::int64_t>(days) * 3 + 5;
  }
  // A market's day answers every symbol: the symbols named, as they are.
  std::variant<std::vector<std::string>, Stop> universe(const UniverseAsk& ask) override {
    return ask.named;
  }
  Asked fetch(const Unit& unit, const Waiting& waiting) override;
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
  bool ask_day_adj(const std::vector<nlohmann::json>& calls, Fetched& out, std::optional<Stop>& stop);
  bool ask_day_suspensions(const std::vector<nlohmann::json>& calls, Fetched& out, std::optional<Stop>& stop);
  void ask_listings(References& out);
  void ask_aliases(References& out);

  Client& m_client;
  bool m_adj_permitted = true; // until the token is refused `adj_factor`
  bool m_suspend_asked = true; // until `suspend_d` fails: the same answer every day costs a call a day
  std::set<std::string, std::less<>> m_not_refreshed; // the reference tables warned of
};

} // namespace ashare::fetch::tushare
