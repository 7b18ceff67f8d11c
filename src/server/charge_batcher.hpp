// Group commit for credit charges (D7, issue 9): metered requests hand their charge here from the
// network threads; one job at a time on the worker pool takes every charge queued and applies
// them in one transaction of the key store (api::apply_charges), then gives each request its
// response. One SQLite commit then serves many requests, and the process never has two writers
// of the key store racing for its lock.
#pragma once

#include "core/api/dispatch.hpp"

#include <utility>
#include <boost/asio/thread_pool.hpp>
#include <functional>
#include <mutex>
#include <vector>

namespace ashare::server {

class ChargeBatcher {
public:
  using Resume = std::function<void(api::Response response)>;

  // Apply charges against `services` on `workers`.
  ChargeBatcher(api::Services& services, boost::asio::thread_pool& workers)
    : m_services(services), m_workers(workers) {}

  // Queue `charge`; `resume` receives the request's response, on a worker thread. Thread-safe.
  void submit(api::ChargeNeeded charge, Resume resume);

private:
  struct Pending {
    api::ChargeNeeded charge;
    Resume resume;
  };
  // Apply what is queued, batch after batch, until the queue is empty.
  void run();

  api::Services& m_services;
  boost::asio::thread_pool& m_workers;
  std::mutex m_mutex;
  std::vector<Pending> m_queue;
  bool m_running = false; // a job is applying batches
};

} // namespace ashare::server
