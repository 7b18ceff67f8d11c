// The market record's index membership (store/market_record.hpp, D20): snapshots as fetched and
// spans of each source, written and read back on each backend (store_backend.hpp: SQLite here,
// PostgreSQL in ashare_postgres_tests), carried by copy_bars(), and the generation a change bumps.
#include "store_backend.hpp"
#include "testutil.hpp"

#include "core/store/bar_store.hpp"
#include "core/store/market_record.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace ashare;
using test::date;

namespace {

using store::MemberSource;
using store::MemberSpan;

// Replace the spans of `index` from `source` in one committed change.
void save_spans_change(store::BarStore& store,
                       const std::string& index,
                       MemberSource source,
                       const std::vector<MemberSpan>& spans) {
  store::WriteTransaction transaction(store);
  store.market().save_member_spans(index, source, spans);
  store.finish_change("");
  transaction.commit();
}

std::vector<std::string> member_symbols(const std::vector<store::MemberWeight>& members) {
  std::vector<std::string> out;
  for (const auto& member : members) {
    out.push_back(member.symbol);
  }
  return out;
}

} // namespace

TEST_CASE("D20: store::MarketRecord snapshots: by day, by symbol, weights to the last digit") {
  test::StoreBackend backend;
  const auto store = backend.open_bars();
  auto& market = store->market();
  {
    store::WriteTransaction transaction(*store);
    market.save_snapshot("000300.SH", date("2024-01-31"),
                         {{"600519.SH", 5.5617}, {"000001.SZ", 0.4236}});
    // 17 significant digits: kept exactly (D12).
    market.save_snapshot("000300.SH", date("2023-12-29"), {{"600519.SH", 5.123456789012345}});
    market.save_snapshot("000905.SH", date("2024-01-31"), {{"600004.SH", 0.1}});
    transaction.commit();
  }
  CHECK(market.load_snapshot_days("000300.SH")
        == std::vector<domain::Date>{date("2023-12-29"), date("2024-01-31")});
  const auto january = market.load_snapshot("000300.SH", date("2024-01-31"));
  CHECK(member_symbols(january) == std::vector<std::string>{"000001.SZ", "600519.SH"});
  CHECK(january[0].weight == 0.4236);
  CHECK(january[1].weight == 5.5617);
  CHECK(market.load_snapshot("000300.SH", date("2023-12-29")).front().weight == 5.123456789012345);
  CHECK(market.load_snapshot("000300.SH", date("2024-02-01")).empty());
  CHECK(market.load_snapshot_days("000852.SH").empty());

  SUBCASE("a snapshot saved again replaces that day's") {
    store::WriteTransaction transaction(*store);
    market.save_snapshot("000300.SH", date("2024-01-31"), {{"600036.SH", 2}});
    transaction.commit();
    CHECK(member_symbols(market.load_snapshot("000300.SH", date("2024-01-31")))
          == std::vector<std::string>{"600036.SH"});
    CHECK(market.load_snapshot_days("000300.SH").size() == 2);
  }
  SUBCASE("more rows than one statement takes") {
    std::vector<store::MemberWeight> many;
    for (int i = 0; i < 450; ++i) {
      many.push_back({std::to_string(600000 + i) + ".SH", 0.25});
    }
    store::WriteTransaction transaction(*store);
    market.save_snapshot("000905.SH", date("2024-02-29"), many);
    transaction.commit();
    CHECK(market.load_snapshot("000905.SH", date("2024-02-29")).size() == 450);
  }
  CHECK(market.load_member_indices() == std::vector<std::string>{"000300.SH", "000905.SH"});
}

