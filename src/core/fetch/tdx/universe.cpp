#include "core/fetch/tdx/universe.hpp"

#include <algorithm>

namespace ashare::fetch::tdx {

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

Result<std::vector<ListedSymbol>> universe_of(Client& client, const std::vector<std::string>& symbols) {
  std::vector<ListedSymbol> out;
  for (const auto& symbol : symbols) {
    const auto market = market_of(symbol);
    if (!market) {
      return make_error(ErrorCode::invalid_input, symbol + ": TDX answers SZ, SH and BJ codes only");
    }
    out.push_back({symbol, *market, symbol.substr(0, symbol.rfind('.'))});
  }
  if (symbols.empty()) {
    for (const auto market : {Market::sz, Market::sh, Market::bj}) {
      auto codes = client.listed_codes(market);
      if (!codes) {
        return make_error(codes.error().code, "listing the codes of market " + std::to_string(static_cast<int>(market))
                                                  + ": " + codes.error().message);
      }
      for (const auto& listed : *codes) {
        if (is_a_share(market, listed.code)) {
          out.push_back({symbol_of(market, listed.code), market, listed.code});
        }
      }
    }
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.symbol < b.symbol; });
  out.erase(std::unique(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.symbol == b.symbol; }),
            out.end());
  return out;
}

} // namespace ashare::fetch::tdx
