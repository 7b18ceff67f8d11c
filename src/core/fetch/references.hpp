// Keeping a provider's reference tables in the store (D18, D19): what a provider's calendar() and
// references() read (fetch/provider.hpp) written where the plan, the gaps and the series read it.
// The run's one place for the calendar, listings and aliases.
#pragma once

#include "core/fetch/provider.hpp"
#include "core/store/bar_store.hpp"

#include <string>
#include <vector>

namespace ashare::fetch {

// Save what `references` read into `store`: the calendar's spans, the listings that changed (a
// whole market's barely change from one day to the next), the aliases that changed (a change of
// the store: the generation moves, as what either code answers moved). Return what to say of it.
std::vector<std::string> save_references(store::BarStore& store, const References& references);

} // namespace ashare::fetch
