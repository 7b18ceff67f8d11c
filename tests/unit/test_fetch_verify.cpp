#include "fake_provider.hpp"
#include "testutil.hpp"

#include "core/fetch/verify.hpp"
#include "core/store/sqlite_bar_store.hpp"

#include <doctest/doctest.h>

using namespace ashare;
using namespace ashare::fetch;
using test::date;
using test::make_bar;

namespace {

// A store holding 600519.SH on 2024-06-17..06-20 (06-19 an ex-date: factor 1 -> 1.02), from
// `source` with factors of `factor_origin`.
struct VerifyRig {
  test::TempDir dir;
  store::SqliteBarStore store{dir / "verify.db"};

  explicit VerifyRig(const std::string& source = "tushare",
                     const std::string& origin = "pre_close_chain") {
    store::WriteTransaction transaction(store);
    for (const auto& bar : {make_bar("2024-06-17", 1500, 1510, 1490, 1500, 1.0, 40000),
                            make_bar("2024-06-18", 1500, 1530, 1495, 1521.5, 1.0, 41000),
                            make_bar("2024-06-19", 1497.99, 1504, 1482.1, 1501, 1.0207161, 41261),
                            make_bar("2024-06-20", 1501, 1510, 1490, 1500, 1.0207161, 42000)}) {
      auto stored = bar;
      stored.turnover = 6167728.42;
      store.upsert_bar("600519.SH", stored, false);
    }
    store.refresh_symbol("600519.SH");
    store.save_symbol_source("600519.SH", {source, origin, false});
    store.finish_change(source);
    transaction.commit();
  }

  // The source's bars equal to the stored ones of 06-18..06-20, with 06-19's step.
  ProviderBars same(const std::string& provider = "tdx") {
    ProviderBars source;
    source.provider = provider;
    source.float32_sizes = provider == "tdx";
    for (const auto& bar : store.load_bars("600519.SH", date("2024-06-18"), date("2024-06-20"),
                                           domain::SortOrder::asc, 10)) {
      ProviderBar out{bar.trade_date, bar.open, bar.high, bar.low, bar.close, bar.volume, bar.turnover, 1.0, 0};
      if (bar.trade_date == date("2024-06-19")) {
        out.step = 1521.5 / 1490.62;
      }
      source.bars["600519.SH"].push_back(out);
    }
    return source;
  }

  VerifyReport compare(const ProviderBars& source) {
    return compare_with_provider(store, source, {}, date("2024-06-18"), date("2024-06-20"));
  }
};

} // namespace

TEST_CASE("fetch::compare_with_provider: the same bars agree") {
  VerifyRig rig;
  const auto report = rig.compare(rig.same());
  CHECK(report.agree());
  CHECK(report.symbols == 1);
  CHECK(report.days == 3);
  CHECK(report.provider == "tdx");
}

TEST_CASE("fetch::compare_with_provider: raw prices agree to 0.005 CNY") {
  VerifyRig rig;
  auto source = rig.same();
  source.bars["600519.SH"][0].close = 1521.504;
  CHECK(rig.compare(source).agree());
  source.bars["600519.SH"][0].close = 1521.506;
  const auto report = rig.compare(source);
  REQUIRE(report.findings.size() == 1);
  CHECK(report.findings[0].symbol == "600519.SH");
  CHECK(report.findings[0].day == date("2024-06-18"));
  CHECK(report.findings[0].field == "close");
  CHECK(report.findings[0].stored == "1521.5");
  CHECK(report.findings[0].source == "1521.506");
  CHECK(report.counts.at("close") == 1);
}

