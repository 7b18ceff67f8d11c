// The codes `fetch tdx` and `verify --against tdx` ask for (D18): the symbols named, each under
// the TDX market of its D1 suffix (SZ 0, SH 1, BJ 2), or every A-share code the three markets
// list (indices, funds, bonds and B shares skipped), under the market that lists it.
#pragma once

#include "core/error.hpp"
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

// Return `symbols` (canonical) as TDX codes, or every A-share the servers list when it is empty;
// sorted by symbol, each once. An INVALID_INPUT error names a symbol TDX does not serve; a
// listing that fails is the client's error.
Result<std::vector<ListedSymbol>> universe_of(Client& client, const std::vector<std::string>& symbols);

} // namespace ashare::fetch::tdx
