// How a process keeps its change counters (store/change_counter.hpp) current with a store that
// other processes change, whatever the backend: a store file's counter is shared memory, which
// every writer bumps, so there is nothing to watch; a store on a database server gets a counter in
// this process's memory and a watch that hears the server's notifications and bumps it
// (store/postgres/change_listener.hpp). The API's services (api/services.hpp) reach both through
// here, without naming a backend.
#pragma once

#include "core/store/change_counter.hpp"

#include <memory>
#include <string>
#include <string_view>

namespace ashare::store {

// Which of a deployment's stores a counter follows: each has its own notification channel.
enum class WatchedStore { bars, keys };

// A running watch; destroying it stops it.
class ChangeWatch {
public:
  virtual ~ChangeWatch() = default;
};

// Return whether `locator` (store/locator.hpp) names a store on a database server, which can be
// unreachable (D15), rather than a file.
bool is_on_server(std::string_view locator);

// Return the change counter of the store at `locator`: its file's shared counter, or one in this
// process's memory for a store on a database server.
ChangeCounter open_change_counter(const std::string& locator);

// Return a watch that bumps `counter` (which must outlive it) whenever `which` store at `locator`
// changes, or nullptr for a store file (its counter needs no watch). Failures to connect are
// retried inside the watch, never thrown.
std::unique_ptr<ChangeWatch> watch_changes(const std::string& locator, WatchedStore which,
                                           ChangeCounter& counter);

} // namespace ashare::store
