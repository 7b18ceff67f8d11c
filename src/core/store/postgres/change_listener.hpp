// Hears a PostgreSQL notification channel (LISTEN) in a thread of its own, on a connection of
// its own, and bumps a process-local change counter for each notification (issue 14): how a
// `serve` replica learns within a moment that a key was revoked on another host. After each
// (re)connection it bumps too, as what changed while it was away is unknown. Readers still re-read
// the authoritative generation row at least every k_recheck_interval (store/change_counter.hpp),
// which covers a notification lost with a connection.
#pragma once

#include "core/store/change_counter.hpp"
#include "core/store/change_watch.hpp"

#include <string>
#include <thread>

namespace ashare::store::postgres {

class ChangeListener final : public ChangeWatch {
public:
  // Listen on `channel` of the database at `uri`, bumping `counter` (which must outlive this).
  // Connection failures are retried every few hundred milliseconds, never thrown.
  ChangeListener(std::string uri, std::string channel, ChangeCounter& counter);
  ~ChangeListener() override; // stops listening (within k_poll_interval)
  ChangeListener(const ChangeListener&) = delete;
  ChangeListener& operator=(const ChangeListener&) = delete;

  // How long the thread waits at most before it looks whether it must stop.
  static constexpr int k_poll_interval_ms = 100;

private:
  void run(const std::stop_token& stop);

  std::string m_uri;
  std::string m_channel;
  ChangeCounter& m_counter;
  std::jthread m_thread; // last: started once the members it reads are set
};

} // namespace ashare::store::postgres
