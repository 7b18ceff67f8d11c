#include "store_backend.hpp"
#include "testutil.hpp"

#include <doctest/doctest.h>

#include <atomic>
#include <latch>
#include <memory>
#include <thread>
#include <vector>

using namespace ashare;
using auth::Plan;

namespace {

store::NewKeyRecord new_key(std::string_view plaintext,
                            Plan plan,
                            std::optional<std::int64_t> credits,
                            std::string label = "") {
  return store::NewKeyRecord{std::string(plaintext.substr(0, 12)),
                             auth::key_digest(plaintext),
                             std::move(label),
                             plan,
                             credits,
                             "2024-01-01T00:00:00Z"};
}

} // namespace

TEST_CASE("store::KeyStore: keys are found by digest and by id") {
  test::StoreBackend backend;
  const auto store = backend.open_keys();
  auto& keys = *store;
  const auto first = keys.insert_key(new_key("ask_first_key_plaintext", Plan::basic, 20, "ci"));
  const auto second = keys.insert_key(new_key("ask_second_key_plaintext", Plan::pro, std::nullopt));
  CHECK(first != second);

  const auto found = keys.find_by_digest(auth::key_digest("ask_first_key_plaintext"));
  REQUIRE(found.has_value());
  CHECK(found->id == first);
  CHECK(found->prefix == "ask_first_ke");
  CHECK(found->label == "ci");
  CHECK(found->plan == Plan::basic);
  CHECK(found->credits == 20);
  CHECK(found->created_at == "2024-01-01T00:00:00Z");
  CHECK_FALSE(found->revoked_at.has_value());

  const auto unmetered = keys.find_by_id(second);
  REQUIRE(unmetered.has_value());
  CHECK(unmetered->plan == Plan::pro);
  CHECK_FALSE(unmetered->credits.has_value());

  CHECK_FALSE(keys.find_by_digest(auth::key_digest("ask_unknown")).has_value());
  CHECK_FALSE(keys.find_by_id(second + 100).has_value());

  const auto all = keys.load_keys();
  REQUIRE(all.size() == 2);
  CHECK(all[0].id == first);
  CHECK(all[1].id == second);

  SUBCASE("a digest is unique") {
    CHECK_THROWS(keys.insert_key(new_key("ask_first_key_plaintext", Plan::free, 1)));
    CHECK(keys.load_keys().size() == 2);
  }
}

TEST_CASE("D7: store::KeyStore::charge") {
  test::StoreBackend backend;
  const auto store = backend.open_keys();
  auto& keys = *store;
  const auto id = keys.insert_key(new_key("ask_metered", Plan::basic, 3));

  SUBCASE("takes the cost and returns the balance after it") {
    CHECK(keys.charge(id, 2) == 1);
    CHECK(keys.load_balance(id) == 1);
  }
  SUBCASE("a balance below the cost charges nothing") {
    CHECK(keys.charge(id, 2) == 1);
    CHECK_FALSE(keys.charge(id, 2).has_value());
    CHECK(keys.load_balance(id) == 1);
    CHECK(keys.charge(id, 1) == 0);
    CHECK_FALSE(keys.charge(id, 1).has_value());
    CHECK(keys.load_balance(id) == 0); // never negative
  }
  SUBCASE("the whole balance can be spent at once") {
    CHECK_FALSE(keys.charge(id, 4).has_value());
    CHECK(keys.charge(id, 3) == 0);
  }
  SUBCASE("a cost of 0 passes at any balance") {
    CHECK(keys.charge(id, 3) == 0);
    CHECK(keys.charge(id, 0) == 0);
    CHECK(keys.load_balance(id) == 0);
  }
  SUBCASE("unmetered and unknown keys have no balance") {
    const auto unmetered = keys.insert_key(new_key("ask_unmetered", Plan::pro, std::nullopt));
    CHECK_FALSE(keys.charge(unmetered, 1).has_value());
    CHECK_FALSE(keys.load_balance(unmetered).has_value());
    CHECK_FALSE(keys.find_by_id(unmetered)->credits.has_value()); // still unmetered
    CHECK_FALSE(keys.charge(id + 100, 1).has_value());
    CHECK_FALSE(keys.load_balance(id + 100).has_value());
  }
}

