// Asking a source for the days of a plan ahead of their writing (D18, issue 32): one thread asks
// for each day in turn, so there is still one request in flight, and keeps up to `depth` answers
// waiting. The writing never waits for the source while the source is faster, and the source
// never waits for the writing of a day it has already answered.
#pragma once

#include "core/domain/date.hpp"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>
#include <vector>

namespace ashare::fetch {

template <class Answer>
class Ahead {
public:
  // Ask `ask(day)` for each of `days` in order, on a thread of its own, keeping at most `depth`
  // answers not yet taken; stop after an answer for which `last(answer)` holds.
  Ahead(std::vector<domain::Date> days,
        std::size_t depth,
        std::function<Answer(domain::Date)> ask,
        std::function<bool(const Answer&)> last)
      : m_days(std::move(days)), m_depth(depth), m_ask(std::move(ask)), m_last(std::move(last)),
        m_thread([this] { run(); }) {}

  Ahead(const Ahead&) = delete;
  Ahead& operator=(const Ahead&) = delete;

  // Stop asking; wait for the day being asked for.
  ~Ahead() {
    {
      std::lock_guard lock(m_mutex);
      m_stopping = true;
    }
    m_changed.notify_all();
    m_thread.join();
  }

  // Return the next day's answer, waiting for it; nullopt once every day asked for was taken.
  // What asking threw is thrown here, once the answers before it are taken.
  std::optional<Answer> take() {
    std::unique_lock lock(m_mutex);
    m_changed.wait(lock, [this] { return !m_answers.empty() || m_done; });
    if (m_answers.empty()) {
      if (m_thrown) {
        std::rethrow_exception(std::exchange(m_thrown, nullptr));
      }
      return std::nullopt;
    }
    auto answer = std::move(m_answers.front());
    m_answers.pop_front();
    lock.unlock();
    m_changed.notify_all();
    return answer;
  }

  // Return whether the next answer is at hand, or comes within `wait` (also true once there is
  // none to come: taking then returns at once).
  bool at_hand_within(std::chrono::steady_clock::duration wait) {
    std::unique_lock lock(m_mutex);
    return m_changed.wait_for(lock, std::max(wait, std::chrono::steady_clock::duration::zero()),
                              [this] { return !m_answers.empty() || m_done; });
  }

private:
  void run() {
    for (const auto& day : m_days) {
      {
        std::unique_lock lock(m_mutex);
        m_changed.wait(lock, [this] { return m_answers.size() < m_depth || m_stopping; });
        if (m_stopping) {
          break;
        }
      }
      std::optional<Answer> answer;
      try {
        answer = m_ask(day);
      } catch (...) {
        std::lock_guard lock(m_mutex);
        m_thrown = std::current_exception();
        break;
      }
      const bool last = m_last(*answer);
      {
        std::lock_guard lock(m_mutex);
        m_answers.push_back(std::move(*answer));
      }
      m_changed.notify_all();
      if (last) {
        break;
      }
    }
    {
      std::lock_guard lock(m_mutex);
      m_done = true;
    }
    m_changed.notify_all();
  }

  std::vector<domain::Date> m_days;
  std::size_t m_depth;
  std::function<Answer(domain::Date)> m_ask;
  std::function<bool(const Answer&)> m_last;
  std::mutex m_mutex;
  std::condition_variable m_changed;
  std::deque<Answer> m_answers;
  bool m_stopping = false;
  bool m_done = false;
  std::exception_ptr m_thrown;
  std::thread m_thread; // last: started once the members it uses are
};

} // namespace ashare::fetch
