// D20: what a symbol is — a stock, an index or an exchange-traded fund (ETF or LOF) — and the
// codes ashare keeps out (REITs, B shares, TDX's sector indices). A provider's list says the kind
// when it has the symbol (store::Listing::kind); otherwise the code does, by the table in
// kind.cpp. D1's grammar is unchanged: a kept-out code is a well-formed symbol that fetches drop
// and `import` refuses.
#pragma once

#include "core/error.hpp"

#include <array>
#include <optional>
#include <string_view>
#include <vector>

namespace ashare::domain {

enum class Kind { stock, index, fund };

inline constexpr std::array<Kind, 3> k_kinds = {Kind::stock, Kind::index, Kind::fund};

// Return the kind's word in every output and in `--kind`: "stock", "index" or "fund".
std::string_view kind_name(Kind kind);

// Return the kind named `word` (exactly as kind_name() writes it), or nullopt.
std::optional<Kind> parse_kind(std::string_view word);

// Parse `--kind LIST` (D20: comma-separated kinds, items trimmed, each once): the kinds in the
// order given, or INVALID_PARAMETER naming the first item that is not a kind.
Result<std::vector<Kind>> parse_kind_list(std::string_view text);

// What a code is by D20's table, for a symbol no provider's list names.
struct CodeClass {
  std::optional<Kind> kind;  // nullopt: kept out
  std::string_view kept_out; // when kept out, what it is ("a REIT", "a B share", ...)
};

// Classify canonical `symbol` (D1 form, e.g. "510300.SH") by its code and exchange.
CodeClass classify_code(std::string_view symbol);

// Return the kind of canonical `symbol` by its code, or INVALID_INPUT naming the symbol, what it
// is and D20 when D20 keeps it out.
Result<Kind> kind_of_code(std::string_view symbol);

} // namespace ashare::domain