TEST_CASE("D7: store::KeyStore::charge refuses a revoked key") {
  test::StoreBackend backend;
  const auto store = backend.open_keys();
  auto& keys = *store;
  const auto id = keys.insert_key(new_key("ask_metered", Plan::basic, 3));
  REQUIRE(keys.revoke(id, "2024-02-01T00:00:00Z"));
  CHECK_FALSE(keys.charge(id, 1).has_value());
  CHECK(keys.load_balance(id) == 3);
}

TEST_CASE("D7: store::KeyStore::charge_batch applies charges in order, in one transaction") {
  test::StoreBackend backend;
  const auto store = backend.open_keys();
  auto& keys = *store;
  const auto a = keys.insert_key(new_key("ask_a", Plan::basic, 5));
  const auto b = keys.insert_key(new_key("ask_b", Plan::pro, 1));
  const auto unmetered = keys.insert_key(new_key("ask_unmetered", Plan::pro, std::nullopt));
  const auto revoked = keys.insert_key(new_key("ask_revoked", Plan::pro, 9));
  REQUIRE(keys.revoke(revoked, "2024-02-01T00:00:00Z"));

  const std::vector<store::ChargeRequest> requests{
      {a, 2}, {a, 2}, {a, 2}, // the third is refused: 1 left
      {b, 1}, {b, 0},         // a cost of 0 only reads the balance, even at 0
      {unmetered, 1}, {revoked, 1}, {revoked, 0}, {a + 100, 1},
  };
  const auto results = keys.charge_batch(requests);
  REQUIRE(results.size() == requests.size());
  const auto check = [&](std::size_t i, bool charged, std::optional<std::int64_t> balance,
                         bool is_revoked) {
    CAPTURE(i);
    CHECK(results[i].charged == charged);
    CHECK(results[i].balance == balance);
    CHECK(results[i].revoked == is_revoked);
  };
  check(0, true, 3, false);
  check(1, true, 1, false);
  check(2, false, 1, false);
  check(3, true, 0, false);
  check(4, true, 0, false);
  check(5, false, std::nullopt, false);
  check(6, false, 9, true);
  check(7, false, 9, true);
  check(8, false, std::nullopt, false);
  CHECK(keys.load_balance(a) == 1);
  CHECK(keys.load_balance(b) == 0);
  CHECK(keys.load_balance(revoked) == 9);

  SUBCASE("another connection sees all of the batch or none of it") {
    CHECK(backend.open_keys()->load_balance(a) == 1);
  }
}

TEST_CASE("D7: a batch on one key is all charged when it fits, else decided charge by charge") {
  // The common batch (one key, credits for all of it) is one conditional write on PostgreSQL;
  // a batch that does not fit, or a revoked key, must still be decided in order.
  test::StoreBackend backend;
  const auto store = backend.open_keys();
  auto& keys = *store;
  const auto id = keys.insert_key(new_key("ask_one", Plan::basic, 10));
  const auto balances = [&](const std::vector<store::ChargeRequest>& requests) {
    std::vector<std::optional<std::int64_t>> out;
    for (const auto& result : keys.charge_batch(requests)) {
      out.push_back(result.charged ? result.balance : std::nullopt);
    }
    return out;
  };
  using B = std::vector<std::optional<std::int64_t>>;
  // Fits exactly: every charge taken, each balance after the ones before it.
  CHECK(balances({{id, 2}, {id, 0}, {id, 3}}) == B{8, 8, 5});
  CHECK(balances({{id, 1}, {id, 4}}) == B{4, 0});
  CHECK(keys.load_balance(id) == 0);
  REQUIRE(keys.add_credits(id, 5) == 5);
  // Does not fit (7 > 5): the first two are charged, the third refused, the last fits what is left.
  const std::vector<store::ChargeRequest> over{{id, 3}, {id, 1}, {id, 3}, {id, 1}};
  const auto results = keys.charge_batch(over);
  REQUIRE(results.size() == 4);
  CHECK(results[0].charged);
  CHECK(results[0].balance == 2);
  CHECK(results[1].balance == 1);
  CHECK_FALSE(results[2].charged);
  CHECK(results[2].balance == 1);
  CHECK(results[3].charged);
  CHECK(results[3].balance == 0);
  CHECK(keys.load_balance(id) == 0);
  // Revoked: nothing taken however much is left, and the refusal says why.
  REQUIRE(keys.add_credits(id, 4) == 4);
  REQUIRE(keys.revoke(id, "2024-02-01T00:00:00Z"));
  const auto refused = keys.charge_batch(std::vector<store::ChargeRequest>{{id, 1}, {id, 0}});
  for (const auto& result : refused) {
    CHECK_FALSE(result.charged);
    CHECK(result.revoked);
    CHECK(result.balance == 4);
  }
  CHECK(keys.load_balance(id) == 4);
}

