#include "core/domain/symbol.hpp"

#include <algorithm>

namespace ashare::domain {
namespace {

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

std::string_view trim(std::string_view text) {
  while (!text.empty() && is_space(text.front())) {
    text.remove_prefix(1);
  }
  while (!text.empty() && is_space(text.back())) {
    text.remove_suffix(1);
  }
  return text;
}

char to_upper(char c) {
  return (c >= 'a' && c <= 'z') ? static_cast<char>(c - 'a' + 'A') : c;
}

} // namespace

Result<Symbol> parse_symbol(std::string_view text) {
  const std::string_view item = trim(text);
  std::string canonical(item);
  std::transform(canonical.begin(), canonical.end(), canonical.begin(), to_upper);
  const bool digits = canonical.size() == 9
                      && std::all_of(canonical.begin(), canonical.begin() + 6,
                                     [](char c) { return c >= '0' && c <= '9'; });
  const std::string_view suffix = digits ? std::string_view(canonical).substr(6) : "";
  if (suffix != ".SH" && suffix != ".SZ" && suffix != ".BJ") {
    return make_error(ErrorCode::invalid_symbol,
                      "invalid symbol \"" + std::string(item)
                        + "\": expected six digits, a dot and SH, SZ or BJ");
  }
  return Symbol{std::move(canonical)};
}

Result<std::vector<Symbol>> parse_symbol_list(std::string_view text) {
  if (trim(text).empty()) {
    return make_error(ErrorCode::invalid_parameter, "missing parameter \"symbol\"");
  }
  std::vector<std::string_view> items;
  for (std::size_t start = 0;;) {
    const std::size_t comma = text.find(',', start);
    items.push_back(text.substr(start, comma == text.npos ? text.npos : comma - start));
    if (comma == text.npos) {
      break;
    }
    start = comma + 1;
  }
  // D1: a malformed item anywhere makes the request INVALID_SYMBOL, whatever else is wrong.
  std::vector<Symbol> symbols;
  for (const auto item : items) {
    if (trim(item).empty()) {
      continue;
    }
    auto symbol = parse_symbol(item);
    if (!symbol) {
      return symbol.error();
    }
    symbols.push_back(std::move(*symbol));
  }
  if (symbols.size() != items.size()) {
    return make_error(ErrorCode::invalid_parameter,
                      "invalid symbol \"" + std::string(text) + "\": empty item in the list");
  }
  for (std::size_t i = 1; i < symbols.size(); ++i) {
    if (std::find(symbols.begin(), symbols.begin() + static_cast<std::ptrdiff_t>(i), symbols[i])
        != symbols.begin() + static_cast<std::ptrdiff_t>(i)) {
      return make_error(ErrorCode::invalid_parameter,
                        "invalid symbol \"" + std::string(text) + "\": \"" + symbols[i].str()
                          + "\" is listed twice");
    }
  }
  return symbols;
}

std::string join_symbols(const std::vector<Symbol>& symbols) {
  std::string out;
  for (const auto& symbol : symbols) {
    if (!out.empty()) {
      out.push_back(',');
    }
    out += symbol.str();
  }
  return out;
}

} // namespace ashare::domain
