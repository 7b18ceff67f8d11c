// A change counter beside a store file (`<store>-changes`, 8 bytes), mapped into memory by every
// process that uses the store. Writers bump it after each commit that readers must see at once
// (an import, a removal, a key created or revoked); a server loads it once per request, an atomic
// read of shared memory, and goes to SQLite only when it moved. Reading the store's generation row
// instead costs a read transaction, about 3.6 µs, most of it two fcntl locks on the WAL index.
//
// The counter is a hint: the generation rows inside the stores stay authoritative, and readers
// re-check them at least once a second (k_recheck_interval) in case a writer died between its
// commit and its bump, or could not open the counter file.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>

namespace ashare::store {

// How long a reader may trust an unchanged counter before reading the store's generation anyway.
inline constexpr std::chrono::milliseconds k_recheck_interval{1000};

class ChangeCounter {
public:
  // Open (creating when missing) and map the counter of the store at `store_path`. A counter that
  // cannot be opened or mapped is unavailable: load() returns nullopt and bump() does nothing.
  explicit ChangeCounter(const std::filesystem::path& store_path);
  // A counter in this process's memory only, for a store on a database server (issue 14), which
  // tells other processes of a commit itself (LISTEN/NOTIFY); whoever hears of it bumps this.
  ChangeCounter();
  ~ChangeCounter();
  ChangeCounter(const ChangeCounter&) = delete;
  ChangeCounter& operator=(const ChangeCounter&) = delete;

  // Return the counter's value, or nullopt when it is unavailable.
  std::optional<std::uint64_t> load() const;

  // Add one to the counter (after the commit it announces).
  void bump();

  // Return the counter file's path for the store at `store_path`.
  static std::filesystem::path path_for(const std::filesystem::path& store_path);

private:
  std::uint64_t* m_word = nullptr; // in a MAP_SHARED mapping or m_local; through std::atomic_ref
  bool m_writable = false;
  bool m_mapped = false;
  alignas(std::uint64_t) std::uint64_t m_local = 0;
};

// When a cache of a store's contents last read the store's generation, and the counter's value
// read just before (so that a bump after it is seen by the next check).
struct LastCheck {
  using Clock = std::chrono::steady_clock;
  std::optional<std::uint64_t> counter; // nullopt: never checked, or the counter is unavailable
  Clock::time_point at{};

  // Return whether this check still holds at `now`, the counter reading `current`: the counter
  // has not moved and the check is younger than k_recheck_interval.
  bool holds(std::optional<std::uint64_t> current, Clock::time_point now) const {
    return counter && current && *counter == *current && now - at < k_recheck_interval;
  }
};

} // namespace ashare::store