TEST_CASE("fetch::compare_with_provider: volume and turnover to the coarser side's precision") {
  SUBCASE("TDX's float32: 2^-24 of the value and the rounding to a share or a fen") {
    VerifyRig rig;
    auto source = rig.same("tdx");
    source.bars["600519.SH"][0].volume += 1;       // over 41000 * 2^-24 + 0.5 (0.5024)
    source.bars["600519.SH"][1].turnover += 0.38;  // over 6167728.42 * 2^-24 (0.3676) + 0.005
    const auto report = rig.compare(source);
    REQUIRE(report.findings.size() == 2);
    CHECK(report.findings[0].field == "volume");
    CHECK(report.findings[1].field == "turnover");
    source = rig.same("tdx");
    source.bars["600519.SH"][1].turnover += 0.36;
    CHECK(rig.compare(source).agree());
  }
  SUBCASE("two exact sides compare volume exactly") {
    VerifyRig rig;
    auto source = rig.same("tushare-pro");
    source.bars["600519.SH"][2].volume += 1;
    const auto report = rig.compare(source);
    REQUIRE(report.findings.size() == 1);
    CHECK(report.findings[0].field == "volume");
    CHECK(report.findings[0].stored == "42000");
    CHECK(report.findings[0].source == "42001");
  }
  SUBCASE("a store fed by TDX is the coarser side against Tushare too") {
    VerifyRig rig("tdx");
    auto source = rig.same("tushare-pro");
    source.bars["600519.SH"][0].turnover += 0.3;
    CHECK(rig.compare(source).agree());
  }
}

TEST_CASE("fetch::compare_with_provider: factor steps agree when close[t-1] / step agrees to 0.005 CNY") {
  VerifyRig rig;
  auto source = rig.same();
  auto& ex_date = source.bars["600519.SH"][1];
  SUBCASE("a step that moves close[t-1] / step by 0.02 CNY disagrees") {
    ex_date.step = 1521.5 / 1490.64;
    const auto report = rig.compare(source);
    REQUIRE(report.findings.size() == 1);
    CHECK(report.findings[0].field == "factor_step");
    CHECK(report.findings[0].day == date("2024-06-19"));
  }
  SUBCASE("no step at the source where the store has one disagrees") {
    ex_date.step = 1.0;
    CHECK(rig.compare(source).counts.at("factor_step") == 1);
  }
  SUBCASE("the rounding of Tushare's adj_factor widens the bound") {
    // 7.8576 -> 8.0204 written with 4 decimals: a step off by one unit over 7.8576 still agrees.
    ex_date.step = 8.0205 / 7.8576;
    ex_date.step_error = 0.0001 / 7.8576;
    const double off = std::abs(1521.5 / (8.0205 / 7.8576) - 1490.62);
    REQUIRE(off > 0.005);
    CHECK(rig.compare(source).agree());
  }
  SUBCASE("a source that cannot say a step is not compared") {
    ex_date.step = std::nullopt;
    CHECK(rig.compare(source).agree());
  }
}

TEST_CASE("fetch::compare_with_provider: a bar on one side only") {
  VerifyRig rig;
  auto source = rig.same();
  source.bars["600519.SH"].erase(source.bars["600519.SH"].begin());
  source.bars["000001.SZ"].push_back({date("2024-06-20"), 10, 10, 10, 10, 100, 1000, std::nullopt, 0});
  const auto report = rig.compare(source);
  REQUIRE(report.findings.size() == 2);
  CHECK(report.findings[0].symbol == "000001.SZ");
  CHECK(report.findings[0].field == "bar");
  CHECK(report.findings[0].stored.empty());
  CHECK(report.findings[0].source == "present");
  CHECK(report.findings[1].symbol == "600519.SH");
  CHECK(report.findings[1].day == date("2024-06-18"));
  CHECK(report.findings[1].stored == "present");
  CHECK(report.findings[1].source.empty());
  CHECK(report.symbols == 2);
  SUBCASE("naming symbols compares those only") {
    CHECK(compare_with_provider(rig.store, source, {"600519.SH"}, date("2024-06-18"), date("2024-06-20")).findings.size() == 1);
  }
}

TEST_CASE("fetch::compare_with_provider: against its own provider a symbol compares exactly") {
  VerifyRig rig("tdx");
  auto source = rig.same("tdx");
  source.bars["600519.SH"][0].close += 0.001;
  source.bars["600519.SH"][2].volume += 1;
  const auto report = rig.compare(source);
  REQUIRE(report.findings.size() == 2);
  CHECK(report.findings[0].field == "close");
  CHECK(report.findings[1].field == "volume");
}

