// store::ChangeCounter and who bumps it (issue 9): a counter beside each store, shared by every
// process through a mapping, bumped after the commits a server must see at once: imports and
// removals (data), keys created or revoked (keys), never charges or credits.
#include "testutil.hpp"

#include "core/store/change_counter.hpp"
#include "core/store/sqlite_bar_store.hpp"

#include <doctest/doctest.h>
#include <sys/stat.h>

using namespace ashare;

TEST_CASE("store::ChangeCounter: two mappings of one store see each other's bumps") {
  test::TempDir dir;
  const auto store_path = dir / "ashare.db";
  store::ChangeCounter first(store_path);
  store::ChangeCounter second(store_path);
  REQUIRE(first.load().has_value());
  const auto start = *first.load();
  CHECK(second.load() == start);
  second.bump();
  CHECK(first.load() == start + 1);
  first.bump();
  first.bump();
  CHECK(second.load() == start + 3);
  CHECK(std::filesystem::file_size(store::ChangeCounter::path_for(store_path)) == 8);
  CHECK(store::ChangeCounter::path_for(store_path) == dir / "ashare.db-changes");
}

TEST_CASE("store::ChangeCounter: unavailable when the file cannot be made, and bump does nothing") {
  test::TempDir dir;
  test::write_file(dir / "a-file", "x");
  store::ChangeCounter counter(dir / "a-file" / "ashare.db"); // a directory that is a file
  CHECK_FALSE(counter.load().has_value());
  counter.bump();
  CHECK_FALSE(counter.load().has_value());
}

TEST_CASE("store::ChangeCounter: a reader without write access still loads it") {
  test::TempDir dir;
  const auto store_path = dir / "ashare.db";
  store::ChangeCounter writer(store_path);
  writer.bump();
  const auto file = store::ChangeCounter::path_for(store_path);
  REQUIRE(::chmod(file.c_str(), 0444) == 0);
  if (::geteuid() == 0) {
    // root opens read-only files for writing anyway: nothing more to see here
    return;
  }
  store::ChangeCounter reader(store_path);
  CHECK(reader.load() == writer.load());
  reader.bump(); // no effect, no crash
  CHECK(reader.load() == writer.load());
}

TEST_CASE("store::LastCheck: holds while the counter stands still, for under a second") {
  using Clock = std::chrono::steady_clock;
  const auto t0 = Clock::now();
  const store::LastCheck check{5, t0};
  CHECK(check.holds(5, t0));
  CHECK(check.holds(5, t0 + std::chrono::milliseconds(999)));
  CHECK_FALSE(check.holds(5, t0 + store::k_recheck_interval));
  CHECK_FALSE(check.holds(6, t0));
  CHECK_FALSE(check.holds(std::nullopt, t0));
  CHECK_FALSE(store::LastCheck{}.holds(5, t0));
}

TEST_CASE("store: commits that a server must see bump the store's counter, and only those") {
  test::TempDir dir;
  const auto data_path = dir / "ashare.db";
  const auto keys_path = dir / "ashare-keys.db";
  store::ChangeCounter data(data_path);
  store::ChangeCounter keys_changes(keys_path);
  const auto data_at = [&] { return data.load().value(); };
  const auto keys_at = [&] { return keys_changes.load().value(); };

  SUBCASE("an import and a removal bump the data store's") {
    store::SqliteBarStore bars(data_path);
    const auto before = data_at();
    test::import_text(bars, "symbol,trade_date,open,high,low,close,volume,turnover,factor\n"
                            "600519.SH,2024-01-02,10,11,9,10.5,100,1050,1\n");
    CHECK(data_at() > before);
    const auto imported = data_at();
    {
      store::WriteTransaction transaction(bars);
      bars.delete_bars("600519.SH", test::date("2024-01-01"), test::date("2024-12-31"));
      bars.refresh_symbol("600519.SH");
      bars.finish_change("");
      transaction.commit();
    }
    CHECK(data_at() == imported + 1);
    {
      store::WriteTransaction rolled_back(bars); // not committed: nothing to announce
    }
    CHECK(data_at() == imported + 1);
  }
  SUBCASE("creating and revoking a key bump the key store's and its generation") {
    store::SqliteKeyStore keys(keys_path);
    const auto generation = keys.load_generation();
    const auto before = keys_at();
    const auto key = test::create_key(keys_path, auth::Plan::basic, 10);
    CHECK(keys_at() > before);
    CHECK(keys.load_generation() > generation);
    const auto created = keys_at();
    const auto generation_created = keys.load_generation();

    // Charges and credits move balances only: no bump, the same generation.
    CHECK(keys.charge(key.id, 3) == 7);
    CHECK(keys.add_credits(key.id, 5) == 12);
    const store::ChargeRequest charge{key.id, 2};
    CHECK(keys.charge_batch(std::span(&charge, 1)).front().balance == 10);
    CHECK(keys_at() == created);
    CHECK(keys.load_generation() == generation_created);

    CHECK(keys.revoke(key.id, "2024-02-01T00:00:00Z"));
    CHECK(keys_at() == created + 1);
    CHECK(keys.load_generation() == generation_created + 1);
    CHECK_FALSE(keys.revoke(key.id, "2024-02-02T00:00:00Z")); // already revoked: no change
    CHECK(keys_at() == created + 1);
  }
}