TEST_CASE("D7: a charge and a batch of it on one key answer alike (one conditional write on PostgreSQL)") {
  test::StoreBackend backend;
  const auto store = backend.open_keys();
  auto& keys = *store;
  const auto metered = keys.insert_key(new_key("ask_metered", Plan::basic, 5));
  const auto unmetered = keys.insert_key(new_key("ask_unmetered", Plan::pro, std::nullopt));
  const auto revoked = keys.insert_key(new_key("ask_revoked", Plan::pro, 9));
  REQUIRE(keys.revoke(revoked, "2024-02-01T00:00:00Z"));
  // Each (key, cost) charged alone, then as a batch of one: the same answer, the same balance.
  for (const auto& [id, cost] : std::vector<std::pair<std::int64_t, std::int64_t>>{
           {metered, 2}, {metered, 1}, {metered, 3}, {metered, 0}, {unmetered, 1}, {revoked, 1}, {revoked + 100, 1}}) {
    CAPTURE(id);
    CAPTURE(cost);
    const auto before = keys.load_balance(id);
    const auto charged = keys.charge(id, cost);
    const auto after_charge = keys.load_balance(id);
    if (charged) {
      REQUIRE(keys.add_credits(id, cost).has_value()); // as it was
    }
    const auto batch = keys.charge_batch(std::vector<store::ChargeRequest>{{id, cost}}).front();
    CHECK(batch.charged == charged.has_value());
    CHECK((batch.charged ? batch.balance : std::nullopt) == charged);
    CHECK(keys.load_balance(id) == after_charge);
    if (charged) {
      CHECK(*charged + cost == before);
    }
  }
  CHECK(keys.load_balance(metered) == 2); // 5 - 2 - 1, and 3 more refused
}

TEST_CASE("D7: store::charge_credits decides one charge") {
  using Key = std::optional<store::KeyCredits>;
  struct Row {
    Key key;
    std::int64_t cost;
    bool charged;
    std::optional<std::int64_t> balance;
    bool revoked;
    std::optional<std::int64_t> credits_after;
  };
  const std::vector<Row> rows{
    {store::KeyCredits{5, false}, 2, true, 3, false, 3},     // enough
    {store::KeyCredits{2, false}, 2, true, 0, false, 0},     // exactly enough
    {store::KeyCredits{1, false}, 2, false, 1, false, 1},    // too little: refused, balance said
    {store::KeyCredits{0, false}, 0, true, 0, false, 0},     // a read: usable at 0
    {store::KeyCredits{9, true}, 1, false, 9, true, 9},      // revoked
    {store::KeyCredits{9, true}, 0, false, 9, true, 9},      // revoked, a read
    {store::KeyCredits{std::nullopt, false}, 1, false, std::nullopt, false, std::nullopt}, // unmetered
    {std::nullopt, 1, false, std::nullopt, false, std::nullopt}, // unknown
  };
  for (std::size_t i = 0; i < rows.size(); ++i) {
    CAPTURE(i);
    auto key = rows[i].key;
    const auto result = store::charge_credits(key, rows[i].cost);
    CHECK(result.charged == rows[i].charged);
    CHECK(result.balance == rows[i].balance);
    CHECK(result.revoked == rows[i].revoked);
    CHECK((key ? key->credits : std::nullopt) == rows[i].credits_after);
  }
}

