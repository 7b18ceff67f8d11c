// The codes `fetch tdx` and `verify --against tdx` ask for (D18, D20): the symbols named, each
// under the TDX market of its D1 suffix (SZ 0, SH 1, BJ 2), whatever their kind; or the codes the
// three markets list of the kinds asked (their A-share stocks and every fund, by the code's kind:
// domain::classify_code), under the market that lists it, and the indices asked (the lists'
// indices are not taken unless asked). The codes D20 keeps out (REITs, B shares, TDX's sector
// indices, bonds) are never taken.
#pragma once

#include "core/error.hpp"
#include "core/fetch/provider.hpp"
#include "core/fetch/tdx/client.hpp"

#include <optional>
#include <string>
#include <vector>

namespace ashare::fetch::tdx {

struct ListedSymbol {
  std::string symbol; // canonical
  Market market = Market::sz;
  std::string code; // 6 digits
};

// Return the canonical symbol of `code` as `market` lists it.
std::string symbol_of(Market market, const std::string& code);

// Return the TDX market of canonical `symbol`, or nullopt for a suffix TDX does not serve.
std::optional<Market> market_of(const std::string& symbol);

// Return the symbols `ask` names as TDX codes, or those of the servers' lists and `ask.indices`
// of `ask.kinds` when it names none (the lists are not asked when no stock or fund is); sorted by
// symbol, each once. An INVALID_INPUT error names a symbol TDX does not serve or D20 keeps out; a
// listing that fails is the client's error.
Result<std::vector<ListedSymbol>> universe_of(Client& client, const UniverseAsk& ask);

} // namespace ashare::fetch::tdx
