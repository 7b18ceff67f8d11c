// D19: codes that became others (the Beijing exchange's 43/83/87xxxx -> 920xxx on 2025-05-06 and
// 2025-10-09) answer one series. The new code's history includes the old code's bars dated
// before the new code's first bar (where both have a bar on one day the new code's wins), the
// old code's factors rescaled so that the step at the join is the new first bar's own (its
// pre_close, from the source's change_pct, against the old last close; none said: no step), so
// there is one F_latest and an indicator runs over the whole. Either code answers it. What a
// query reads goes through here; imports, removals and fetches address each code alone.
#pragma once

#include "core/domain/bar.hpp"
#include "core/domain/symbol.hpp"
#include "core/store/bar_store.hpp"

#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

namespace ashare::query {

class Aliases {
public:
  Aliases() = default;
  explicit Aliases(const std::vector<store::CodeAlias>& aliases);

  // Return the alias pair of canonical `symbol` (as old or as new code), or nullptr.
  const store::CodeAlias* find(const std::string& symbol) const;

  // Return the other code of `symbol`'s pair, or nullopt.
  std::optional<std::string> partner(const std::string& symbol) const;

  // Return every pair, ordered by old symbol.
  const std::vector<store::CodeAlias>& pairs() const { return m_aliases; }

private:
  std::vector<store::CodeAlias> m_aliases;
  std::unordered_map<std::string, std::size_t> m_index; // either code -> its pair
};

// Return `store`'s aliases.
Aliases load_aliases(store::BarStore& store);

// Return the aliases of `symbols` alone: a one-shot query's catalog needs no other (issue 43, P2:
// the shipped Beijing table's 248 pairs were 8% of its instructions).
Aliases load_aliases(store::BarStore& store, std::span<const domain::Symbol> symbols);

// Return the factor by which the old code's factors are multiplied in the series of `pair`, from
// the old code's last kept bar `old_last` and the new code's first `new_first` (whose change_pct
// is the source's unless `new_first_derived`).
double join_scale(const domain::Bar& old_last, const domain::Bar& new_first, bool new_first_derived);

// Return every bar of the series `symbol` answers, ascending, raw, its factors on the new code's
// scale: the stored bars of `symbol` when it has no alias.
std::vector<domain::Bar> load_series_bars(store::BarStore& store, const Aliases& aliases,
                                          const std::string& symbol);

// Return the bars of the series `symbol` answers with trade_date in [`from`, `to`], ordered by
// `order`, at most `limit`: BarStore::load_bars for a symbol without an alias.
std::vector<domain::Bar> load_series_window(store::BarStore& store, const Aliases& aliases,
                                            const std::string& symbol, domain::Date from, domain::Date to,
                                            domain::SortOrder order, std::int64_t limit);

// Return the `field` prices and factors of the series `symbol` answers: BarStore::load_price_series
// for a symbol without an alias.
store::PriceSeries load_series_prices(store::BarStore& store, const Aliases& aliases,
                                      const std::string& symbol, store::PriceField field);

// Return what the series `symbol` answers knows of itself (symbol: the code asked; first and last
// date, count, latest factor and source of the joined series), from the stored symbols `infos`
// of both codes; nullopt when neither code has bars.
std::optional<store::SymbolInfo> series_info(store::BarStore& store, const Aliases& aliases,
                                             const std::string& symbol,
                                             const std::optional<store::SymbolInfo>& own,
                                             const std::optional<store::SymbolInfo>& partner);

// Old-code bars the series hides: dated on or after the new code's first bar.
struct HiddenBars {
  std::string old_symbol;
  std::string new_symbol;
  domain::Date new_first;
  std::int64_t count = 0;
};

// Return the old-code bars that the series of `symbol`'s pair hides (D19: `import` warns of
// them), or nullopt when it hides none.
std::optional<HiddenBars> find_hidden_bars(store::BarStore& store, const Aliases& aliases,
                                           const std::string& symbol);

} // namespace ashare::query
