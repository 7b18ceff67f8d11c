#include "core/store/change_watch.hpp"

#include "core/store/locator.hpp"
#include "core/store/postgres/change_listener.hpp"

namespace ashare::store {
namespace {

// The channels the PostgreSQL stores NOTIFY after a commit (store/postgres/schema.cpp).
const char* channel_of(WatchedStore which) {
  return which == WatchedStore::bars ? "ashare_bars" : "ashare_keys";
}

} // namespace

bool is_on_server(std::string_view locator) {
  return is_postgres_locator(locator);
}

ChangeCounter open_change_counter(const std::string& locator) {
  return is_on_server(locator) ? ChangeCounter() : ChangeCounter(locator);
}

std::unique_ptr<ChangeWatch> watch_changes(const std::string& locator, WatchedStore which,
                                           ChangeCounter& counter) {
  if (!is_on_server(locator)) {
    return nullptr;
  }
  return std::make_unique<postgres::ChangeListener>(locator, channel_of(which), counter);
}

} // namespace ashare::store
