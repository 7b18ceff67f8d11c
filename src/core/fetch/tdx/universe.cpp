#include "core/fetch/tdx/universe.hpp"

#include "core/domain/kind.hpp"

#include <algorithm>

namespace ashare::fetch::tdx {
namespace {

using domain::Kind;

bool takes(const std::vector<Kind>& kinds, Kind kind) {
  return kinds.empty() || std::find(kinds.begin(), kinds.end(), kind) != kinds.end();
}

// Return `symbol` (canonical) as a TDX code, or why TDX cannot be asked for it.
Result<ListedSymbol> listed_symbol(const std::string& symbol) {
  const auto market = market_of(symbol);
  if (!market) {
    return make_error(ErrorCode::invalid_input, symbol + ": TDX answers SZ, SH and BJ codes only");
  }
  if (auto kind = domain::kind_of_code(symbol); !kind) {
    return kind.error();
  }
  return ListedSymbol{symbol, *market, symbol.substr(0, symbol.rfind('.'))};
}

// Whether the listed `code` of `market` is taken for `kinds`: an A-share stock as D18 took them,
// or a fund (D20); an index only when asked by name, a code D20 keeps out never.
bool taken_from_list(Market market, const std::string& code, const std::vector<Kind>& kinds) {
  const auto kind = domain::classify_code(symbol_of(market, code)).kind;
  if (!kind || !takes(kinds, *kind)) {
    return false;
  }
  return *kind == Kind::fund || (*kind == Kind::stock && is_a_share(market, code));
}

// Add the codes the three markets list that `kinds` takes to `out`.
Status add_listed(Client& client, const std::vector<Kind>& kinds, std::vector<ListedSymbol>& out) {
  for (const auto market : {Market::sz, Market::sh, Market::bj}) {
    auto codes = client.listed_codes(market);
    if (!codes) {
      return make_error(codes.error().code, "listing the codes of market " + std::to_string(static_cast<int>(market))
                                                + ": " + codes.error().message);
    }
    for (const auto& listed : *codes) {
      if (taken_from_list(market, listed.code, kinds)) {
        out.push_back({symbol_of(market, listed.code), market, listed.code});
      }
    }
  }
  return Ok{};
}

} // namespace

std::string symbol_of(Market market, const std::string& code) {
  switch (market) {
  case Market::sz:
    return code + ".SZ";
  case Market::sh:
    return code + ".SH";
  case Market::bj:
    return code + ".BJ";
  }
  return code;
}

std::optional<Market> market_of(const std::string& symbol) {
  const auto dot = symbol.rfind('.');
  const auto suffix = dot == std::string::npos ? std::string() : symbol.substr(dot + 1);
  if (suffix == "SZ") {
    return Market::sz;
  }
  if (suffix == "SH") {
    return Market::sh;
  }
  if (suffix == "BJ") {
    return Market::bj;
  }
  return std::nullopt;
}

Result<std::vector<ListedSymbol>> universe_of(Client& client, const UniverseAsk& ask) {
  std::vector<ListedSymbol> out;
  const bool named = !ask.named.empty();
  const auto& asked = named ? ask.named : takes(ask.kinds, Kind::index) ? ask.indices : std::vector<std::string>{};
  for (const auto& symbol : asked) {
    auto listed = listed_symbol(symbol);
    if (!listed) {
      return listed.error();
    }
    out.push_back(std::move(*listed));
  }
  if (!named && (takes(ask.kinds, Kind::stock) || takes(ask.kinds, Kind::fund))) {
    if (auto added = add_listed(client, ask.kinds, out); !added) {
      return added.error();
    }
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.symbol < b.symbol; });
  out.erase(std::unique(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.symbol == b.symbol; }),
            out.end());
  return out;
}

} // namespace ashare::fetch::tdx
