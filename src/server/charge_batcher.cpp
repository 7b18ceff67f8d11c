#include "server/charge_batcher.hpp"

#include <boost/asio/post.hpp>
#include <algorithm>

namespace ashare::server {

void ChargeBatcher::submit(store::ChargeRequest charge, boost::asio::io_context& home, Done done) {
  const auto now = m_now();
  bool start = false;
  bool full = false;
  {
    std::lock_guard lock(m_mutex);
    m_window.count(now);
    m_charges.push_back(charge);
    m_waiting.push_back(Waiting{&home, std::move(done)});
    start = !std::exchange(m_running, true);
    full = m_charges.size() == BatchWindow::k_full;
  }
  if (full) {
    m_full.notify_one();
  }
  if (start) {
    boost::asio::post(m_workers, [this] { run(); });
  }
}

void ChargeBatcher::gather(std::unique_lock<std::mutex>& lock) {
  // The job holds its worker thread while it waits, as it does during the transaction.
  const auto wait = std::min(m_max_wait, m_window.wait_for(m_charges.size()));
  if (wait > wait.zero()) {
    m_full.wait_for(lock, wait, [this] { return m_charges.size() >= BatchWindow::k_full; });
  }
}

void ChargeBatcher::run() {
  std::vector<store::ChargeRequest> charges;
  std::vector<Waiting> waiting;
  while (true) {
    {
      std::unique_lock lock(m_mutex);
      if (m_charges.empty()) {
        m_running = false;
        return;
      }
      gather(lock);
      charges.swap(m_charges);
      waiting.swap(m_waiting);
    }
    std::vector<store::ChargeResult> results;
    bool unreachable = false;
    try {
      results = api::apply_charges(m_services, charges);
    } catch (const std::exception& error) {
      unreachable = api::is_store_unreachable(error);
      m_services.log_error(std::string("charging credits: ") + error.what());
    }
    hand_back(std::move(waiting), results, unreachable);
    charges.clear();
    waiting = {};
  }
}

void ChargeBatcher::hand_back(std::vector<Waiting> waiting,
                              const std::vector<store::ChargeResult>& results,
                              bool unreachable) {
  // Group by home, keeping each home's order: a network thread or two, so a scan per home.
  struct Handed {
    Done done;
    std::optional<store::ChargeResult> result;
  };
  std::vector<bool> taken(waiting.size(), false);
  for (std::size_t first = 0; first < waiting.size(); ++first) {
    if (taken[first]) {
      continue;
    }
    auto* home = waiting[first].home;
    std::vector<Handed> handed;
    for (std::size_t i = first; i < waiting.size(); ++i) {
      if (!taken[i] && waiting[i].home == home) {
        taken[i] = true;
        handed.push_back(Handed{std::move(waiting[i].done),
                                results.empty() ? std::nullopt : std::optional(results[i])});
      }
    }
    boost::asio::post(*home, [handed = std::move(handed), unreachable]() mutable {
      for (auto& each : handed) {
        each.done(each.result, unreachable);
      }
    });
  }
}

} // namespace ashare::server
