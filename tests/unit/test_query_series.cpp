#include "store_backend.hpp"
#include "testutil.hpp"

#include "core/api/request_checks.hpp"
#include "core/query/catalog.hpp"
#include "core/query/series.hpp"

#include <doctest/doctest.h>

using namespace ashare;
using test::date;
using test::make_bar;

namespace {

// 837023.BJ became 920123.BJ (one of the 26 codes that did not keep its last three digits).
const std::string k_old = "837023.BJ";
const std::string k_new = "920123.BJ";

void store_series_bars(store::BarStore& store,
                       const std::string& symbol,
                       const std::vector<domain::Bar>& bars,
                       bool change_pct_derived) {
  store::WriteTransaction transaction(store);
  for (const auto& bar : bars) {
    store.upsert_bar(symbol, bar, change_pct_derived);
  }
  store.refresh_symbol(symbol);
  store.finish_change("test");
  transaction.commit();
}

domain::Bar bar_of(const char* day, double close, double factor, double change_pct = 0) {
  auto bar = make_bar(day, close, close, close, close, factor);
  bar.change_pct = change_pct;
  return bar;
}

// The old code until 2025-09-30 on its own chain (a dividend step on 09-26), the new code from
// 2025-10-09 starting a chain at 1.
struct SeriesRig {
  test::StoreBackend backend;
  std::unique_ptr<store::BarStore> owned = backend.open_bars();
  store::BarStore& store = *owned;

  explicit SeriesRig(bool new_first_derived = true, double new_first_change_pct = 0) {
    store_series_bars(store, k_old,
                      {bar_of("2025-09-24", 20.00, 1.0), bar_of("2025-09-25", 20.50, 1.0),
                       bar_of("2025-09-26", 20.10, 1.05), bar_of("2025-09-29", 20.20, 1.05),
                       bar_of("2025-09-30", 20.40, 1.05)},
                      true);
    store_series_bars(
        store, k_new,
        {bar_of("2025-10-09", 20.60, 1.0, new_first_change_pct), bar_of("2025-10-10", 20.80, 1.0)},
        new_first_derived);
  }
};

} // namespace

TEST_CASE("D19: a store knows the shipped Beijing code change") {
  test::StoreBackend backend;
  const auto store = backend.open_bars();
  const auto aliases = query::load_aliases(*store);
  CHECK(aliases.pairs().size() == 248);
  CHECK(aliases.partner(k_old) == k_new);
  CHECK(aliases.partner(k_new) == k_old);
  CHECK_FALSE(aliases.partner("600519.SH").has_value());
}

TEST_CASE("D19: the new code's series includes the old code's bars, rescaled so the join has no step") {
  SeriesRig rig;
  const auto aliases = query::load_aliases(rig.store);
  const auto series = query::load_series_bars(rig.store, aliases, k_new);
  REQUIRE(series.size() == 7);
  CHECK(series.front().trade_date == date("2025-09-24"));
  CHECK(series[4].trade_date == date("2025-09-30"));
  CHECK(series[5].trade_date == date("2025-10-09"));
  // No change_pct from the source at the join: no step; the old chain's own step stays.
  CHECK(series[4].factor == doctest::Approx(1.0));
  CHECK(series[4].factor == series[5].factor);
  CHECK(series[1].factor / series[2].factor == doctest::Approx(1.0 / 1.05));
  CHECK(series.back().factor == 1.0); // one F_latest: the new code's
  // Either code answers the same series.
  const auto via_old = query::load_series_bars(rig.store, aliases, k_old);
  REQUIRE(via_old.size() == series.size());
  for (std::size_t i = 0; i < series.size(); ++i) {
    CHECK(via_old[i].trade_date == series[i].trade_date);
    CHECK(via_old[i].factor == series[i].factor);
  }
  // A window of it, newest first.
  const auto window = query::load_series_window(rig.store, aliases, k_new, date("2025-09-29"), date("2025-10-09"),
                                                domain::SortOrder::desc, 2);
  REQUIRE(window.size() == 2);
  CHECK(window[0].trade_date == date("2025-10-09"));
  CHECK(window[1].trade_date == date("2025-09-30"));
  const auto closes = query::load_series_prices(rig.store, aliases, k_new, store::PriceField::close);
  CHECK(closes.prices.size() == 7);
}

