// Group commit for credit charges (D7, issue 9): metered requests hand their charge here from the
// network threads; one job at a time on the worker pool takes every charge queued and applies
// them in one transaction of the key store (api::apply_charges), then hands each result back.
// One SQLite commit then serves many requests, and the process never has two writers of the key
// store racing for its lock. The results go back to each network thread in one handler per batch
// (issue 35: a post per request woke a thread per request), and the responses are rendered
// there, not on the job's one thread. On a key store on a database server, while charges arrive
// fast, a batch waits for the ones on their way (BatchWindow: group commit), so that one
// transaction serves more of them.
#pragma once

#include "core/api/dispatch.hpp"
#include "server/batch_window.hpp"

#include <utility>
#include <boost/asio/io_context.hpp>
#include <boost/asio/thread_pool.hpp>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <optional>
#include <vector>

namespace ashare::server {

class ChargeBatcher {
public:
  // The result of a charge, or nullopt when the store failed (nothing was charged), and then
  // whether it failed because it cannot be reached (D15: 503, else 500).
  using Done = std::function<void(std::optional<store::ChargeResult> result, bool unreachable)>;

  using Now = BatchWindow::Clock::time_point (*)();

  // Apply charges against `services` on `workers`, a batch waiting up to `max_wait` (zero: never)
  // for more while BatchWindow says the server is busy; read the time charges arrive from
  // `now` (tests give a clock of their own, to set the rate BatchWindow sees).
  ChargeBatcher(api::Services& services, boost::asio::thread_pool& workers,
                BatchWindow::Clock::duration max_wait, Now now = &BatchWindow::Clock::now)
    : m_services(services), m_workers(workers), m_max_wait(max_wait), m_now(now) {}

  // Return how long a batch may wait for more on the key store of `services`. On a database
  // server a transaction is a round trip, and a commit and a turn at the key's row lock in
  // processes whose CPU is not ours: worth BatchWindow::k_max_wait (3 replicas on PostgreSQL
  // went from 0.72 to 0.89 of SQLite). On a SQLite file it is tens of microseconds of this
  // process's time, less than the wait would cost its requests (P1m fell from 0.82-0.88 of
  // nginx to 0.70-0.76 with it, docs/performance.md): zero.
  static BatchWindow::Clock::duration max_wait_for(const api::Services& services) {
    return services.keys_on_server() ? BatchWindow::k_max_wait : BatchWindow::Clock::duration::zero();
  }

  // Queue `charge`; `done` receives its result on `home` (a network thread's). Thread-safe.
  void submit(store::ChargeRequest charge, boost::asio::io_context& home, Done done);

private:
  struct Waiting {
    boost::asio::io_context* home;
    Done done;
  };

  // Wait under `lock` for more charges, as long as BatchWindow and m_max_wait say.
  void gather(std::unique_lock<std::mutex>& lock);
  // Apply what is queued, batch after batch, until the queue is empty.
  void run();
  // Hand each of `waiting` its result (`results` empty: the batch failed, `unreachable` says how),
  // posting one handler per home.
  static void hand_back(std::vector<Waiting> waiting,
                        const std::vector<store::ChargeResult>& results,
                        bool unreachable);

  api::Services& m_services;
  boost::asio::thread_pool& m_workers;
  BatchWindow::Clock::duration m_max_wait;
  Now m_now;
  std::mutex m_mutex;
  std::condition_variable m_full; // the queue reached BatchWindow::k_full
  BatchWindow m_window;
  std::vector<store::ChargeRequest> m_charges; // queued, with who waits on each beside
  std::vector<Waiting> m_waiting;
  bool m_running = false; // a job is applying batches
};

} // namespace ashare::server
