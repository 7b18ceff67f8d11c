#include "core/fetch/references.hpp"

#include <algorithm>
#include <map>

namespace ashare::fetch {
namespace {

void save_calendar(store::BarStore& store, const std::vector<CalendarSpan>& spans) {
  if (spans.empty()) {
    return;
  }
  store::WriteTransaction transaction(store);
  for (const auto& span : spans) {
    store.market().save_calendar(span.first, span.last, span.open_days);
  }
  transaction.commit();
}

bool same_listing(const store::Listing& a, const store::Listing& b) {
  return a.name == b.name && a.list_date == b.list_date && a.delist_date == b.delist_date
         && a.status == b.status && a.kind == b.kind;
}

void save_listings(store::BarStore& store, const std::vector<store::Listing>& listings) {
  std::map<std::string, store::Listing> stored;
  for (auto& listing : store.market().load_listings()) {
    auto symbol = listing.symbol;
    stored.emplace(std::move(symbol), std::move(listing));
  }
  store::WriteTransaction transaction(store);
  for (const auto& listing : listings) {
    const auto it = stored.find(listing.symbol);
    if (it == stored.end() || !same_listing(it->second, listing)) {
      store.market().save_listing(listing);
    }
  }
  transaction.commit();
}

// Return how many aliases changed.
std::size_t save_aliases(store::BarStore& store, const std::vector<store::CodeAlias>& aliases) {
  const auto stored = store.market().load_aliases();
  std::vector<store::CodeAlias> changed;
  for (const auto& alias : aliases) {
    if (std::find(stored.begin(), stored.end(), alias) == stored.end()) {
      changed.push_back(alias);
    }
  }
  if (changed.empty()) {
    return 0;
  }
  store::WriteTransaction transaction(store);
  for (const auto& alias : changed) {
    store.market().save_alias(alias);
  }
  store.finish_change("");
  transaction.commit();
  return changed.size();
}

} // namespace

std::vector<std::string> save_references(store::BarStore& store, const References& references) {
  std::vector<std::string> said;
  save_calendar(store, references.calendar);
  if (references.listings) {
    save_listings(store, *references.listings);
  }
  if (references.aliases) {
    if (const auto changed = save_aliases(store, *references.aliases); changed > 0) {
      said.push_back("the Beijing code aliases changed for " + std::to_string(changed)
                     + (changed == 1 ? " code" : " codes") + " (" + references.aliases_from + ")");
    }
  }
  return said;
}

} // namespace ashare::fetch
