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
  std::vector<Symbol> symbols;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = text.find(',', start);
    const std::string_view item =
      text.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
    if (trim(item).empty()) {
      return make_error(ErrorCode::invalid_parameter,
                        "invalid symbol \"" + std::string(text) + "\": empty item in the list");
    }
    auto symbol = parse_symbol(item);
    if (!symbol) {
      return symbol.error();
    }
    if (std::find(symbols.begin(), symbols.end(), *symbol) != symbols.end()) {
      return make_error(ErrorCode::invalid_parameter,
                        "invalid symbol \"" + std::string(text) + "\": \"" + symbol->str()
                          + "\" is listed twice");
    }
    symbols.push_back(std::move(*symbol));
    if (comma == std::string_view::npos) {
      break;
    }
    start = comma + 1;
  }
  return symbols;
}

} // namespace ashare::domain
