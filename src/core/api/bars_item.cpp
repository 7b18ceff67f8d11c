#include "core/api/bars_item.hpp"

#include "core/api/request_checks.hpp"

#include <utility>

namespace ashare::api {

BarsItem::BarsItem(query::SymbolBars window)
  : symbol(std::move(window.symbol)), known(window.known), has_more(window.has_more),
    summary(std::move(window.summary)), m_bars(std::move(window.bars)) {
  if (!known) {
    error = unknown_symbol(symbol);
  }
}

BarsItem::BarsItem(query::ExactWindow window) : BarsItem(std::move(window.item)) {
  m_exact = std::move(window.exact);
}

BarsItem::BarsItem(query::SymbolBars window, WrittenBars written)
  : BarsItem(std::move(window)) {
  m_written = std::move(written);
}

void BarsItem::append(std::span<const domain::Bar> more) {
  if (!m_written.in_place.empty()) {
    m_bars.assign(m_written.in_place.begin(), m_written.in_place.end());
  }
  m_bars.insert(m_bars.end(), more.begin(), more.end());
  m_written = WrittenBars{};
  m_exact.clear();
}

} // namespace ashare::api
