#include "core/domain/kind.hpp"

#include <algorithm>
#include <string>

namespace ashare::domain {
namespace {

// D20's table: the first row whose exchange and code prefix match `symbol` decides. A prefix
// names the leading digits; the kept-out rows come before the kinds they carve out of (SH 508xxx
// before SH 50xxxx). Any code no row names is a stock (D1's other codes).
struct CodeRow {
  std::string_view exchange; // "SH", "SZ" or "BJ"
  std::string_view prefix;
  CodeClass what;
};

constexpr CodeRow k_code_table[] = {
  {"SH", "508", {std::nullopt, "a REIT"}},
  {"SZ", "180", {std::nullopt, "a REIT"}},
  {"SH", "900", {std::nullopt, "a B share"}},
  {"SZ", "200", {std::nullopt, "a B share"}},
  {"SH", "880", {std::nullopt, "a TDX sector index"}},
  {"SH", "881", {std::nullopt, "a TDX sector index"}},
  {"SH", "000", {Kind::index, {}}},
  // Bonds and repos, by the exchanges' code allocation: D20 names bonds without their codes.
  {"SH", "00", {std::nullopt, "a bond"}},
  {"SH", "01", {std::nullopt, "a bond"}},
  {"SH", "02", {std::nullopt, "a bond"}},
  {"SH", "10", {std::nullopt, "a bond"}},
  {"SH", "11", {std::nullopt, "a bond"}},
  {"SH", "12", {std::nullopt, "a bond"}},
  {"SH", "13", {std::nullopt, "a bond"}},
  {"SH", "20", {std::nullopt, "a repo"}},
  {"SZ", "10", {std::nullopt, "a bond"}},
  {"SZ", "11", {std::nullopt, "a bond"}},
  {"SZ", "12", {std::nullopt, "a bond"}},
  {"SZ", "13", {std::nullopt, "a repo"}},
  {"SZ", "399", {Kind::index, {}}},
  {"BJ", "899", {Kind::index, {}}},
  {"SH", "50", {Kind::fund, {}}},
  {"SH", "51", {Kind::fund, {}}},
  {"SH", "56", {Kind::fund, {}}},
  {"SH", "58", {Kind::fund, {}}},
  {"SZ", "159", {Kind::fund, {}}},
  {"SZ", "16", {Kind::fund, {}}},
};

constexpr std::string_view k_names[] = {"stock", "index", "fund"};

std::string_view trimmed(std::string_view text) {
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string_view::npos) {
    return {};
  }
  return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

} // namespace

std::string_view kind_name(Kind kind) {
  return k_names[static_cast<std::size_t>(kind)];
}

std::optional<Kind> parse_kind(std::string_view word) {
  for (const auto kind : k_kinds) {
    if (kind_name(kind) == word) {
      return kind;
    }
  }
  return std::nullopt;
}

Result<std::vector<Kind>> parse_kind_list(std::string_view text) {
  std::vector<Kind> kinds;
  for (std::size_t start = 0; start <= text.size();) {
    const auto comma = text.find(',', start);
    const auto item = trimmed(text.substr(start, comma == text.npos ? text.npos : comma - start));
    const auto kind = parse_kind(item);
    if (!kind) {
      return make_error(ErrorCode::invalid_parameter,
                        "invalid kind \"" + std::string(item) + "\": expected stock, index or fund");
    }
    if (std::find(kinds.begin(), kinds.end(), *kind) == kinds.end()) {
      kinds.push_back(*kind);
    }
    if (comma == text.npos) {
      break;
    }
    start = comma + 1;
  }
  return kinds;
}

CodeClass classify_code(std::string_view symbol) {
  const auto code = symbol.substr(0, 6);
  const auto exchange = symbol.size() > 7 ? symbol.substr(7) : std::string_view();
  for (const auto& row : k_code_table) {
    if (row.exchange == exchange && code.substr(0, row.prefix.size()) == row.prefix) {
      return row.what;
    }
  }
  return {Kind::stock, {}};
}

Result<Kind> kind_of_code(std::string_view symbol) {
  const auto what = classify_code(symbol);
  if (!what.kind) {
    return make_error(ErrorCode::invalid_input, std::string(symbol) + " is " + std::string(what.kept_out)
                                                  + ": ashare keeps it out (D20)");
  }
  return *what.kind;
}

} // namespace ashare::domain