TEST_CASE("D7: a batch of charges answers what the same charges one by one answer") {
  // Many charges on few keys, interleaved, in one batch (each key's row read and written once)
  // against the same charges as batches of one, on a second store.
  test::StoreBackend backend_batched;
  test::StoreBackend backend_single;
  const auto batched = backend_batched.open_keys();
  const auto single = backend_single.open_keys();
  std::vector<std::int64_t> ids;
  for (auto* keys : {batched.get(), single.get()}) {
    ids = {keys->insert_key(new_key("ask_a", Plan::basic, 40)),
           keys->insert_key(new_key("ask_b", Plan::pro, 7)),
           keys->insert_key(new_key("ask_unmetered", Plan::pro, std::nullopt)),
           keys->insert_key(new_key("ask_revoked", Plan::pro, 9))};
    REQUIRE(keys->revoke(ids[3], "2024-02-01T00:00:00Z"));
  }
  ids.push_back(ids.back() + 100); // unknown
  std::vector<store::ChargeRequest> requests;
  std::uint32_t state = 12345; // a fixed pseudo-random sequence (an LCG)
  for (int i = 0; i < 200; ++i) {
    state = state * 1103515245U + 12345U;
    const auto key = ids[(state >> 8) % ids.size()];
    const auto cost = static_cast<std::int64_t>((state >> 16) % 4); // 0 reads the balance
    requests.push_back({key, cost});
  }
  const auto results = batched->charge_batch(requests);
  REQUIRE(results.size() == requests.size());
  int charged = 0;
  for (std::size_t i = 0; i < requests.size(); ++i) {
    CAPTURE(i);
    const auto one = single->charge_batch(std::span(&requests[i], 1)).front();
    CHECK(results[i].charged == one.charged);
    CHECK(results[i].balance == one.balance);
    CHECK(results[i].revoked == one.revoked);
    charged += results[i].charged && requests[i].cost > 0 ? 1 : 0;
  }
  CHECK(charged > 10); // both keys ran out of credits along the way
  for (const auto id : ids) {
    CHECK(batched->load_balance(id) == single->load_balance(id));
  }
  CHECK(batched->load_balance(ids[0]) < 3);
}

TEST_CASE("store::KeyStore::add_credits") {
  test::StoreBackend backend;
  const auto store = backend.open_keys();
  auto& keys = *store;
  const auto metered = keys.insert_key(new_key("ask_metered", Plan::free, 0));
  const auto unmetered = keys.insert_key(new_key("ask_unmetered", Plan::pro, std::nullopt));

  CHECK(keys.add_credits(metered, 5) == 5);
  CHECK(keys.add_credits(metered, 10) == 15);
  CHECK(keys.load_balance(metered) == 15);

  CHECK_FALSE(keys.add_credits(unmetered, 5).has_value());
  CHECK_FALSE(keys.find_by_id(unmetered)->credits.has_value());
  CHECK_FALSE(keys.add_credits(metered + 100, 5).has_value());
}

TEST_CASE("store::KeyStore::revoke") {
  test::StoreBackend backend;
  const auto store = backend.open_keys();
  auto& keys = *store;
  const auto id = keys.insert_key(new_key("ask_revoke_me", Plan::free, 1));
  CHECK(keys.revoke(id, "2024-02-01T10:00:00Z"));
  CHECK_FALSE(keys.revoke(id, "2024-03-01T10:00:00Z")); // already revoked: unchanged
  const auto key = keys.find_by_digest(auth::key_digest("ask_revoke_me"));
  REQUIRE(key.has_value()); // revoked keys are still found, so callers can say why they fail
  CHECK(key->revoked_at == "2024-02-01T10:00:00Z");
  CHECK_FALSE(keys.revoke(id + 100, "2024-02-01T10:00:00Z"));
}

