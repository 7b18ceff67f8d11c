// What a server pays per request to know that its memory of the stores is current (issue 9's
// target: at most one cheap read, under 2 µs): the change counters it reads (two atomic loads of
// shared memory) against the read it replaces, the data store's generation row through SQLite
// (a read transaction: two fcntl locks on the WAL index). Also the whole in-memory first step of
// a warm bars request, for scale. Prints each figure and the ratio; asserts nothing.
//
// Usage: ashare_bench_freshness [ROUNDS]   (default 200000)
#include "core/api/dispatch.hpp"
#include "core/api/services.hpp"
#include "core/auth/api_key.hpp"
#include "core/store/sqlite_bar_store.hpp"
#include "core/store/change_counter.hpp"
#include "core/store/sqlite_key_store.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <unistd.h>
#include <variant>

namespace {

using namespace ashare;
using Clock = std::chrono::steady_clock;

template <class F> double nanoseconds_per_call(int rounds, F&& call) {
  std::uint64_t sink = 0;
  for (int i = 0; i < rounds / 10; ++i) { // warm up
    sink += call();
  }
  const auto start = Clock::now();
  for (int i = 0; i < rounds; ++i) {
    sink += call();
  }
  const double ns = std::chrono::duration<double, std::nano>(Clock::now() - start).count();
  if (sink == 42) {
    std::puts(""); // keep `sink` alive
  }
  return ns / rounds;
}

} // namespace

int main(int argc, char** argv) {
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 200000;
  const auto dir = std::filesystem::temp_directory_path()
                   / ("ashare-bench-freshness-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto data = dir / "ashare.db";
  const auto keys_path = dir / "ashare-keys.db";
  {
    store::SqliteBarStore store(data);
    store::WriteTransaction transaction(store);
    for (int day = 2; day <= 31; ++day) {
      const auto date = domain::Date::from_ymd(2024, 1, static_cast<unsigned>(day)).value();
      store.upsert_bar("600000.SH", domain::Bar{date, 10, 11, 9, 10.5, 100, 1050, 0, 1}, true);
    }
    store.recompute_change_pct("600000.SH");
    store.refresh_symbol("600000.SH");
    store.finish_change("bench");
    transaction.commit();
  }
  std::string key;
  {
    store::SqliteKeyStore keys(keys_path);
    auth::SystemRandom random;
    const auto generated = auth::generate_key(random);
    keys.insert_key(store::NewKeyRecord{generated.prefix, auth::key_digest(generated.plaintext),
                                        "bench", auth::Plan::pro, std::nullopt, "2024-01-01"});
    key = generated.plaintext;
  }

  store::ChangeCounter data_changes(data);
  store::ChangeCounter keys_changes(keys_path);
  store::SqliteBarStore reader(data);
  const double counters = nanoseconds_per_call(rounds, [&] {
    return data_changes.load().value_or(0) + keys_changes.load().value_or(0);
  });
  const double generation_row = nanoseconds_per_call(rounds, [&] {
    return static_cast<std::uint64_t>(reader.load_generation());
  });

  api::Services services(data, keys_path);
  const api::Request request{"GET", "/v1/ohlc/range/1/day/2024-01-01/2024-01-31",
                             "symbol=600000.SH", "Bearer " + key};
  // Warm: the catalog and the key in memory, and the history, which is kept from a symbol's
  // second request on and loaded off the requests' path (HistoryCache::admit, issue 35).
  for (int i = 0; i < 2; ++i) {
    (void)api::dispatch(request, services);
    services.filler.wait_idle();
  }
  int deferred = 0;
  const double first_step = nanoseconds_per_call(rounds / 10, [&] {
    auto step = api::dispatch_in_memory(request, services);
    if (auto* waiting = std::get_if<api::Deferred>(&step)) {
      // The memory of the stores is trusted for a second (store::k_recheck_interval): then a
      // request reads their generations on a worker, as a server's would.
      ++deferred;
      return static_cast<std::uint64_t>(
        api::finish_dispatch(request, services, *waiting).body.size());
    }
    return static_cast<std::uint64_t>(std::get<api::Response>(step).body.size());
  });

  std::printf("per request, single thread, %d rounds:\n", rounds);
  std::printf("  change counters (data + keys)    %8.1f ns\n", counters);
  std::printf("  generation row read (SQLite)     %8.1f ns   %.0fx the counters\n",
              generation_row, generation_row / counters);
  std::printf("  whole in-memory first step       %8.1f ns   (a warm 21-bar bars request; %d of "
              "them finished on a worker)\n",
              first_step, deferred);
  std::filesystem::remove_all(dir);
  return 0;
}