TEST_CASE("D19: the step at the join is the new first bar's own") {
  // The source says the new first bar rose 0.98% from a pre_close of 20.40: no step. Had it
  // said 3% from 20.00 (an ex-date on the day of the change), the step is 20.40 / 20.00.
  SUBCASE("no corporate action") {
    SeriesRig rig(false, 0.9804);
    const auto series = query::load_series_bars(rig.store, query::load_aliases(rig.store), k_new);
    CHECK(series[4].factor == doctest::Approx(series[5].factor));
  }
  SUBCASE("an ex-date on the day of the change") {
    SeriesRig rig(false, 3.0);
    const auto series = query::load_series_bars(rig.store, query::load_aliases(rig.store), k_new);
    CHECK(series[5].factor / series[4].factor == doctest::Approx(20.40 / 20.00));
  }
}

TEST_CASE("D19: old-code bars on or after the new code's first bar are hidden") {
  SeriesRig rig;
  store_series_bars(rig.store, k_old,
                    {bar_of("2025-10-09", 99.0, 1.05), bar_of("2025-10-10", 99.0, 1.05)}, true);
  const auto aliases = query::load_aliases(rig.store);
  const auto series = query::load_series_bars(rig.store, aliases, k_new);
  REQUIRE(series.size() == 7);
  CHECK(series[5].close == 20.60); // the new code's wins
  const auto info = query::series_info(rig.store, aliases, k_old, rig.store.find_symbol(k_old),
                                       rig.store.find_symbol(k_new));
  REQUIRE(info);
  CHECK(info->symbol == k_old);
  CHECK(info->bar_count == 7);
  CHECK(info->first_date == date("2025-09-24"));
  CHECK(info->last_date == date("2025-10-10"));
}

TEST_CASE("D19: the catalog knows both codes as the one series, and naming both is INVALID_PARAMETER") {
  SeriesRig rig;
  const auto catalog = query::load_catalog(rig.store);
  const auto* as_old = catalog->find(k_old);
  const auto* as_new = catalog->find(k_new);
  REQUIRE(as_old != nullptr);
  REQUIRE(as_new != nullptr);
  CHECK(as_old->bar_count == 7);
  CHECK(as_new->bar_count == 7);
  CHECK(as_old->latest_factor == as_new->latest_factor);
  CHECK(as_old->symbol == k_old);
  CHECK(catalog->find("920931.BJ") == nullptr); // an alias without bars is no symbol
  const auto one_shot = query::load_catalog(rig.store, std::vector<domain::Symbol>{*domain::parse_symbol(k_old)});
  REQUIRE(one_shot->find(k_old) != nullptr);
  CHECK(one_shot->find(k_old)->bar_count == 7);

  const std::vector<domain::Symbol> both{*domain::parse_symbol(k_new), *domain::parse_symbol("600519.SH"),
                                         *domain::parse_symbol(k_old)};
  const auto refused = api::check_no_alias_pair(both, *catalog);
  REQUIRE_FALSE(refused);
  CHECK(refused.error().code == ErrorCode::invalid_parameter);
  CHECK(api::check_no_alias_pair({*domain::parse_symbol(k_new), *domain::parse_symbol("600519.SH")}, *catalog));
  // A one-shot catalog reads the aliases of its own symbols alone, and knows the pair as well.
  const auto one_shot_both = query::load_catalog(rig.store, both);
  CHECK_FALSE(api::check_no_alias_pair(both, *one_shot_both));
  CHECK(one_shot_both->find(k_new)->bar_count == 7);
}

TEST_CASE("D19: a one-shot query's aliases are those of its symbols") {
  test::StoreBackend backend;
  const auto store = backend.open_bars(); // the shipped Beijing table's 248 pairs
  const std::vector<domain::Symbol> asked{*domain::parse_symbol("920123.BJ"), *domain::parse_symbol("837023.BJ"),
                                          *domain::parse_symbol("600519.SH")};
  const auto aliases = query::load_aliases(*store, asked);
  REQUIRE(aliases.pairs().size() == 1);
  CHECK(aliases.pairs()[0] == store::CodeAlias{"837023.BJ", "920123.BJ"});
  CHECK(aliases.partner("920123.BJ") == "837023.BJ");
  CHECK(query::load_aliases(*store, std::vector<domain::Symbol>{*domain::parse_symbol("600519.SH")}).pairs().empty());
}

TEST_CASE("D19: save_alias replaces an alias of either code") {
  test::StoreBackend backend;
  const auto store = backend.open_bars();
  {
    store::WriteTransaction transaction(*store);
    store->market().save_alias({"837023.BJ", "920999.BJ"});
    store->finish_change("test");
    transaction.commit();
  }
  const auto aliases = query::load_aliases(*store);
  CHECK(aliases.pairs().size() == 248);
  CHECK(aliases.partner("837023.BJ") == "920999.BJ");
  CHECK_FALSE(aliases.partner("920123.BJ").has_value());
}
