#include "core/fetch/ledger_status.hpp"

#include "core/fetch/plan.hpp"

#include <algorithm>
#include <map>

namespace ashare::fetch {
namespace {

std::vector<ProviderLedger> providers_of(const std::vector<store::LedgerDay>& ledger) {
  std::map<std::string, ProviderLedger> by_name;
  for (const auto& row : ledger) {
    auto& provider = by_name[row.provider];
    provider.provider = row.provider;
    if (!provider.first || row.trade_date < *provider.first) {
      provider.first = row.trade_date;
    }
    if (!row.symbol.empty()) {
      // D20: an index's own rows are the ledger's, kept; the others are staged or named.
      provider.symbol_rows += row.kind == domain::Kind::index ? 0 : 1;
      continue;
    }
    if (row.kind != domain::Kind::stock) { // D20: a provider's whole days are its stocks'
      auto& last = provider.last_whole_of_kind.try_emplace(row.kind, row.trade_date).first->second;
      last = std::max(last, row.trade_date);
      continue;
    }
    ++provider.whole_days;
    if (!provider.last_whole || *provider.last_whole < row.trade_date) {
      provider.last_whole = row.trade_date;
    }
  }
  std::vector<ProviderLedger> out;
  for (auto& [name, provider] : by_name) {
    out.push_back(std::move(provider));
  }
  return out;
}

} // namespace

LedgerStatus ledger_status(store::BarStore& store, std::chrono::system_clock::time_point now) {
  store::ReadTransaction snapshot(store);
  LedgerStatus status;
  status.providers = providers_of(store.market().load_ledger(""));
  status.calendar = store.market().load_calendar_span();
  if (auto last = last_completed_day(store, now)) {
    status.last_completed = *last;
  }
  for (auto& provider : status.providers) {
    if (status.last_completed) {
      const auto since = provider.last_whole ? provider.last_whole->plus_days(1) : *provider.first;
      provider.days_behind = static_cast<std::int64_t>(
          store.market().load_open_days(since, *status.last_completed).size());
    }
  }
  for (const auto& listing : store.market().load_listings()) {
    ++status.listings;
    status.delisted += listing.status == 'D' ? 1 : 0;
  }
  const auto fed_by = [&status](const char* name) {
    return std::any_of(status.providers.begin(), status.providers.end(),
                       [name](const ProviderLedger& provider) { return provider.provider == name; });
  };
  status.survivorship_biased = fed_by("tdx") && !fed_by("tushare-pro") && status.delisted == 0;
  const auto as_of = store.load_dataset_info().as_of;
  if (as_of) {
    const auto after = as_of->plus_days(1);
    for (const auto& symbol : store.load_symbols()) {
      if (after <= symbol.last_date) {
        status.bars_after_as_of += static_cast<std::int64_t>(
            store.load_bars(symbol.symbol, after, symbol.last_date, domain::SortOrder::asc, 100000).size());
      }
    }
  }
  return status;
}

} // namespace ashare::fetch