TEST_CASE("fetch::default_verify_window: the last 20 ledger days, else 20 open days up to as_of") {
  VerifyRig rig;
  auto window = default_verify_window(rig.store);
  REQUIRE(window);
  CHECK(window->second == date("2024-06-20"));
  CHECK(window->first == date("2024-05-23")); // 20 open days: 05-23 .. 06-20 (06-10 a holiday)
  {
    store::WriteTransaction transaction(rig.store);
    rig.store.market().save_ledger_day({"tdx", date("2024-06-17"), "", 1});
    rig.store.market().save_ledger_day({"tdx", date("2024-06-18"), "", 1});
    rig.store.market().save_ledger_day(
        {"tdx", date("2024-06-19"), "600519.SH", 1}); // not whole-market
    transaction.commit();
  }
  window = default_verify_window(rig.store);
  REQUIRE(window);
  CHECK(window->first == date("2024-06-17"));
  CHECK(window->second == date("2024-06-18"));
}

TEST_CASE("fetch::ask_provider: the window's bars with their steps, the day before asked for them only") {
  VerifyRig rig;
  for (const auto shape : {UnitShape::market_day, UnitShape::symbol_span}) {
    CAPTURE(shape == UnitShape::market_day);
    test::FakeProvider provider(shape);
    // 06-14 is the open day before the window; 06-19 an ex-date (pre_close 1490.62 after 1521.5).
    provider.closes["600519.SH"] = {{date("2024-06-13"), 1480}, {date("2024-06-14"), 1500}, {date("2024-06-17"), 1500},
                                    {date("2024-06-18"), 1521.5}, {date("2024-06-19"), 1501}, {date("2024-06-21"), 1499}};
    provider.pre_closes[{"600519.SH", date("2024-06-19")}] = 1490.62;
    provider.bad_bars = {{"600519.SH", date("2024-06-18")}};
    provider.closes["000001.SZ"] = {}; // listed, no bars in the window
    const auto asked = ask_provider(provider, rig.store, {}, date("2024-06-17"), date("2024-06-21"), date("2024-06-20"));
    REQUIRE(asked.end == FetchEnd::done);
    CHECK(asked.requests == provider.requests());
    CHECK(asked.bars.provider == "fake");
    // The day before and the window up to today: 06-14, 06-17..06-20.
    REQUIRE_FALSE(provider.asked.empty());
    CHECK(provider.asked.front().days.front() == date("2024-06-14"));
    CHECK(provider.asked.back().days.back() == date("2024-06-20"));
    CHECK_FALSE(provider.asked.front().with_suspensions);
    const auto& bars = asked.bars.bars.at("600519.SH");
    REQUIRE(bars.size() == 2); // 06-17 and 06-19: 06-18 fails its check, 06-21 is after today
    CHECK(bars[0].day == date("2024-06-17"));
    CHECK(bars[0].step == 1.0); // from the day before: close 1500, pre_close 1500
    CHECK(bars[1].day == date("2024-06-19"));
    CHECK(bars[1].step == 1500 / 1490.62); // the bar before it that passed: 06-17's close
    // A span asked for a symbol compares it, bars or none; a market's day knows only those it sent.
    CHECK(asked.bars.bars.count("000001.SZ") == (shape == UnitShape::symbol_span ? 1u : 0u));
    REQUIRE(asked.bars.warnings.size() == 1);
    CHECK(asked.bars.warnings[0] == "fake: 600519.SH on 2024-06-18: high: high 1 is below low 2 (left out: no bar "
                                    "from the source that day)");
  }
  SUBCASE("a provider that stops stops the asking, as a fetch") {
    test::FakeProvider provider(UnitShape::symbol_span);
    provider.closes["600519.SH"][date("2024-06-17")] = 1500;
    provider.fails_at = std::pair{std::string("600519.SH"), date("2024-06-17")};
    const auto asked = ask_provider(provider, rig.store, {}, date("2024-06-17"), date("2024-06-20"), date("2024-06-20"));
    CHECK(asked.end == FetchEnd::source_failing);
    CHECK(asked.message == "fake: it broke at 600519.SH 2024-06-17");
    CHECK(asked.requests == 1);
  }
}

