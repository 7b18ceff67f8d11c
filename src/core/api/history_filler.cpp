#include "core/api/history_filler.hpp"

namespace ashare::api {

HistoryFiller::~HistoryFiller() {
  {
    std::lock_guard lock(m_mutex);
    m_stopping = true;
    m_jobs.clear();
  }
  m_changed.notify_all();
  if (m_thread.joinable()) {
    m_thread.join();
  }
}

void HistoryFiller::request(const std::string& symbol,
                            double latest_factor,
                            HistoryForm form,
                            std::int64_t generation) {
  if (form == HistoryForm::none) {
    return;
  }
  {
    std::lock_guard lock(m_mutex);
    if (m_stopping || m_jobs.size() >= k_max_pending || !m_asked.insert(symbol).second) {
      return;
    }
    m_jobs.push_back(Job{symbol, latest_factor, form, generation});
    if (!m_thread.joinable()) {
      m_thread = std::thread([this] { run(); });
    }
  }
  m_changed.notify_all();
}

void HistoryFiller::wait_idle() {
  std::unique_lock lock(m_mutex);
  m_changed.wait(lock, [this] { return m_jobs.empty() && !m_busy; });
}

std::size_t HistoryFiller::pending() {
  std::lock_guard lock(m_mutex);
  return m_jobs.size() + (m_busy ? 1 : 0);
}

HistoryFiller::Hold::Hold(HistoryFiller& filler) : m_filler(filler) {
  std::lock_guard lock(m_filler.m_mutex);
  ++m_filler.m_holds;
}

HistoryFiller::Hold::~Hold() {
  {
    std::lock_guard lock(m_filler.m_mutex);
    --m_filler.m_holds;
  }
  m_filler.m_changed.notify_all();
}

void HistoryFiller::run() {
  std::unique_lock lock(m_mutex);
  while (true) {
    m_changed.wait(lock, [this] { return m_stopping || (!m_jobs.empty() && m_holds == 0); });
    if (m_stopping) {
      return;
    }
    const Job job = std::move(m_jobs.front());
    m_jobs.pop_front();
    m_busy = true;
    lock.unlock();
    load(job);
    lock.lock();
    m_busy = false;
    m_asked.erase(job.symbol);
    m_changed.notify_all();
  }
}

void HistoryFiller::load(const Job& job) noexcept {
  try {
    auto store = m_pool.acquire();
    store::ReadTransaction snapshot(*store);
    // An import committed since the request: its catalog (and latest factor) is no longer the
    // store's. The next request asks again, at the new generation.
    if (store->load_generation() != job.generation) {
      return;
    }
    if (job.form == HistoryForm::rendered) {
      m_histories.find_or_load(*store, job.symbol, job.latest_factor, job.generation);
    } else if (!m_histories.find(job.symbol, job.generation)) {
      m_histories.find_or_load_compact(*store, job.symbol, job.generation); // never over a rendered one
    }
  } catch (...) {
    // The store out of reach (D15) or a failed read: the requests go on reading their rows, and
    // a later one asks again.
  }
}

} // namespace ashare::api
