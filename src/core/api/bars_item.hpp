// One symbol's item of a bars answer (SPEC "Daily bars", D1, D8): what every reader of an answer
// reads (its symbol, its bars, their summary, its next_url or its error), and, kept private, the
// form its bars' text comes in, which only the body writer reads (api/json). That form is the
// cache's choice (api/store_view, issues 11 and 35): the bars' JSON already written (a rendered
// history's, referred to, not copied), their numbers as whole 1/10000s (a compact history's
// window, written from their digits), or neither (written from the doubles).
#pragma once

#include "core/domain/bar.hpp"
#include "core/error.hpp"
#include "core/query/bar_query.hpp"
#include "core/query/summary.hpp"

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ashare::api {

class JsonWriter;

// Bars whose JSON is written already (a rendered history's, api/history_cache): the bars where
// they lie, in the query's order (empty when the item holds them itself), and their JSON objects
// as pieces to join with commas. Both refer to what `owner` holds, which the item keeps.
struct WrittenBars {
  std::span<const domain::Bar> in_place;
  std::vector<std::string_view> json;
  std::shared_ptr<const void> owner;
};

class BarsItem {
public:
  std::string symbol;
  bool known = false;    // the store knows the symbol; an unknown one has no bars (D1)
  bool has_more = false; // `limit` left bars of [from, to] out (D8)
  std::optional<query::Summary> summary;
  std::optional<std::string> next_url; // where the bars `limit` left out are (D8)
  // D1's unknown symbol (an item's error among several), or the error a body says it has.
  std::optional<Error> error;

  BarsItem() = default;

  // The item of `window`: its bars written from their doubles; D1's error when its symbol is not
  // known.
  explicit BarsItem(query::SymbolBars window);

  // The item of `window`, a compact history's: its bars written from their whole 1/10000s.
  explicit BarsItem(query::ExactWindow window);

  // The item of `window` whose bars' JSON is `written` already: written.in_place are its bars
  // unless window.bars holds them.
  BarsItem(query::SymbolBars window, WrittenBars written);

  // Return the bars: sorted, limited and adjusted as the query asked, wherever they lie.
  std::span<const domain::Bar> bars() const {
    return m_written.in_place.empty() ? std::span<const domain::Bar>(m_bars) : m_written.in_place;
  }

  // Append `more` (the bars of the window's next page, D8) to bars(); their text is then
  // written from the doubles.
  void append(std::span<const domain::Bar> more);

private:
  // The body writer alone reads the form of the bars' text (api/json.cpp).
  friend void write_item_bars(JsonWriter& json, const BarsItem& item);

  std::vector<domain::Bar> m_bars;
  std::vector<domain::BarTenThousandths> m_exact; // one per bar, or none
  WrittenBars m_written;
};

} // namespace ashare::api