TEST_CASE("D20: store::MarketRecord spans: per index and source, replaced whole") {
  test::StoreBackend backend;
  const auto store = backend.open_bars();
  auto& market = store->market();
  const std::vector<MemberSpan> imported{
      {"000300.SH", "600004.SH", date("2018-12-17"), date("2021-06-10"), MemberSource::import},
      {"000300.SH", "600004.SH", date("2005-04-08"), date("2011-12-30"), MemberSource::import},
      {"000300.SH", "000001.SZ", date("2005-04-08"), std::nullopt, MemberSource::import},
  };
  save_spans_change(*store, "000300.SH", MemberSource::import, imported);
  save_spans_change(
      *store, "000300.SH", MemberSource::tushare,
      {{"000300.SH", "600519.SH", date("2024-01-31"), std::nullopt, MemberSource::tushare}});
  save_spans_change(
      *store, "000016.SH", MemberSource::import,
      {{"000016.SH", "600519.SH", date("2010-01-04"), std::nullopt, MemberSource::import}});

  const auto spans = market.load_member_spans("000300.SH", MemberSource::import);
  // By symbol, then first day.
  REQUIRE(spans.size() == 3);
  CHECK(spans[0] == imported[2]);
  CHECK(spans[1] == imported[1]);
  CHECK(spans[2] == imported[0]);
  CHECK(market.load_member_spans("000300.SH", MemberSource::tushare).size() == 1);
  const auto every = market.load_member_spans("", MemberSource::import);
  REQUIRE(every.size() == 4);
  CHECK(every.front().index_symbol == "000016.SH"); // by index first
  CHECK(market.load_member_indices() == std::vector<std::string>{"000016.SH", "000300.SH"});

  SUBCASE("a second save replaces that index's spans of that source alone") {
    save_spans_change(
        *store, "000300.SH", MemberSource::import,
        {{"000300.SH", "600036.SH", date("2005-04-08"), std::nullopt, MemberSource::import}});
    CHECK(market.load_member_spans("000300.SH", MemberSource::import).size() == 1);
    CHECK(market.load_member_spans("000300.SH", MemberSource::tushare).size() == 1);
    CHECK(market.load_member_spans("000016.SH", MemberSource::import).size() == 1);
  }
  SUBCASE("a change of spans bumps the generation (D17: the members route's ETags change)") {
    const auto before = store->load_generation();
    save_spans_change(*store, "000300.SH", MemberSource::import, {});
    CHECK(store->load_generation() == before + 1);
    CHECK(market.load_member_spans("000300.SH", MemberSource::import).empty());
  }
}

TEST_CASE("D20: copy_bars carries the snapshots and spans") {
  test::StoreBackend from_backend;
  test::StoreBackend to_backend;
  const auto from = from_backend.open_bars();
  const auto to = to_backend.open_bars();
  auto& source = from->market();
  {
    store::WriteTransaction transaction(*from);
    source.save_snapshot("000300.SH", date("2024-01-31"),
                         {{"600519.SH", 5.5617}, {"000001.SZ", 0.4236}});
    source.save_snapshot("000300.SH", date("2024-02-29"), {{"600519.SH", 5.7}});
    source.save_member_spans(
        "000300.SH", MemberSource::tushare,
        {{"000300.SH", "000001.SZ", date("2024-01-31"), date("2024-02-28"), MemberSource::tushare},
         {"000300.SH", "600519.SH", date("2024-01-31"), std::nullopt, MemberSource::tushare}});
    source.save_member_spans(
        "000016.SH", MemberSource::import,
        {{"000016.SH", "600519.SH", date("2010-01-04"), std::nullopt, MemberSource::import}});
    from->finish_change("");
    transaction.commit();
  }
  REQUIRE(store::copy_bars(*from, *to));
  auto& copy = to->market();
  CHECK(copy.load_member_indices() == source.load_member_indices());
  CHECK(copy.load_snapshot_days("000300.SH") == source.load_snapshot_days("000300.SH"));
  const auto january = copy.load_snapshot("000300.SH", date("2024-01-31"));
  REQUIRE(january.size() == 2);
  CHECK(january[0].weight == 0.4236);
  for (const auto source_kind : {MemberSource::tushare, MemberSource::import}) {
    CHECK(copy.load_member_spans("", source_kind) == source.load_member_spans("", source_kind));
  }
  CHECK(copy.load_member_spans("", MemberSource::tushare).size() == 2);
}
