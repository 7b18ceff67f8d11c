// The --overlay option of `ashare chart` (cli/chart/overlay): the accepted specs, the usage error
// for anything else (verbatim), the legend labels, and the values lined up with the bars by date.
#include "cli/chart/overlay.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

using namespace ashare;
using namespace ashare::cli::chart;

TEST_CASE("cli::parse_overlays") {
  SUBCASE("accepted") {
    const auto one = parse_overlays("sma:20");
    REQUIRE(one);
    REQUIRE(one->size() == 1);
    CHECK((*one)[0].indicator == "sma");
    CHECK((*one)[0].window == 20);

    const auto two = parse_overlays("sma:20,ema:50");
    REQUIRE(two);
    REQUIRE(two->size() == 2);
    CHECK((*two)[1].indicator == "ema");
    CHECK((*two)[1].window == 50);
    CHECK(parse_overlays("ema:1"));
    CHECK(parse_overlays("sma:5000"));
  }
  SUBCASE("refused, quoting the first bad item") {
    struct Row {
      const char* text;
      const char* item;
    };
    for (const auto& row : std::vector<Row>{{"", ""},
                                            {"rsi:14", "rsi:14"},
                                            {"sma", "sma"},
                                            {"sma:", "sma:"},
                                            {"sma:0", "sma:0"},
                                            {"sma:5001", "sma:5001"},
                                            {"sma:2x", "sma:2x"},
                                            {"sma:-3", "sma:-3"},
                                            {"SMA:20", "SMA:20"},
                                            {"sma:20,", ""},
                                            {"sma:20,,ema:5", ""},
                                            {"sma:20,boll:20", "boll:20"},
                                            {"sma:20 ", "sma:20 "}}) {
      CAPTURE(row.text);
      const auto parsed = parse_overlays(row.text);
      REQUIRE_FALSE(parsed);
      CHECK(parsed.error().code == ErrorCode::invalid_input);
      CHECK(parsed.error().message
            == "invalid --overlay \"" + std::string(row.item)
                   + "\": expected sma:N or ema:N with N from 1 to 5000, comma-separated "
                     "(e.g. sma:20,ema:50)");
    }
  }
}

TEST_CASE("cli::overlay_label") {
  CHECK(overlay_label({"sma", 20}) == "SMA 20");
  CHECK(overlay_label({"ema", 5}) == "EMA 5");
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
}
