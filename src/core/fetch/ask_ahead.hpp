// Asking a source for a run's units ahead of their writing (D18, issue 32): one thread asks for
// each unit in turn, so there is still one request in flight, and keeps up to `depth` answers
// waiting. The writing never waits for the source while the source is faster, and the source never
// waits for the writing of a unit it has already answered. What the asking tells as it goes (a
// wait for the source's window) is handed to the taking thread, so that a run reports from one.
#pragma once

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

template <class Item, class Asked, class Note>
class AskAhead {
public:
  // What the asking calls to tell something (from its own thread).
  using Tell = std::function<void(Note)>;
  // What the taking thread is handed each note told with.
  using Told = std::function<void(const Note&)>;

  // Ask `ask(item, tell)` for each of `items` in order, on a thread of its own, keeping at most
  // `depth` answers not yet taken; stop after an answer for which `last(answer)` holds.
  AskAhead(std::vector<Item> items,
           std::size_t depth,
           std::function<Asked(const Item&, const Tell&)> ask,
           std::function<bool(const Asked&)> last)
      : m_items(std::move(items)), m_depth(depth), m_ask(std::move(ask)), m_last(std::move(last)),
        m_thread([this] { run(); }) {}

  AskAhead(const AskAhead&) = delete;
  AskAhead& operator=(const AskAhead&) = delete;

  // Stop asking; wait for the item being asked for.
  ~AskAhead() {
    {
      std::lock_guard lock(m_mutex);
      m_stopping = true;
    }
    m_changed.notify_all();
    m_thread.join();
  }

  // Return the next item's answer, waiting for it, and hand each note told before it to `told`
  // here, in order; nullopt once every item asked for was taken. What asking threw is thrown here,
  // once the answers before it are taken.
  std::optional<Asked> take(const Told& told = {}) {
    std::unique_lock lock(m_mutex);
    for (;;) {
      m_changed.wait(lock, [this] { return !m_notes.empty() || !m_answers.empty() || m_done; });
      if (!hand_notes(lock, told)) {
        break;
      }
    }
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
  // none to come: taking then returns at once); notes told meanwhile go to `told`.
  bool at_hand_within(std::chrono::steady_clock::duration wait, const Told& told = {}) {
    const auto deadline = std::chrono::steady_clock::now() + std::max(wait, std::chrono::steady_clock::duration::zero());
    std::unique_lock lock(m_mutex);
    for (;;) {
      const bool ready = m_changed.wait_until(lock, deadline, [this] {
        return !m_notes.empty() || !m_answers.empty() || m_done;
      });
      if (!ready) {
        return false;
      }
      if (!hand_notes(lock, told)) {
        return true;
      }
    }
  }

private:
  // Hand the notes waiting to `told`, without the lock; return whether there were any.
  bool hand_notes(std::unique_lock<std::mutex>& lock, const Told& told) {
    if (m_notes.empty()) {
      return false;
    }
    auto notes = std::exchange(m_notes, {});
    lock.unlock();
    for (const auto& note : notes) {
      if (told) {
        told(note);
      }
    }
    lock.lock();
    return true;
  }

  void tell(Note note) {
    {
      std::lock_guard lock(m_mutex);
      m_notes.push_back(std::move(note));
    }
    m_changed.notify_all();
  }

  void run() {
    const Tell tell = [this](Note note) { this->tell(std::move(note)); };
    for (const auto& item : m_items) {
      {
        std::unique_lock lock(m_mutex);
        m_changed.wait(lock, [this] { return m_answers.size() < m_depth || m_stopping; });
        if (m_stopping) {
          break;
        }
      }
      std::optional<Asked> answer;
      try {
        answer = m_ask(item, tell);
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

  std::vector<Item> m_items;
  std::size_t m_depth;
  std::function<Asked(const Item&, const Tell&)> m_ask;
  std::function<bool(const Asked&)> m_last;
  std::mutex m_mutex;
  std::condition_variable m_changed;
  std::deque<Asked> m_answers;
  std::deque<Note> m_notes;
  bool m_stopping = false;
  bool m_done = false;
  std::exception_ptr m_thrown;
  std::thread m_thread; // last: started once the members it uses are
};

} // namespace ashare::fetch
