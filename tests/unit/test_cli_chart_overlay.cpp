// The --overlay option of `ashare chart` (cli/chart/overlay): the accepted specs with the API's
// defaults and checks (D13), the usage error for anything else (verbatim), the legend labels,
// which go in panes, and the values lined up with the bars by date.
#include "cli/chart/overlay.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

using namespace ashare;
using namespace ashare::cli::chart;

TEST_CASE("cli::parse_overlays") {
  using query::Indicator;
  SUBCASE("accepted, parameters left out taking the API's defaults (D13)") {
    const auto one = parse_overlays("sma:20");
    REQUIRE(one);
    REQUIRE(one->size() == 1);
    CHECK((*one)[0].query.indicator == Indicator::sma);
    CHECK((*one)[0].query.window == 20);

    const auto two = parse_overlays("sma:20,ema:50");
    REQUIRE(two);
    REQUIRE(two->size() == 2);
    CHECK((*two)[1].query.indicator == Indicator::ema);
    CHECK((*two)[1].query.window == 50);
    CHECK(parse_overlays("ema:1"));
    CHECK(parse_overlays("sma:5000"));

    const auto all = parse_overlays("bbands,bbands:10:1.5,macd,macd:5:35,macd:6:13:4,kdj,kdj:14:2:5,"
                                    "rsi,rsi:6,atr:20");
    REQUIRE(all);
    REQUIRE(all->size() == 10);
    const auto& q = *all;
    CHECK((q[0].query.indicator == Indicator::bbands && q[0].query.window == 20 && q[0].query.k == 2));
    CHECK((q[1].query.window == 10 && q[1].query.k == 1.5));
    CHECK((q[2].query.indicator == Indicator::macd && q[2].query.fast == 12 && q[2].query.slow == 26
           && q[2].query.signal == 9));
    CHECK((q[3].query.fast == 5 && q[3].query.slow == 35 && q[3].query.signal == 9));
    CHECK((q[4].query.fast == 6 && q[4].query.slow == 13 && q[4].query.signal == 4));
    CHECK((q[5].query.indicator == Indicator::kdj && q[5].query.n == 9 && q[5].query.m1 == 3
           && q[5].query.m2 == 3));
    CHECK((q[6].query.n == 14 && q[6].query.m1 == 2 && q[6].query.m2 == 5));
    CHECK((q[7].query.indicator == Indicator::rsi && q[7].query.window == 14));
    CHECK(q[8].query.window == 6);
    CHECK((q[9].query.indicator == Indicator::atr && q[9].query.window == 20));
  }
  SUBCASE("refused, quoting the first bad item and saying why") {
    const std::string grammar =
        "expected sma:N, ema:N, bbands[:N[:K]], rsi[:N], atr[:N], macd[:FAST[:SLOW[:SIGNAL]]] or "
        "kdj[:N[:M1[:M2]]], comma-separated (e.g. sma:20,bbands,macd)";
    struct Row {
      const char* text;
      const char* item;
      std::string why;
    };
    for (const auto& row : std::vector<Row>{
           {"", "", grammar},
           {"sma", "sma", grammar},
           {"ema", "ema", grammar},
           {"SMA:20", "SMA:20", grammar},
           {"sma:20,", "", grammar},
           {"sma:20,,ema:5", "", grammar},
           {"sma:20,boll:20", "boll:20", grammar},
           {"sma:20:3", "sma:20:3", grammar},
           {"macd:1:2:3:4", "macd:1:2:3:4", grammar},
           {"bbands:20:2:1", "bbands:20:2:1", grammar},
           {"sma:", "sma:", "invalid window \"\": expected an integer from 1 to 5000"},
           {"sma:0", "sma:0", "invalid window \"0\": expected an integer from 1 to 5000"},
           {"sma:5001", "sma:5001", "invalid window \"5001\": expected an integer from 1 to 5000"},
           {"sma:2x", "sma:2x", "invalid window \"2x\": expected an integer from 1 to 5000"},
           {"sma:20 ", "sma:20 ", "invalid window \"20 \": expected an integer from 1 to 5000"},
           {"bbands:1", "bbands:1", "invalid window \"1\": expected an integer from 2 to 5000"},
           {"macd:26", "macd:26", "invalid fast \"26\": expected less than slow (26)"},
           {"macd:1", "macd:1", "invalid fast \"1\": expected an integer from 2 to 5000"},
           {"kdj:9:0", "kdj:9:0", "invalid m1 \"0\": expected an integer from 1 to 5000"}}) {
      CAPTURE(row.text);
      const auto parsed = parse_overlays(row.text);
      REQUIRE_FALSE(parsed);
      CHECK(parsed.error().code == ErrorCode::invalid_input);
      CHECK(parsed.error().message == "invalid --overlay \"" + std::string(row.item) + "\": " + row.why);
    }
    const auto k = parse_overlays("bbands:20:1e1");
    REQUIRE_FALSE(k);
    CHECK(k.error().message.rfind("invalid --overlay \"bbands:20:1e1\": invalid k \"1e1\"", 0) == 0);
  }
}

TEST_CASE("cli::overlay_label, line_labels and has_own_pane") {
  const auto specs = *parse_overlays("sma:20,ema:5,bbands:20:2.5,rsi,atr:10,macd,kdj");
  const std::vector<std::string> labels{"SMA 20",      "EMA 5",  "BOLL 20 2.5",  "RSI 14",
                                        "ATR 10",      "MACD 12 26 9", "KDJ 9 3 3"};
  const std::vector<bool> panes{false, false, false, true, true, true, true};
  for (std::size_t i = 0; i < specs.size(); ++i) {
    CAPTURE(i);
    CHECK(overlay_label(specs[i]) == labels[i]);
    CHECK(has_own_pane(specs[i]) == panes[i]);
  }
  CHECK(line_labels(specs[0]) == std::vector<std::string>{"SMA 20"});
  CHECK(line_labels(specs[2]) == std::vector<std::string>{"MID", "UPPER", "LOWER"});
  CHECK(line_labels(specs[5]) == std::vector<std::string>{"DIF", "DEA"});
  CHECK(line_labels(specs[6]) == std::vector<std::string>{"K", "D", "J"});
}

TEST_CASE("cli::align_values: by the day's t, NaN where there is none") {
  std::vector<domain::Bar> bars(3);
  bars[0].trade_date = *domain::parse_iso_date("2024-01-02", "date");
  bars[1].trade_date = *domain::parse_iso_date("2024-01-03", "date");
  bars[2].trade_date = *domain::parse_iso_date("2024-01-04", "date");
  const std::vector<query::IndicatorValue> values{{1704211200000, 10.5}, {1704297600000, 11.25}};
  const auto aligned = align_values(bars, values);
  REQUIRE(aligned.size() == 3);
  CHECK(std::isnan(aligned[0]));
  CHECK(aligned[1] == 10.5);
  CHECK(aligned[2] == 11.25);
  // Another named value of the same items (MACD's signal, here).
  std::vector<query::IndicatorValue> named{{1704211200000, 1, 2, 3}};
  const auto second = align_values(bars, named, &query::IndicatorValue::second);
  CHECK(std::isnan(second[0]));
  CHECK(second[1] == 2);
  CHECK(std::isnan(second[2]));
}
