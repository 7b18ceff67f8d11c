// Continuing each symbol's stored chain of factors with the bars of a fetched day (D18). The
// chain's scale never changes: forward, factor[t] = factor[t-1] x step[t]; backward (a symbol
// whose stored history starts after the day), factor[t-1] = factor[t] / step[t]; where step[t] is
// adj_factor[t] / adj_factor[t-1] when the source gives cumulative factors, else
// close[t-1] / pre_close[t], computed as the importer's pre_close chain computes it, so that a
// fetched history is bit for bit an imported one. An index's factor is 1 on every bar (D20).
#pragma once

#include "core/domain/date.hpp"
#include "core/import/importer.hpp"
#include "core/import/parsed_file.hpp"
#include "core/store/bar_store.hpp"

#include <map>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <utility>

namespace ashare::fetch {

// Each symbol's cumulative factor on one day, as the source gives it (Tushare `adj_factor`).
using AdjFactors = std::unordered_map<std::string, double>;

class FactorChain {
public:
  explicit FactorChain(store::BarStore& store) : m_store(store) {}

  // Remember that the source's cumulative factor of `symbol` was `adj` on `date` (the latest
  // such value before a day is the one its step divides by).
  void remember_adj(const std::string& symbol, domain::Date date, double adj);

  // Use `factor` for `symbol` on `date` (computed backwards from a later stored bar).
  void set_backward(const std::string& symbol, domain::Date date, double factor);

  // Continue the stored history of `symbol`, whose first bar is on `stored_first`, backwards
  // through `rows` (its bars from the source, ascending): the rows before that bar get the factors
  // that lead to its own without a step at the join (backward_factors, along `adj` by YYYYMMDD
  // where every row has one). Nothing happens when the rows start on or after that bar, or do not
  // reach its day (the source lacks it: the rows start their own chain).
  void continue_backward(const std::string& symbol,
                         domain::Date stored_first,
                         std::span<const import::ParsedRow> rows,
                         const std::map<std::int64_t, double>& adj);

  // Set the factor of every row of `rows` (one day's bars, any symbols), given each symbol's
  // cumulative factor that day in `adj` (empty when the source gives none), and return where each
  // symbol's factors come from: its stored origin when it has one, else adj_factor or
  // pre_close_chain. A row whose day already has a stored bar keeps that bar's factor. A row with
  // no stored bar before it and none set backwards starts a chain: at its adj_factor (the
  // importer's join) or at 1 (the importer's pre_close chain). An index's row gets 1 (D20).
  std::map<std::string, import::FactorOrigin>
  settle(std::span<import::ParsedRow> rows, const AdjFactors& adj);

private:
  // What the chain knows of a symbol: its stored history's last day and factor origin when the
  // fetch began, and the bar the fetch wrote last.
  struct Known {
    std::optional<domain::Date> stored_last;
    std::string origin;
    std::optional<domain::Bar> last_written;
  };

  static import::FactorOrigin origin_of(const Known& known, bool from_adj);
  // Return the factor of `row` and whether it came from adj factors.
  std::pair<double, bool> settle_row(const import::ParsedRow& row,
                                     Known& known,
                                     const AdjFactors& adj);
  // Return the factor of `row`, and whether it came from adj factors.
  std::pair<double, bool> factor_of(const import::ParsedRow& row,
                                    const std::optional<domain::Bar>& previous,
                                    const AdjFactors& adj) const;

  store::BarStore& m_store;
  std::unordered_map<std::string, Known> m_known; // loaded at the first settle()
  bool m_known_loaded = false;
  std::unordered_map<std::string, std::pair<domain::Date, double>> m_latest_adj; // symbol -> (date, adj)
  std::map<std::pair<std::string, std::int64_t>, double> m_backward;  // (symbol, YYYYMMDD)
};

// Return the factors of `rows` (one symbol, ascending, the last row on the day of the stored bar
// `anchor`) that lead backwards to `anchor`'s factor without a step at the join: along
// `adj` (by YYYYMMDD) where every row has one, else along the pre_close chain. The last entry is
// anchor's own factor.
std::vector<double> backward_factors(std::span<const import::ParsedRow> rows,
                                     const domain::Bar& anchor,
                                     const std::map<std::int64_t, double>& adj);

} // namespace ashare::fetch