TEST_CASE("D7: concurrent charges on one key store never overspend") {
  // Each thread has its own connection, as each worker of `serve` (or each process, or each
  // replica on another host: issue 14) does.
  test::StoreBackend backend;
  const auto id = backend.open_keys()->insert_key(new_key("ask_shared", Plan::basic, 20));
  constexpr int k_threads = 8;
  constexpr int k_attempts = 6; // 48 attempts on 20 credits
  std::atomic<int> successes{0};
  std::atomic<int> refusals{0};
  std::atomic<int> failures{0};
  std::vector<std::unique_ptr<store::KeyStore>> connections;
  for (int t = 0; t < k_threads; ++t) {
    connections.push_back(backend.open_keys());
  }
  std::latch start(k_threads);
  std::vector<std::thread> threads;
  for (auto& connection : connections) {
    threads.emplace_back([&, keys = connection.get()] {
      start.arrive_and_wait();
      try {
        for (int i = 0; i < k_attempts; ++i) {
          if (keys->charge(id, 1)) {
            ++successes;
          } else {
            ++refusals;
          }
        }
      } catch (const std::exception&) {
        ++failures;
      }
    });
  }
  for (auto& thread : threads) {
    thread.join();
  }
  CHECK(failures == 0);
  CHECK(successes == 20);
  CHECK(refusals == k_threads * k_attempts - 20);
  CHECK(backend.open_keys()->load_balance(id) == 0);
}

TEST_CASE("store::KeyStore::load_generation moves exactly when what a server caches changes") {
  test::StoreBackend backend;
  const auto store = backend.open_keys();
  auto& keys = *store;
  const auto start = keys.load_generation();
  const auto id = keys.insert_key(new_key("ask_generation", Plan::basic, 5));
  const auto created = keys.load_generation();
  CHECK(created > start);
  CHECK(keys.charge(id, 1) == 4);
  CHECK(keys.add_credits(id, 10) == 14);
  CHECK(keys.charge_batch(std::vector<store::ChargeRequest>{{id, 2}}).front().charged);
  CHECK(keys.load_generation() == created); // balances are never cached
  CHECK(backend.open_keys()->load_generation() == created);
  REQUIRE(keys.revoke(id, "2024-02-01T00:00:00Z"));
  const auto revoked = keys.load_generation();
  CHECK(revoked > created);
  CHECK_FALSE(keys.revoke(id, "2024-03-01T00:00:00Z"));
  CHECK(keys.load_generation() == revoked);
}

TEST_CASE("D7: concurrent charge_batch refusals report the balance that refused them") {
  // A 1-credit charge is refused only at a balance of 0, and credits only go down here: every
  // refusal must say 0, never a balance read before a concurrent charge spent it.
  test::StoreBackend backend;
  const auto id = backend.open_keys()->insert_key(new_key("ask_batches", Plan::basic, 30));
  constexpr int k_threads = 6;
  constexpr int k_attempts = 10; // 60 attempts on 30 credits
  std::vector<std::unique_ptr<store::KeyStore>> connections;
  for (int t = 0; t < k_threads; ++t) {
    connections.push_back(backend.open_keys());
  }
  std::atomic<int> charged{0};
  std::atomic<int> failures{0};
  std::vector<std::optional<std::int64_t>> refused_balances(k_threads * k_attempts);
  std::atomic<int> refusals{0};
  std::latch start(k_threads);
  std::vector<std::thread> threads;
  for (auto& connection : connections) {
    threads.emplace_back([&, keys = connection.get()] {
      start.arrive_and_wait();
      try {
        for (int i = 0; i < k_attempts; ++i) {
          const std::vector<store::ChargeRequest> one{{id, 1}};
          const auto result = keys->charge_batch(one).front();
          if (result.charged) {
            ++charged;
          } else {
            refused_balances[static_cast<std::size_t>(refusals++)] = result.balance;
          }
        }
      } catch (const std::exception&) {
        ++failures;
      }
    });
  }
  for (auto& thread : threads) {
    thread.join();
  }
  CHECK(failures == 0);
  CHECK(charged == 30);
  REQUIRE(refusals == 30);
  for (int i = 0; i < refusals; ++i) {
    CAPTURE(i);
    CHECK(refused_balances[static_cast<std::size_t>(i)] == 0);
  }
  CHECK(backend.open_keys()->load_balance(id) == 0);
}

