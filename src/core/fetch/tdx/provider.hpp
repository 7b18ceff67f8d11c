// The TDX quote servers as a provider (fetch/provider.hpp; D18, D19, D20), without a key: what
// `fetch tdx` and `verify --against tdx` ask, and how its answers read. TDX answers per symbol, so
// a fetch asks a span a symbol: its daily bars (category 4, paged back from the newest, from far
// enough back that the bar before the span's first day gives that day's pre_close; an index's
// read with its 4 more bytes a bar) and, but for an index, its ex-rights events (the pre_close of
// an ex-date). A symbol's kind is its code's (TDX has no list of kinds). The universe is the
// A-share stocks and the funds the servers list and the indices asked, or the symbols named. The calendar comes from SZSE's monthList, a month a request.
// Requests go through a Client (tdx/client.hpp): hosts in turn, one connection, the pace.
#pragma once

#include "core/fetch/provider.hpp"
#include "core/fetch/tdx/client.hpp"
#include "core/http/gateway.hpp"

#include <string>
#include <variant>
#include <vector>

namespace ashare::fetch::tdx {

inline constexpr const char* k_provider = "tdx";

class TdxProvider final : public Provider {
public:
  // Ask `client`, and SZSE's calendar through `szse`, a gateway to its monthList (D19).
  TdxProvider(Client& client, http::Gateway& szse) : m_client(client), m_szse(szse) {}

  std::string name() const override { return k_provider; }
  std::string display_name() const override { return "TDX"; }
  std::vector<domain::Kind> kinds() const override { return {domain::k_kinds.begin(), domain::k_kinds.end()}; }
  UnitShape market_shape() const override { return UnitShape::symbol_span; }
  References calendar(domain::Date today, std::optional<domain::Date> from, const Waiting& waiting) override;
  References references(const UniverseAsk&, const Waiting&) override { return {}; }
  // A stock's or a fund's bars and its ex-rights events, an index's bars alone (D20: no events are
  // asked for it); the three markets' lists first (a page at least).
  std::int64_t estimate(const PlanSize& size) const override {
    return static_cast<std::int64_t>((size.stocks + size.funds) * 2 + size.indices) + (size.named ? 0 : 3);
  }
  std::variant<std::vector<std::string>, Stop> universe(const UniverseAsk& ask) override;
  Asked fetch(const Unit& unit, const Waiting& waiting) override;
  std::int64_t requests() const override { return m_client.requests(); }

private:
  Client& m_client;
  http::Gateway& m_szse;
};

} // namespace ashare::fetch::tdx
