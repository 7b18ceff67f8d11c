// Group commit for credit charges (D7, issue 9): metered requests hand their charge here from the
// network threads; one job at a time on the worker pool takes every charge queued and applies
// them in one transaction of the key store (api::apply_charges), then hands each result back.
// One SQLite commit then serves many requests, and the process never has two writers of the key
// store racing for its lock. The responses are rendered by whoever receives the results (the
// connections, on their own threads), not on the job's one thread.
#pragma once

#include "core/api/dispatch.hpp"

#include <utility>
#include <boost/asio/thread_pool.hpp>
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

  // Apply charges against `services` on `workers`.
  ChargeBatcher(api::Services& services, boost::asio::thread_pool& workers)
    : m_services(services), m_workers(workers) {}

  // Queue `charge`; `done` receives its result, on a worker thread. Thread-safe.
  void submit(store::ChargeRequest charge, Done done);

private:
  // Apply what is queued, batch after batch, until the queue is empty.
  void run();

  api::Services& m_services;
  boost::asio::thread_pool& m_workers;
  std::mutex m_mutex;
  std::vector<store::ChargeRequest> m_charges; // queued, with their callbacks beside
  std::vector<Done> m_done;
  bool m_running = false; // a job is applying batches
};

} // namespace ashare::server
