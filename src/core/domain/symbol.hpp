// A-share symbols (D1): six ASCII digits, a dot and the exchange suffix SH, SZ or BJ, held in the
// canonical upper-case form. The exchange is never inferred from the digits: 000001.SH (an index)
// and 000001.SZ (a bank) are different symbols.
#pragma once

#include "core/error.hpp"

#include <compare>
#include <string>
#include <string_view>
#include <vector>

namespace ashare::domain {

class Symbol {
public:
  // Return the canonical text, e.g. "600519.SH".
  const std::string& str() const { return m_text; }

  friend auto operator<=>(const Symbol&, const Symbol&) = default;

private:
  friend Result<Symbol> parse_symbol(std::string_view text);
  explicit Symbol(std::string text) : m_text(std::move(text)) {}
  std::string m_text;
};

// Parse one symbol in any letter case, with surrounding ASCII whitespace trimmed. A malformed
// symbol is INVALID_SYMBOL with a message quoting `text`.
Result<Symbol> parse_symbol(std::string_view text);

// Parse the comma-separated `symbol` parameter of D1: items trimmed; a malformed item anywhere is
// INVALID_SYMBOL naming the item; otherwise an empty list, an empty item or a duplicate is
// INVALID_PARAMETER.
Result<std::vector<Symbol>> parse_symbol_list(std::string_view text);

// Return `symbols` joined by commas: the `symbol` parameter that parse_symbol_list() reads back.
std::string join_symbols(const std::vector<Symbol>& symbols);

} // namespace ashare::domain