TEST_CASE("fetch::ask_provider: of a provider that answers whole days, an index is asked a span of its own (D20)") {
  VerifyRig rig;
  {
    store::WriteTransaction transaction(rig.store);
    rig.store.upsert_bar("000300.SH", make_bar("2024-06-18", 3500, 3510, 3490, 3500, 1.0, 100000), false);
    rig.store.refresh_symbol("000300.SH");
    rig.store.finish_change("tushare");
    transaction.commit();
  }
  const auto shapes = [](const test::FakeProvider& provider) {
    std::vector<std::pair<UnitShape, std::vector<std::string>>> out;
    for (const auto& unit : provider.asked) {
      out.emplace_back(unit.shape, unit.symbols);
      if (unit.shape == UnitShape::symbol_span) {
        CHECK(unit.days.back() == date("2024-06-20")); // a span: every day of the window
      }
    }
    return out;
  };
  using UnitsAsked = std::vector<std::pair<UnitShape, std::vector<std::string>>>;
  const auto day = UnitShape::market_day;
  const auto span = UnitShape::symbol_span;
  SUBCASE("the whole store: each day's market, then the stored index over every day") {
    test::FakeProvider provider(day);
    REQUIRE(ask_provider(provider, rig.store, {}, date("2024-06-18"), date("2024-06-20"), date("2024-06-20")).end
            == FetchEnd::done);
    // 06-17 (the day before), 06-18, 06-19, 06-20.
    CHECK(shapes(provider) == UnitsAsked{{day, {}}, {day, {}}, {day, {}}, {day, {}}, {span, {"000300.SH"}}});
    CHECK(provider.asked.back().days.front() == date("2024-06-17"));
  }
  SUBCASE("a store holding a fund: a fund day too, from a provider that takes funds") {
    {
      store::WriteTransaction transaction(rig.store);
      rig.store.upsert_bar("510300.SH", make_bar("2024-06-18", 3.5, 3.6, 3.4, 3.5, 1.0, 100000), false);
      rig.store.refresh_symbol("510300.SH");
      rig.store.finish_change("tushare");
      transaction.commit();
    }
    test::FakeProvider stocks_only(day);
    ask_provider(stocks_only, rig.store, {}, date("2024-06-20"), date("2024-06-20"), date("2024-06-20"));
    CHECK(shapes(stocks_only) == UnitsAsked{{day, {}}, {day, {}}, {span, {"000300.SH"}}});
    test::FakeProvider provider(day);
    provider.taken_kinds = {domain::Kind::stock, domain::Kind::index, domain::Kind::fund};
    ask_provider(provider, rig.store, {}, date("2024-06-20"), date("2024-06-20"), date("2024-06-20"));
    CHECK(shapes(provider) == UnitsAsked{{day, {}}, {day, {}}, {day, {}}, {day, {}}, {span, {"000300.SH"}}});
    std::vector<domain::Kind> kinds;
    for (const auto& unit : provider.asked) {
      kinds.push_back(unit.kind);
    }
    CHECK(kinds == std::vector<domain::Kind>{domain::Kind::stock, domain::Kind::stock, domain::Kind::fund,
                                             domain::Kind::fund, domain::Kind::index});
  }
  SUBCASE("named: an index alone asks no market day; a fund goes with the stocks") {
    test::FakeProvider provider(day);
    ask_provider(provider, rig.store, {"000300.SH"}, date("2024-06-20"), date("2024-06-20"), date("2024-06-20"));
    CHECK(shapes(provider) == UnitsAsked{{span, {"000300.SH"}}});
    test::FakeProvider both(day);
    ask_provider(both, rig.store, {"510300.SH", "000300.SH"}, date("2024-06-20"), date("2024-06-20"),
                 date("2024-06-20"));
    CHECK(shapes(both) == UnitsAsked{{day, {"510300.SH"}}, {day, {"510300.SH"}}, {span, {"000300.SH"}}});
  }
}