TEST_CASE("store::copy_keys: every key exactly, both ways, into an empty store only (issue 14)") {
  // From SQLite files to this backend and back: ids, digests, plans, balances, creation and
  // revocation times unchanged.
  test::TempDir dir;
  store::SqliteKeyStore source(dir / "source-keys.db");
  const auto first = source.insert_key(new_key("ask_copy_first", Plan::basic, 7, "ci"));
  source.insert_key(new_key("ask_copy_unmetered", Plan::pro, std::nullopt, "dashboard"));
  const auto revoked = source.insert_key(new_key("ask_copy_revoked", Plan::free, 3));
  REQUIRE(source.revoke(revoked, "2024-05-01T08:00:00Z"));
  REQUIRE(source.charge(first, 2) == 5);
  const auto original = source.load_keys();
  const auto same = [](const std::vector<store::KeyRecord>& a,
                       const std::vector<store::KeyRecord>& b) {
    REQUIRE(a.size() == b.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
      CAPTURE(i);
      CHECK(a[i].id == b[i].id);
      CHECK(a[i].prefix == b[i].prefix);
      CHECK(a[i].digest == b[i].digest);
      CHECK(a[i].label == b[i].label);
      CHECK(a[i].plan == b[i].plan);
      CHECK(a[i].credits == b[i].credits);
      CHECK(a[i].created_at == b[i].created_at);
      CHECK(a[i].revoked_at == b[i].revoked_at);
    }
  };

  test::StoreBackend backend;
  const auto there = backend.open_keys();
  const auto generation = there->load_generation();
  const auto copied = store::copy_keys(source, *there);
  REQUIRE(copied);
  CHECK(copied->keys == 3);
  CHECK(copied->metered == 2);
  CHECK(copied->revoked == 1);
  same(there->load_keys(), original);
  CHECK(there->load_generation() > generation); // servers drop what they cached
  // Copied keys work as before: a charge, a revoked key refused, a new key after the last id.
  CHECK(there->charge(first, 5) == 0);
  CHECK_FALSE(there->charge(revoked, 1).has_value());
  CHECK(there->insert_key(new_key("ask_copy_later", Plan::free, 1)) == revoked + 1);

  SUBCASE("into a store that holds keys: refused, nothing written") {
    store::SqliteKeyStore again(dir / "source-keys.db");
    const auto before = there->load_keys();
    const auto refused = store::copy_keys(again, *there);
    REQUIRE_FALSE(refused);
    CHECK(refused.error().code == ErrorCode::invalid_input);
    CHECK(refused.error().message
          == "the destination already holds 4 keys: copy into an empty key store, so that ids "
             "and balances stay exact");
    same(there->load_keys(), before);
  }
  SUBCASE("and back into a new file") {
    store::SqliteKeyStore back(dir / "back-keys.db");
    REQUIRE(store::copy_keys(*there, back));
    same(back.load_keys(), there->load_keys());
  }
}

TEST_CASE("D7: batches charging the same keys in opposite orders all complete") {
  // Two servers' batches may name keys in any order; neither may fail for the other (on a
  // database server, row locks taken in opposite orders would deadlock).
  test::StoreBackend backend;
  const auto setup = backend.open_keys();
  const auto a = setup->insert_key(new_key("ask_order_a", Plan::pro, 100'000));
  const auto b = setup->insert_key(new_key("ask_order_b", Plan::pro, 100'000));
  constexpr int k_batches = 150;
  std::atomic<int> failures{0};
  std::latch start(2);
  const auto run = [&](std::vector<store::ChargeRequest> batch) {
    const auto keys = backend.open_keys();
    start.arrive_and_wait();
    for (int i = 0; i < k_batches; ++i) {
      try {
        for (const auto& result : keys->charge_batch(batch)) {
          CHECK(result.charged);
        }
      } catch (const std::exception& error) {
        MESSAGE(std::string(error.what()));
        ++failures;
      }
    }
  };
  std::thread forward(run, std::vector<store::ChargeRequest>{{a, 1}, {b, 1}});
  std::thread backward(run, std::vector<store::ChargeRequest>{{b, 1}, {a, 1}});
  forward.join();
  backward.join();
  CHECK(failures == 0);
  CHECK(setup->load_balance(a) == 100'000 - 2 * k_batches);
  CHECK(setup->load_balance(b) == 100'000 - 2 * k_batches);
}
