// Loading histories into the HistoryCache off the request path (issue 35): a request that finds
// its symbol worth caching (HistoryCache::admit, worth_rendering) asks for it here and is answered
// meanwhile as if it were not, by the bounded read of its rows or from the compact form. One
// thread loads each asked history once, inside a read snapshot of its own, and keeps it only while
// the store is still at the generation it was asked at; so no request waits for a fill, and a
// market-sized store answers a symbol's second request as fast as a small one.
#pragma once

#include "core/api/history_cache.hpp"
#include "core/store/bar_store.hpp"
#include "core/store/connection_pool.hpp"

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_set>

namespace ashare::api {

class HistoryFiller {
public:
  // Load through `pool` into `histories`; the thread starts with the first request.
  HistoryFiller(store::ConnectionPool<store::BarStore>& pool, HistoryCache& histories)
    : m_pool(pool), m_histories(histories) {}
  // Stop after the load under way, dropping what is still asked.
  ~HistoryFiller();
  HistoryFiller(const HistoryFiller&) = delete;
  HistoryFiller& operator=(const HistoryFiller&) = delete;

  // The most histories asked and not yet loaded (a whole market's, asked at a server's start);
  // more are dropped, and a later request asks again.
  static constexpr std::size_t k_max_pending = 16384;

  // Ask for the history of `symbol` in `form` (compact or rendered) at store `generation`, whose
  // latest factor is `latest_factor` (D8); return at once. A symbol already asked is not asked
  // twice. Thread-safe.
  void request(const std::string& symbol,
               double latest_factor,
               HistoryForm form,
               std::int64_t generation);

  // Wait until every history asked so far is loaded or dropped (for tests and benchmarks).
  void wait_idle();

  // Return the histories asked and not yet loaded or dropped, the one under way included.
  std::size_t pending();

  // Keeps loads from starting while it lives (the one under way finishes), so that a test can see
  // what a request does without a load racing it.
  class Hold {
  public:
    explicit Hold(HistoryFiller& filler);
    ~Hold();
    Hold(const Hold&) = delete;
    Hold& operator=(const Hold&) = delete;

  private:
    HistoryFiller& m_filler;
  };

private:
  struct Job {
    std::string symbol;
    double latest_factor = 0;
    HistoryForm form = HistoryForm::none;
    std::int64_t generation = 0;
  };
  void run();
  // Load `job` into the cache when the store is still at its generation; never throws.
  void load(const Job& job) noexcept;

  store::ConnectionPool<store::BarStore>& m_pool;
  HistoryCache& m_histories;
  std::mutex m_mutex;
  std::condition_variable m_changed;
  std::deque<Job> m_jobs;
  std::unordered_set<std::string> m_asked; // the symbols of m_jobs and of the job under way
  bool m_busy = false;                     // a job is under way
  int m_holds = 0;                         // live Hold objects
  bool m_stopping = false;
  std::thread m_thread;
};

} // namespace ashare::api
