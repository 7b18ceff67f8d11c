// Keeping a provider's reference tables (fetch/references.hpp): here, that a listing which only
// changed its kind (D20) is written again.
#include "testutil.hpp"

#include "core/fetch/references.hpp"
#include "core/store/sqlite_bar_store.hpp"

#include <doctest/doctest.h>

using namespace ashare;
using test::date;

TEST_CASE("fetch::save_references: a listing whose kind alone changed is written again (D20)") {
  test::TempDir dir;
  store::SqliteBarStore store{dir / "references.db"};
  // As a store made before D20 holds it: every listing a stock's.
  store::Listing listing{"159999.SZ", "某某ETF", date("2024-01-02"), std::nullopt, 'L', domain::Kind::stock};
  fetch::References references;
  references.listings = std::vector{listing};
  fetch::save_references(store, references);
  REQUIRE(store.market().load_kind("159999.SZ") == domain::Kind::stock);
  listing.kind = domain::Kind::fund; // fund_basic names it
  references.listings = std::vector{listing};
  fetch::save_references(store, references);
  const auto listings = store.market().load_listings();
  REQUIRE(listings.size() == 1);
  CHECK(listings[0].kind == domain::Kind::fund);
  CHECK(store.market().load_kind("159999.SZ") == domain::Kind::fund);
}
