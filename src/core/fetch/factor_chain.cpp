#include "core/fetch/factor_chain.hpp"

#include "core/domain/kind.hpp"
#include "core/import/factors.hpp"

#include <algorithm>
#include <iterator>

namespace ashare::fetch {
namespace {

// The factor after `previous_factor` when the source's cumulative factor moved from
// `previous_adj` to `adj`. A chain kept on the source's own scale (factor = adj_factor, as
// `import --adj-factor` stores it) stays on it exactly.
double adj_step(double previous_factor, double previous_adj, double adj) {
  if (previous_factor == previous_adj) {
    return adj;
  }
  return previous_factor * (adj / previous_adj);
}

// Whether `symbol` is an index by its code (D20; the codes of indices no list calls otherwise).
bool is_index(const std::string& symbol) {
  return domain::classify_code(symbol).kind == domain::Kind::index;
}

} // namespace

void FactorChain::remember_adj(const std::string& symbol, domain::Date date, double adj) {
  auto& latest = m_latest_adj[symbol];
  if (latest.second == 0 || !(date < latest.first)) {
    latest = {date, adj};
  }
}

void FactorChain::set_backward(const std::string& symbol, domain::Date date, double factor) {
  m_backward[{symbol, date.yyyymmdd()}] = factor;
}

void FactorChain::continue_backward(const std::string& symbol,
                                    domain::Date stored_first,
                                    std::span<const import::ParsedRow> rows,
                                    const std::map<std::int64_t, double>& adj) {
  // D18: the join has no step: the rows up to the stored first bar, walked back from its factor.
  const auto end = std::find_if(rows.begin(), rows.end(),
                                [&](const auto& row) { return stored_first < row.bar.trade_date; });
  if (rows.begin() == end || !(rows.front().bar.trade_date < stored_first)
      || std::prev(end)->bar.trade_date != stored_first) {
    return;
  }
  const auto anchor = m_store.load_bars(symbol, stored_first, stored_first, domain::SortOrder::asc, 1);
  if (anchor.empty()) {
    return;
  }
  const auto segment = rows.first(static_cast<std::size_t>(end - rows.begin()));
  const auto factors = backward_factors(segment, anchor.front(), adj);
  for (std::size_t i = 0; i + 1 < segment.size(); ++i) {
    set_backward(symbol, segment[i].bar.trade_date, factors[i]);
  }
}

std::pair<double, bool> FactorChain::factor_of(const import::ParsedRow& row,
                                               const std::optional<domain::Bar>& previous,
                                               const AdjFactors& adj) const {
  const auto today = adj.find(row.symbol);
  const auto latest = m_latest_adj.find(row.symbol);
  if (previous) {
    if (today != adj.end() && latest != m_latest_adj.end()) {
      return {adj_step(previous->factor, latest->second.second, today->second), true};
    }
    return {import::chain_start(*previous, row), false};
  }
  if (const auto it = m_backward.find({row.symbol, row.bar.trade_date.yyyymmdd()});
      it != m_backward.end()) {
    return {it->second, today != adj.end()};
  }
  if (today != adj.end()) {
    return {today->second, true};
  }
  return {1.0, false};
}

import::FactorOrigin FactorChain::origin_of(const Known& known, bool from_adj) {
  if (known.origin == "adj_factor") {
    return import::FactorOrigin::adj_factor;
  }
  if (known.origin == "pre_close_chain") {
    return import::FactorOrigin::pre_close_chain;
  }
  if (known.origin == "file") {
    return import::FactorOrigin::file;
  }
  return from_adj ? import::FactorOrigin::adj_factor : import::FactorOrigin::pre_close_chain;
}

std::pair<double, bool> FactorChain::settle_row(const import::ParsedRow& row,
                                                Known& known,
                                                const AdjFactors& adj) {
  const auto day = row.bar.trade_date;
  if (known.stored_last && !(*known.stored_last < day)) {
    // A bar the fetch writes again keeps its factor: the stored chain's scale never changes, and
    // a factor derived backwards, then forwards again, need not come back to the last bit.
    const auto stored = m_store.load_bars(row.symbol, day, day, domain::SortOrder::asc, 1);
    if (!stored.empty()) {
      return {stored.front().factor, adj.count(row.symbol) != 0};
    }
    // A day inside the stored history (a repair): the bar before it is the stored one, or the
    // one this fetch wrote last when later (two missing days in a row: the first is not yet stored).
    auto before = m_store.find_bar_before(row.symbol, day);
    if (known.last_written && known.last_written->trade_date < day
        && (!before || before->trade_date < known.last_written->trade_date)) {
      before = known.last_written;
    }
    return factor_of(row, before, adj);
  }
  // Past the stored history the latest bar before the day is the one this fetch wrote last (a
  // whole market a day, without a query per bar), or the stored last one.
  if (!known.stored_last) {
    return factor_of(row, known.last_written, adj); // no stored bar: only this fetch's
  }
  const bool own_is_latest = known.last_written && !(known.last_written->trade_date < *known.stored_last);
  return factor_of(row, own_is_latest ? known.last_written : m_store.find_bar_before(row.symbol, day), adj);
}

std::map<std::string, import::FactorOrigin>
FactorChain::settle(std::span<import::ParsedRow> rows, const AdjFactors& adj) {
  if (!m_known_loaded) {
    for (const auto& info : m_store.load_symbols()) {
      m_known[info.symbol] = Known{info.last_date, info.factor_origin, std::nullopt};
    }
    m_known_loaded = true;
  }
  std::map<std::string, import::FactorOrigin> origins;
  for (auto& row : rows) {
    auto& known = m_known[row.symbol];
    const auto [factor, from_adj] = settle_row(row, known, adj);
    // D20: an index's factor is 1 on every bar (adjusted = raw), whatever its pre_close says (a
    // source's index pre_close may differ from the close before: a rebased index).
    row.bar.factor = is_index(row.symbol) ? 1.0 : factor;
    known.last_written = row.bar;
    // A day's rows usually come in symbol order: then each insertion is at the end.
    origins.insert_or_assign(origins.end(), row.symbol, origin_of(known, from_adj));
  }
  for (const auto& row : rows) {
    if (const auto it = adj.find(row.symbol); it != adj.end()) {
      remember_adj(row.symbol, row.bar.trade_date, it->second);
    }
  }
  return origins;
}

std::vector<double> backward_factors(std::span<const import::ParsedRow> rows,
                                     const domain::Bar& anchor,
                                     const std::map<std::int64_t, double>& adj) {
  std::vector<double> factors(rows.size(), anchor.factor);
  if (rows.empty()) {
    return factors;
  }
  const auto anchor_adj = adj.find(anchor.trade_date.yyyymmdd());
  bool every_adj = anchor_adj != adj.end();
  for (const auto& row : rows) {
    every_adj = every_adj && adj.count(row.bar.trade_date.yyyymmdd()) != 0;
  }
  for (std::size_t i = rows.size() - 1; i-- > 0;) {
    if (every_adj) {
      factors[i] = adj_step(anchor.factor, anchor_adj->second, adj.at(rows[i].bar.trade_date.yyyymmdd()));
      continue;
    }
    const auto& next = rows[i + 1];
    factors[i] = next.pre_close && *next.pre_close > 0
                   ? factors[i + 1] * (*next.pre_close / rows[i].bar.close)
                   : factors[i + 1];
  }
  return factors;
}

} // namespace ashare::fetch
