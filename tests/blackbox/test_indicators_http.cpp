// SPEC sections 2-4 ("Rules common to the indicator endpoints") and D9, with D1, D2, D4-D7 and D10,
// over HTTP against the shared server: values equal TA-Lib's (tests/data/talib), never depend on
// the filters, the defaults, the time filters, both response forms, every error code, plan
// clipping and credits. Expected values come from the fixture files, never from the server.
#include "fixtures.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <set>

using namespace bb;
using namespace bb::indicator_tests;
using nlohmann::json;

namespace {

const std::vector<std::string> k_indicators{"ema", "rsi", "sma"};
const std::map<std::string, int> k_default_window{{"ema", 50}, {"rsi", 14}, {"sma", 50}};
const std::vector<int> k_windows{2, 5, 14, 50, 200};

// The points of a `values` array; every item is exactly {timestamp: integer, value: number}.
std::vector<Point> points(const json& values) {
  REQUIRE(values.is_array());
  std::vector<Point> out;
  for (const auto& item : values) {
    REQUIRE(item.is_object());
    REQUIRE(keys_of(item) == std::set<std::string>{"timestamp", "value"});
    REQUIRE(item["timestamp"].is_number_integer());
    REQUIRE(item["value"].is_number());
    out.push_back(Point{item["timestamp"].get<std::int64_t>(), item["value"].get<double>()});
  }
  return out;
}

// The points of a single-symbol 200 reply.
std::vector<Point> single_points(const Reply& reply) {
  const auto body = ok_body(reply);
  REQUIRE(body["results"].is_object());
  return points(body["results"]["values"]);
}

// One price field of 600519.SH from its fixture, ascending: raw, or adjusted as D9 defines it
// (D8 without the rounding, evaluated left to right).
std::vector<Point> moutai_series(bool adjusted, double CsvBar::*field) {
  const auto rows = read_csv(fixture("bancob_600519.SH.csv"));
  const double latest = *rows.back().factor;
  std::vector<Point> out;
  for (const auto& row : rows) {
    const double raw = row.*field;
    out.push_back(Point{t_ms(row.date), adjusted ? raw * *row.factor / latest : raw});
  }
  return out;
}

// `count` distinct well-formed symbols: the known ones first, then unknown ones (300xxx.SZ).
std::string symbol_list(std::size_t count) {
  const std::vector<std::string> known{"600519.SH", "600036.SH", "002594.SZ",
                                       "000001.SZ", "600276.SH", "609001.SH"};
  std::string out;
  for (std::size_t i = 0; i < count; ++i) {
    const std::string number = std::to_string(i % 1000);
    const std::string unknown = "300" + std::string(3 - number.size(), '0') + number + ".SZ";
    out += (out.empty() ? "" : ",") + (i < known.size() ? known[i] : unknown);
  }
  return out;
}

} // namespace

TEST_CASE("D9 indicators: values equal TA-Lib's over the whole history, adjusted and raw") {
  struct Source {
    std::string symbol;
    bool adjusted;
  };
  const std::vector<Source> sources{
      {"600519.SH", true}, {"600519.SH", false}, {"000001.SZ", false}};
  for (const auto& indicator : k_indicators) {
    for (const auto& source : sources) {
      const auto& ref = reference(source.symbol, source.adjusted, indicator);
      for (const auto& series : k_series_types) {
        for (const int window : k_windows) {
          const std::string column = series + "_" + std::to_string(window);
          CAPTURE(indicator);
          CAPTURE(source.symbol);
          CAPTURE(source.adjusted);
          CAPTURE(column);
          const auto got = single_points(
              ind(indicator, "symbol=" + source.symbol + "&adjusted="
                                 + (source.adjusted ? "true" : "false") + "&series_type=" + series
                                 + "&window=" + std::to_string(window) + "&order=asc&limit=5000"));
          check_matches(got, ref.column(column));
        }
      }
    }
  }
}

TEST_CASE(
    "D9 indicators: window 1 is the series itself (SMA, EMA) and the sign of the move (RSI)") {
  const auto adjusted_close = moutai_series(true, &CsvBar::close);
  for (const std::string indicator : {"sma", "ema"}) {
    CAPTURE(indicator);
    check_matches(single_points(ind(indicator, "symbol=600519.SH&window=1&order=asc&limit=5000")),
                  adjusted_close);
  }
  const auto raw_open = moutai_series(false, &CsvBar::open);
  std::vector<Point> rsi;
  for (std::size_t i = 1; i < raw_open.size(); ++i) {
    rsi.push_back(Point{raw_open[i].t, raw_open[i].value > raw_open[i - 1].value ? 100.0 : 0.0});
  }
  check_matches(single_points(ind("rsi", "symbol=600519.SH&window=1&series_type=open&adjusted=false"
                                         "&order=asc&limit=5000")),
                rsi);
  SUBCASE("a window longer than the history gives no values, still 200") {
    for (const auto& indicator : k_indicators) {
      CAPTURE(indicator);
      CHECK(single_points(ind(indicator, "symbol=600519.SH&window=5000&order=asc&limit=5000"))
                .empty());
    }
  }
}

TEST_CASE("D9 indicators: a value never depends on the filters, the order or the limit") {
  const std::vector<std::pair<std::string, int>> cases{{"sma", 5}, {"ema", 14}, {"rsi", 50}};
  for (const auto& [indicator, window] : cases) {
    CAPTURE(indicator);
    const std::string base = "symbol=600519.SH&window=" + std::to_string(window);
    const auto all = single_points(ind(indicator, base + "&order=asc&limit=5000"));
    check_matches(
        all, reference("600519.SH", true, indicator).column("close_" + std::to_string(window)));
    // Exact equality: the same day's value is the same number whatever else the request says.
    for (const std::string limit : {"1", "3", "10", "250"}) {
      CAPTURE(limit);
      CHECK(single_points(ind(indicator, base + "&limit=" + limit))
            == first(reversed(all), static_cast<std::size_t>(std::stoi(limit))));
      CHECK(single_points(ind(indicator, base + "&order=asc&limit=" + limit))
            == first(all, static_cast<std::size_t>(std::stoi(limit))));
    }
    const auto lo = t_ms("2024-03-01");
    const auto hi = t_ms("2024-06-28");
    const auto in_window = filtered(all, [&](std::int64_t t) { return t >= lo && t <= hi; });
    REQUIRE(in_window.size() > 50);
    CHECK(single_points(ind(indicator, base
                                           + "&order=asc&limit=5000&timestamp.gte=2024-03-01"
                                             "&timestamp.lte=2024-06-28"))
          == in_window);
    CHECK(single_points(ind(indicator, base
                                           + "&limit=7&timestamp.gte=2024-03-01"
                                             "&timestamp.lte=2024-06-28"))
          == first(reversed(in_window), 7));
    for (const auto& p : first(in_window, 5)) {
      const auto one = single_points(ind(indicator, base + "&timestamp=" + std::to_string(p.t)));
      CHECK(one == std::vector<Point>{p});
    }
  }
}

TEST_CASE("D9 indicators: next_url when limit leaves values out, so nothing is cut silently") {
  const std::string window = "&timestamp.gte=2024-03-01&timestamp.lte=2024-06-28";
  const auto all = single_points(ind("sma", "symbol=600519.SH&window=5&order=asc&limit=5000"));
  const auto lo = t_ms("2024-03-01");
  const auto hi = t_ms("2024-06-28");
  const auto in_window = filtered(all, [&](std::int64_t t) { return t >= lo && t <= hi; });
  REQUIRE(in_window.size() > 50);
  // Every page of 7 values, following next_url from the first, gives the window exactly once.
  for (const std::string order : {"asc", "desc"}) {
    CAPTURE(order);
    std::vector<Point> collected;
    std::string next = target("sma", "symbol=600519.SH&window=5&limit=7&order=" + order + window);
    std::size_t pages = 0;
    while (!next.empty()) {
      const auto body = ok_body(get(next));
      const auto page = points(body["results"]["values"]);
      REQUIRE(page.size() <= 7);
      collected.insert(collected.end(), page.begin(), page.end());
      ++pages;
      next = body["results"].value("next_url", "");
      if (!next.empty()) {
        CHECK(page.size() == 7);
        CHECK(next.rfind("/v1/indicators/sma?", 0) == 0);
        CHECK(next.find(order == "asc" ? "timestamp.gt=" : "timestamp.lt=") != std::string::npos);
      }
      REQUIRE(pages < 100);
    }
    CHECK(collected == (order == "asc" ? in_window : reversed(in_window)));
    CHECK(pages == (in_window.size() + 6) / 7);
  }
  // A limit that holds the whole range: no next_url.
  const auto whole = ok_body(ind("sma", "symbol=600519.SH&window=5&order=asc&limit="
                                          + std::to_string(in_window.size()) + window));
  CHECK_FALSE(whole["results"].contains("next_url"));
  // Multi-symbol: each item's next_url names its symbol alone; an unknown symbol's has none.
  const auto multi = ok_body(ind("sma", "symbol=600519.SH,600036.SH,999999.SH&window=5&limit=3"
                                        "&order=asc" + window));
  const auto& results = multi["results"];
  REQUIRE(results.size() == 3);
  for (int i = 0; i < 2; ++i) {
    const std::string symbol = results[i]["symbol"];
    CAPTURE(symbol);
    const std::string next = results[i].value("next_url", "");
    REQUIRE_FALSE(next.empty());
    const auto page = ok_body(get(next));
    REQUIRE(page["results"].is_object()); // one symbol: the single-symbol form
    const auto expected =
      single_points(ind("sma", "symbol=" + symbol + "&window=5&order=asc&limit=6" + window));
    REQUIRE(expected.size() == 6);
    CHECK(points(page["results"]["values"])
          == std::vector<Point>(expected.begin() + 3, expected.end()));
  }
  CHECK_FALSE(results[2].contains("next_url"));
}

TEST_CASE("SPEC 2-4 indicators: defaults window 50/14/50, close, desc, limit 10, adjusted") {
  for (const auto& indicator : k_indicators) {
    CAPTURE(indicator);
    const int window = k_default_window.at(indicator);
    const auto defaults = ok_body(ind(indicator, "symbol=600519.SH"));
    CHECK(keys_of(defaults) == std::set<std::string>{"status", "request_id", "results"});
    CHECK(defaults["status"] == "OK");
    // The whole history holds more than 10 values: next_url says so (D9).
    CHECK(keys_of(defaults["results"]) == std::set<std::string>{"values", "next_url"});
    CHECK(defaults["results"]["next_url"]
          == "/v1/indicators/" + indicator + "?symbol=600519.SH&timestamp.lt=2025-10-10");
    const auto got = points(defaults["results"]["values"]);
    // Against TA-Lib: the latest 10 values of the adjusted close, newest first.
    const auto& ref =
        reference("600519.SH", true, indicator).column("close_" + std::to_string(window));
    check_matches(got, first(reversed(ref), 10));
    // Against the same request with every default spelled out.
    const auto explicit_body =
        ok_body(ind(indicator, "symbol=600519.SH&window=" + std::to_string(window)
                                   + "&series_type=close&order=desc&limit=10&adjusted=true"
                                     "&timespan=day&expand_underlying=false"));
    CHECK(explicit_body["results"]["values"] == defaults["results"]["values"]);
    CHECK(explicit_body["results"]["next_url"]
          == "/v1/indicators/" + indicator
               + "?symbol=600519.SH&limit=10&timestamp.lt=2025-10-10"); // every parameter kept
    // And the defaults are not what another choice gives.
    CHECK(ok_body(ind(indicator, "symbol=600519.SH&adjusted=false"))["results"]
          != defaults["results"]);
  }
}

TEST_CASE("D9 indicators: timespan day only, on all three endpoints") {
  for (const auto& indicator : k_indicators) {
    CAPTURE(indicator);
    const auto plain = ok_body(ind(indicator, "symbol=600519.SH"))["results"];
    for (const std::string value : {"day", "DAY", "Day"}) {
      CAPTURE(value);
      CHECK(ok_body(ind(indicator, "symbol=600519.SH&timespan=" + value))["results"] == plain);
    }
    for (const std::string value : {"week", "minute", "days", "1day", ""}) {
      CAPTURE(value);
      const auto reply = ind(indicator, "symbol=600519.SH&timespan=" + value);
      check_error(reply, 400, "INVALID_PARAMETER");
      CHECK(reply.json()["error"]["message"].get<std::string>().find("timespan")
            != std::string::npos);
    }
  }
}

TEST_CASE("D9 indicators: expand_underlying adds {series_type, adjusted}") {
  SUBCASE("single form") {
    for (const auto& indicator : k_indicators) {
      CAPTURE(indicator);
      const auto body = ok_body(ind(indicator, "symbol=600519.SH&expand_underlying=true"));
      CHECK(keys_of(body["results"])
            == std::set<std::string>{"values", "underlying", "next_url"});
      CHECK(body["results"]["underlying"] == json{{"series_type", "close"}, {"adjusted", true}});
      const auto plain = ok_body(ind(indicator, "symbol=600519.SH"));
      CHECK(body["results"]["values"] == plain["results"]["values"]);

      const auto low = ok_body(ind(indicator, "symbol=600519.SH&expand_underlying=TRUE"
                                              "&series_type=LOW&adjusted=False"));
      CHECK(low["results"]["underlying"] == json{{"series_type", "low"}, {"adjusted", false}});
      CHECK(
          low["results"]["values"]
          == ok_body(ind(indicator,
                         "symbol=600519.SH&series_type=low&adjusted=false"))["results"]["values"]);
      CHECK_FALSE(
          ok_body(ind(indicator, "symbol=600519.SH&expand_underlying=false"))["results"].contains(
              "underlying"));
    }
  }
  SUBCASE("multi form, unknown items included") {
    for (const auto& indicator : k_indicators) {
      CAPTURE(indicator);
      const auto body = ok_body(ind(indicator, "symbol=600519.SH,000002.SZ,000001.SZ&limit=2"
                                               "&expand_underlying=1&series_type=High"));
      REQUIRE(body["results"].size() == 3);
      for (const auto& item : body["results"]) {
        CHECK(item["underlying"] == json{{"series_type", "high"}, {"adjusted", true}});
      }
      const auto plain = ok_body(ind(indicator, "symbol=600519.SH,000001.SZ&limit=2"));
      for (const auto& item : plain["results"]) {
        CHECK_FALSE(item.contains("underlying"));
      }
    }
  }
}

TEST_CASE("D4 indicators: enumerations and booleans in any letter case") {
  for (const auto& indicator : k_indicators) {
    CAPTURE(indicator);
    const std::string base = "symbol=600519.SH&window=5&limit=20";
    const auto canonical = [&](const std::string& query) {
      return ok_body(ind(indicator, base + "&" + query))["results"];
    };
    const std::vector<std::pair<std::string, std::string>> same{
        {"series_type=high", "series_type=HIGH"},
        {"series_type=high", "series_type=High"},
        {"series_type=open", "series_type=oPeN"},
        {"order=asc", "order=ASC"},
        {"order=desc", "order=Desc"},
        {"adjusted=true", "adjusted=TRUE"},
        {"adjusted=true", "adjusted=1"},
        {"adjusted=false", "adjusted=FALSE"},
        {"adjusted=false", "adjusted=0"},
        {"adjusted=false", "adjusted=fAlSe"},
    };
    for (const auto& [lower, other] : same) {
      CAPTURE(other);
      CHECK(canonical(other) == canonical(lower));
    }
    CHECK(canonical("order=asc") != canonical("order=desc"));
    CHECK(canonical("adjusted=true") != canonical("adjusted=false"));
    CHECK(canonical("series_type=high") != canonical("series_type=open"));
    CHECK(canonical("expand_underlying=True")["underlying"]
          == json{{"series_type", "close"}, {"adjusted", true}});
  }
}

TEST_CASE("D9 indicators: timestamp selects the trading day (UTC+8) holding the instant") {
  const auto all = reference("600519.SH", true, "sma").column("close_5");
  const auto value_on = [&](const std::string& date) {
    return filtered(all, [&](std::int64_t t) { return t == t_ms(date); });
  };
  const auto day = t_ms("2024-01-04"); // a Thursday
  REQUIRE(value_on("2024-01-04").size() == 1);
  REQUIRE(value_on("2024-01-03").size() == 1);
  const std::string base = "symbol=600519.SH&window=5&timestamp=";
  const std::vector<std::pair<std::string, std::vector<Point>>> cases{
      {"2024-01-04", value_on("2024-01-04")},
      {std::to_string(day), value_on("2024-01-04")},
      {std::to_string(day + 1), value_on("2024-01-04")},
      {std::to_string(day + 8 * 3'600'000), value_on("2024-01-04")}, // 08:00 Beijing
      {std::to_string(day + 15 * 3'600'000 + 123), value_on("2024-01-04")},
      {std::to_string(day + 86'400'000 - 1), value_on("2024-01-04")},
      {std::to_string(day - 1), value_on("2024-01-03")},
      {"2024-01-06", {}}, // Saturday
      {"2024-01-07", {}}, // Sunday
      {std::to_string(t_ms("2024-01-06") + 12 * 3'600'000), {}},
      {"2024-02-12", {}}, // Spring Festival holiday
      {"2010-01-04", {}}, // before the history
      {"2026-01-05", {}}, // after as_of
  };
  for (const auto& [timestamp, expected] : cases) {
    CAPTURE(timestamp);
    const auto reply = ind("sma", base + timestamp);
    const auto body = ok_body(reply);
    CHECK(body["status"] == "OK");
    check_matches(points(body["results"]["values"]), expected);
  }
}

TEST_CASE("D9 indicators: timestamp.gte/gt/lte/lt in date and millisecond forms, ANDed") {
  const auto all = reference("600519.SH", true, "ema").column("close_14");
  const std::string base = "symbol=600519.SH&window=14&order=asc&limit=5000";
  const auto d = t_ms("2024-01-04");
  const auto ms = [](std::int64_t t) { return std::to_string(t); };
  using Keep = std::function<bool(std::int64_t)>;
  const std::vector<std::pair<std::string, Keep>> cases{
      {"timestamp.gte=2024-01-04", [&](std::int64_t t) { return t >= d; }},
      {"timestamp.gte=" + ms(d), [&](std::int64_t t) { return t >= d; }},
      {"timestamp.gte=" + ms(d + 1), [&](std::int64_t t) { return t > d; }},
      {"timestamp.gt=2024-01-04", [&](std::int64_t t) { return t > d; }},
      {"timestamp.gt=" + ms(d), [&](std::int64_t t) { return t > d; }},
      {"timestamp.gt=" + ms(d - 1), [&](std::int64_t t) { return t >= d; }},
      {"timestamp.lte=2024-01-04", [&](std::int64_t t) { return t <= d; }},
      {"timestamp.lte=" + ms(d), [&](std::int64_t t) { return t <= d; }},
      {"timestamp.lte=" + ms(d - 1), [&](std::int64_t t) { return t < d; }},
      {"timestamp.lt=2024-01-04", [&](std::int64_t t) { return t < d; }},
      {"timestamp.lt=" + ms(d), [&](std::int64_t t) { return t < d; }},
      {"timestamp.lt=" + ms(d + 1), [&](std::int64_t t) { return t <= d; }},
      {"timestamp.gte=2024-01-02&timestamp.lt=2024-02-01",
       [&](std::int64_t t) { return t >= t_ms("2024-01-02") && t < t_ms("2024-02-01"); }},
      {"timestamp.gt=2024-01-02&timestamp.lte=" + ms(t_ms("2024-01-31")),
       [&](std::int64_t t) { return t > t_ms("2024-01-02") && t <= t_ms("2024-01-31"); }},
      {"timestamp.gte=2024-01-01&timestamp.gt=2024-01-03&timestamp.lte=2024-03-01"
       "&timestamp.lt=2024-02-29",
       [&](std::int64_t t) { return t > t_ms("2024-01-03") && t < t_ms("2024-02-29"); }},
      {"timestamp.gte=2024-02-01&timestamp.lte=2024-01-31", [](std::int64_t) { return false; }},
      // With `timestamp`: every condition must hold.
      {"timestamp=2024-01-04&timestamp.gte=2024-01-04", [&](std::int64_t t) { return t == d; }},
      {"timestamp=2024-01-04&timestamp.lte=2024-01-04", [&](std::int64_t t) { return t == d; }},
      {"timestamp=2024-01-04&timestamp.lt=2024-01-05&timestamp.gt=2024-01-03",
       [&](std::int64_t t) { return t == d; }},
      {"timestamp=2024-01-04&timestamp.gt=2024-01-04", [](std::int64_t) { return false; }},
      {"timestamp=2024-01-04&timestamp.lt=2024-01-04", [](std::int64_t) { return false; }},
      {"timestamp=2024-01-04&timestamp.lte=2024-01-03", [](std::int64_t) { return false; }},
      {"timestamp=2024-01-04&timestamp.gte=2024-01-05", [](std::int64_t) { return false; }},
      // `timestamp` selects day D (its t is midnight); a bound later that day excludes it.
      {"timestamp=" + ms(d + 3'600'000) + "&timestamp.gte=" + ms(d + 3'600'000),
       [](std::int64_t) { return false; }},
      {"timestamp=" + ms(d + 3'600'000) + "&timestamp.lt=" + ms(d + 1),
       [&](std::int64_t t) { return t == d; }},
  };
  for (const auto& [query, keep] : cases) {
    CAPTURE(query);
    const auto body = ok_body(ind("ema", base + "&" + query));
    CHECK(body["status"] == "OK");
    const auto expected = filtered(all, keep);
    check_matches(points(body["results"]["values"]), expected);
  }
}

TEST_CASE(
    "SPEC indicator rules 1-3 / D1: single and multi-symbol forms, PARTIAL, per-symbol limit") {
  SUBCASE("single: an object, OK even when empty") {
    const auto body = ok_body(ind("rsi", "symbol=600519.sh&timestamp=2024-01-06"));
    CHECK(keys_of(body) == std::set<std::string>{"status", "request_id", "results"});
    CHECK(body["status"] == "OK");
    CHECK(body["results"] == json{{"values", json::array()}});
  }
  SUBCASE("multi: resultsCount is the number of symbols, items in request order, limit each") {
    const std::vector<std::string> order{"600036.SH", "600519.SH", "000001.SZ"};
    const auto body =
        ok_body(ind("sma", "symbol=600036.sh,600519.SH,000001.Sz&window=5&limit=3&order=asc"));
    CHECK(keys_of(body)
          == std::set<std::string>{"status", "request_id", "resultsCount", "results"});
    CHECK(body["status"] == "OK");
    CHECK(body["resultsCount"] == 3);
    REQUIRE(body["results"].is_array());
    REQUIRE(body["results"].size() == 3);
    for (std::size_t i = 0; i < order.size(); ++i) {
      const auto& item = body["results"][i];
      CAPTURE(order[i]);
      CHECK(keys_of(item)
            == std::set<std::string>{"symbol", "resultsCount", "values", "next_url"});
      CHECK(item["symbol"] == order[i]);
      // D9: limit left values out; the rest is asked for this symbol alone.
      const auto next = item["next_url"].get<std::string>();
      CHECK(next.rfind("/v1/indicators/sma?symbol=" + order[i] + "&", 0) == 0);
      CHECK(item["resultsCount"] == 3);
      // Each item equals that symbol's single-symbol answer.
      CHECK(points(item["values"])
            == single_points(ind("sma", "symbol=" + order[i] + "&window=5&limit=3&order=asc")));
    }
    check_matches(points(body["results"][1]["values"]),
                  first(reference("600519.SH", true, "sma").column("close_5"), 3));
    check_matches(points(body["results"][2]["values"]),
                  first(reference("000001.SZ", false, "sma").column("close_5"), 3));
  }
  SUBCASE("multi: the default limit 10 applies per symbol") {
    const auto body = ok_body(ind("ema", "symbol=600519.SH,002594.SZ,609001.SH"));
    CHECK(body["status"] == "OK");
    for (const auto& item : body["results"]) {
      CHECK(item["resultsCount"] == 10);
      CHECK(item["values"].size() == 10);
    }
  }
  SUBCASE("PARTIAL when a known symbol has empty values (no error on it)") {
    // 000001.SZ's history ends on 2024-12-31.
    const auto body =
        ok_body(ind("rsi", "symbol=600519.SH,000001.SZ&timestamp.gte=2025-01-02&limit=4"));
    CHECK(body["status"] == "PARTIAL");
    CHECK(body["resultsCount"] == 2);
    CHECK(body["results"][0]["resultsCount"] == 4);
    CHECK(body["results"][1]
          == json{{"symbol", "000001.SZ"}, {"resultsCount", 0}, {"values", json::array()}});
    // Every item empty: still 200, PARTIAL.
    const auto none = ok_body(ind("rsi", "symbol=600519.SH,000001.SZ&timestamp=2024-01-06"));
    CHECK(none["status"] == "PARTIAL");
    CHECK(none["resultsCount"] == 2);
  }
  SUBCASE("PARTIAL with an unknown symbol carrying error INVALID_SYMBOL") {
    const auto body = ok_body(ind("sma", "symbol=600519.SH,000002.sz,600036.SH&limit=2"));
    CHECK(body["status"] == "PARTIAL");
    CHECK(body["resultsCount"] == 3);
    REQUIRE(body["results"].size() == 3);
    const auto& unknown = body["results"][1];
    CHECK(keys_of(unknown) == std::set<std::string>{"symbol", "resultsCount", "values", "error"});
    CHECK(unknown["symbol"] == "000002.SZ");
    CHECK(unknown["resultsCount"] == 0);
    CHECK(unknown["values"] == json::array());
    CHECK(keys_of(unknown["error"]) == std::set<std::string>{"code", "message"});
    CHECK(unknown["error"]["code"] == "INVALID_SYMBOL");
    CHECK(unknown["error"]["message"].get<std::string>().find("000002.SZ") != std::string::npos);
    for (const std::size_t i : {std::size_t{0}, std::size_t{2}}) {
      CHECK(body["results"][i]["resultsCount"] == 2);
      CHECK_FALSE(body["results"][i].contains("error"));
    }
  }
}

TEST_CASE("D1 / D4 / D9 indicators: 400 INVALID_SYMBOL and INVALID_PARAMETER") {
  for (const auto& indicator : k_indicators) {
    CAPTURE(indicator);
    { // INVALID_SYMBOL: malformed anywhere, or unknown alone
      for (const std::string symbols :
           {"600519", "600519.SHA", "60051.SH", "6005190.SH", "600519.HK", "abcdef.SH", "600519SH",
            "600519.SH,abc", "abc,600519.SH", "000002.SZ", "000002.sz"}) {
        CAPTURE(symbols);
        const auto reply = ind(indicator, "symbol=" + symbols);
        check_error(reply, 400, "INVALID_SYMBOL");
        const std::string item = symbols.find("abc") != std::string::npos ? "abc"
                                 : symbols == "000002.sz"                 ? "000002.SZ"
                                                                          : symbols;
        CHECK(reply.json()["error"]["message"].get<std::string>().find(item) != std::string::npos);
      }
    }
    { // INVALID_PARAMETER: missing, empty or duplicate symbols
      for (const std::string query :
           {"", "window=5", "symbol=", "symbol=,", "symbol=600519.SH,", "symbol=,600519.SH",
            "symbol=600519.SH,,600036.SH", "symbol=600519.SH,600519.SH",
            "symbol=600519.SH,600036.SH,600519.sh"}) {
        CAPTURE(query);
        const auto reply = ind(indicator, query);
        check_error(reply, 400, "INVALID_PARAMETER");
        CHECK(reply.json()["error"]["message"].get<std::string>().find("symbol")
              != std::string::npos);
      }
    }
    { // INVALID_PARAMETER: other parameters, the message naming them
      const std::vector<std::pair<std::string, std::vector<std::string>>> bad{
          {"window", {"0", "5001", "abc", "-1", "1.5", "", "+5", "5x", "99999999999999999999"}},
          {"limit", {"0", "5001", "abc", "-1", "1.5", "", "10x"}},
          {"series_type", {"volume", "", "adj_close", "closes", "vwap"}},
          {"order", {"up", "", "ascending", "1"}},
          {"adjusted", {"yes", "no", "2", "", "t"}},
          {"expand_underlying", {"yes", "2", "", "on"}},
          {"timespan", {"week", "month"}},
      };
      for (const auto& [name, values] : bad) {
        for (const auto& value : values) {
          CAPTURE(name);
          CAPTURE(value);
          const auto reply = ind(indicator, "symbol=600519.SH&" + name + "=" + value);
          check_error(reply, 400, "INVALID_PARAMETER");
          CHECK(reply.json()["error"]["message"].get<std::string>().find(name)
                != std::string::npos);
        }
      }
    }
    { // INVALID_PARAMETER: timestamp forms
      for (const std::string name :
           {"timestamp", "timestamp.gte", "timestamp.gt", "timestamp.lte", "timestamp.lt"}) {
        for (const std::string value :
             {"2024-1-04", "2024-02-30", "2023-02-29", "2024-13-01", "2024/01/04", "24-01-04",
              "2024-01-04T00:00:00Z", "abc", "", "1.5", "1e12", "+1704124800000", "-",
              "1704124800000ms", "99999999999999999999"}) {
          CAPTURE(name);
          CAPTURE(value);
          const auto reply = ind(indicator, "symbol=600519.SH&" + name + "=" + value);
          check_error(reply, 400, "INVALID_PARAMETER");
          CHECK(reply.json()["error"]["message"].get<std::string>().find(name)
                != std::string::npos);
        }
      }
    }
    { // the limits of window and limit themselves are accepted
      CHECK(ind(indicator, "symbol=600519.SH&window=1&limit=1").status == 200);
      CHECK(ind(indicator, "symbol=600519.SH&window=5000&limit=5000").status == 200);
    }
  }
}

TEST_CASE("D5 indicators: 401 UNAUTHORIZED for a missing, other-scheme, unknown or revoked key") {
  const auto port = shared().port();
  const auto& key = shared().pro.plaintext;
  for (const auto& indicator : k_indicators) {
    CAPTURE(indicator);
    const auto path = target(indicator, "symbol=600519.SH");
    const std::vector<std::optional<std::string>> bad{
        std::nullopt,
        "",
        "Basic " + key,
        "Token " + key,
        key,
        "Bearer " + key + "x",
        "Bearer ask_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"};
    for (const auto& authorization : bad) {
      CAPTURE(authorization.value_or("(none)"));
      const auto reply = request_with_authorization(port, path, authorization);
      check_error(reply, 401, "UNAUTHORIZED");
      CHECK(reply.header("WWW-Authenticate") == "Bearer");
    }
    CHECK(request_with_authorization(port, path, "bEaReR " + key).status == 200);
    // 401 comes before 400.
    check_error(request(port, target(indicator, "symbol=bad&window=0"), std::nullopt), 401,
                "UNAUTHORIZED");
  }
  SUBCASE("a revoked key") {
    const auto fresh = shared().store.create_key("pro", std::nullopt, "ind-revoke");
    REQUIRE(ind("sma", "symbol=600519.SH", fresh.plaintext).status == 200);
    REQUIRE(shared().store.cli({"keys", "revoke", std::to_string(fresh.id)}).status == 0);
    await_revoked(shared().store, shared().port(), "/v1/indicators/sma?symbol=600519.SH",
                  fresh.plaintext);
    for (const auto& indicator : k_indicators) {
      const auto reply = ind(indicator, "symbol=600519.SH", fresh.plaintext);
      check_error(reply, 401, "UNAUTHORIZED");
      CHECK(reply.header("WWW-Authenticate") == "Bearer");
    }
  }
}

TEST_CASE("D10 indicators: 404 for unknown paths, 405 for other methods") {
  const auto port = shared().port();
  for (const std::string path :
       {"/v1/indicators/cci", "/v1/indicators/sma/", "/v1/indicators/ema/", "/v1/indicators/rsi/",
        "/v1/indicators", "/v1/indicators/", "/v1/indicators/SMA", "/v1/indicators/sma/x",
        "/v2/indicators/sma"}) {
    for (const auto& key : {std::optional<std::string>(), std::optional(shared().pro.plaintext)}) {
      CAPTURE(path);
      const auto reply = request(port, path + std::string("?symbol=600519.SH"), key);
      check_error(reply, 404, "NOT_FOUND");
      CHECK_FALSE(reply.has_header("X-Credits-Remaining"));
    }
  }
  const auto metered = shared().store.create_key("pro", 5, "ind-405").plaintext;
  for (const auto& indicator : k_indicators) {
    for (const std::string method : {"POST", "PUT", "DELETE", "PATCH"}) {
      for (const auto& key : {std::optional<std::string>(), std::optional(metered)}) {
        CAPTURE(indicator);
        CAPTURE(method);
        const auto reply = request(port, target(indicator, "symbol=600519.SH"), key, method);
        check_error(reply, 405, "METHOD_NOT_ALLOWED");
        CHECK(reply.header("Allow") == "GET, HEAD");
        CHECK_FALSE(reply.has_header("X-Credits-Remaining"));
      }
    }
  }
}

TEST_CASE("D6 indicators: 403 PLAN_LIMIT for symbols, limit and an explicit early lower bound") {
  const auto& free = shared().free.plaintext;
  const auto& basic = shared().basic.plaintext;
  const auto& pro = shared().pro.plaintext;
  const auto count = [](std::size_t n) { return "symbol=" + symbol_list(n); };
  for (const auto& indicator : k_indicators) {
    CAPTURE(indicator);
    { // symbols: Free 1, Basic 5, Pro 20
      CHECK(ind(indicator, count(1), free).status == 200);
      check_error(ind(indicator, count(2), free), 403, "PLAN_LIMIT");
      CHECK(ind(indicator, count(5), basic).status == 200);
      check_error(ind(indicator, count(6), basic), 403, "PLAN_LIMIT");
      CHECK(ind(indicator, count(20), pro).status == 200);
      check_error(ind(indicator, count(21), pro), 403, "PLAN_LIMIT");
    }
    { // limit: Free 500
      CHECK(ind(indicator, "symbol=600519.SH&limit=500", free).status == 200);
      check_error(ind(indicator, "symbol=600519.SH&limit=501", free), 403, "PLAN_LIMIT");
      check_error(ind(indicator, "symbol=600519.SH&limit=5000", free), 403, "PLAN_LIMIT");
      check_error(ind(indicator, "symbol=600519.SH&limit=5001", free), 400, "INVALID_PARAMETER");
      CHECK(ind(indicator, "symbol=600519.SH&limit=5000", basic).status == 200);
    }
    { // an explicit lower bound before as_of minus 2 years (Free) or 5 years (Basic)
      // as_of 2025-10-23: Free reaches 2023-10-23, Basic 2020-10-23.
      const auto edge = t_ms("2023-10-23");
      for (const std::string name : {"timestamp", "timestamp.gte", "timestamp.gt"}) {
        CAPTURE(name);
        for (const auto& early : {std::string("2023-10-22"), std::to_string(edge - 1),
                                  std::string("2000-01-01"), std::string("0")}) {
          CAPTURE(early);
          const auto reply = ind(indicator, "symbol=600519.SH&" + name + "=" + early, free);
          check_error(reply, 403, "PLAN_LIMIT");
          CHECK(reply.json()["error"]["message"].get<std::string>().find("2023-10-23")
                != std::string::npos);
          CHECK(ind(indicator, "symbol=600519.SH&" + name + "=" + early, pro).status == 200);
        }
        for (const auto& ok : {std::string("2023-10-23"), std::to_string(edge)}) {
          CAPTURE(ok);
          CHECK(ind(indicator, "symbol=600519.SH&" + name + "=" + ok, free).status == 200);
        }
        check_error(ind(indicator, "symbol=000001.SZ&" + name + "=2020-10-22", basic), 403,
                    "PLAN_LIMIT");
        CHECK(ind(indicator, "symbol=000001.SZ&" + name + "=2020-10-23", basic).status == 200);
      }
      // Upper bounds alone are no lower bound: clipped, never refused.
      CHECK(ind(indicator, "symbol=600519.SH&timestamp.lte=2020-01-01", free).status == 200);
      CHECK(ind(indicator, "symbol=600519.SH&timestamp.lt=2023-10-22", free).status == 200);
    }
  }
}

TEST_CASE("D6 indicators: with no lower bound, values are clipped to the plan's history") {
  SUBCASE("Free: from as_of minus 2 years, the same numbers as Pro") {
    const auto edge = t_ms("2023-10-23");
    const auto ref = reference("600519.SH", true, "sma").column("close_5");
    const auto expected = filtered(ref, [&](std::int64_t t) { return t >= edge; });
    REQUIRE(expected.size() < 500);
    REQUIRE(expected.size() < ref.size());
    const auto free = single_points(
        ind("sma", "symbol=600519.SH&window=5&order=asc&limit=500", shared().free.plaintext));
    REQUIRE_FALSE(free.empty());
    CHECK(free.front().t >= edge);
    CHECK(free.front().t == t_ms("2023-10-23")); // a Monday, a trading day
    check_matches(free, expected);
    const auto pro = single_points(ind("sma", "symbol=600519.SH&window=5&order=asc&limit=5000"
                                              "&timestamp.gte=2023-10-23"));
    CHECK(free == pro);
    // An upper bound alone before the window: empty, not refused.
    CHECK(single_points(ind("sma", "symbol=600519.SH&window=5&timestamp.lte=2023-10-20",
                            shared().free.plaintext))
              .empty());
    CHECK(single_points(ind("sma",
                            "symbol=600519.SH&window=5&order=asc&limit=3"
                            "&timestamp.lte=2023-12-31",
                            shared().free.plaintext))
          == first(expected, 3));
    // The latest values are the same for every plan.
    for (const auto& indicator : k_indicators) {
      CAPTURE(indicator);
      CHECK(ind(indicator, "symbol=600519.SH", shared().free.plaintext).json()["results"]
            == ind(indicator, "symbol=600519.SH").json()["results"]);
    }
  }
  SUBCASE("Basic: from as_of minus 5 years") {
    const auto edge = t_ms("2020-10-23");
    const auto ref = reference("000001.SZ", false, "rsi").column("close_14");
    const auto expected = filtered(ref, [&](std::int64_t t) { return t >= edge; });
    REQUIRE(expected.size() < ref.size());
    const auto basic = single_points(ind(
        "rsi", "symbol=000001.SZ&adjusted=false&order=asc&limit=5000", shared().basic.plaintext));
    REQUIRE_FALSE(basic.empty());
    CHECK(basic.front().t == edge);
    check_matches(basic, expected);
    CHECK(basic
          == single_points(ind("rsi", "symbol=000001.SZ&adjusted=false&order=asc&limit=5000"
                                      "&timestamp.gte=2020-10-23")));
    check_matches(single_points(ind("rsi", "symbol=000001.SZ&adjusted=false&order=asc&limit=5000")),
                  ref);
    // The multi-symbol form clips each item the same way.
    const auto multi = ok_body(ind("rsi",
                                   "symbol=600519.SH,000001.SZ&adjusted=false&order=asc"
                                   "&limit=5000",
                                   shared().basic.plaintext));
    CHECK(points(multi["results"][1]["values"]) == basic);
    check_matches(points(multi["results"][0]["values"]),
                  reference("600519.SH", false, "rsi").column("close_14"));
  }
}

TEST_CASE("D7 indicators: one credit per served symbol, X-Credits-Remaining, HEAD as GET") {
  const auto port = shared().port();
  const auto created = shared().store.create_key("basic", 12, "ind-d7");
  const auto& key = created.plaintext;

  auto reply = ind("sma", "symbol=600519.SH", key);
  REQUIRE(reply.status == 200);
  CHECK(remaining(reply) == "11");

  reply = ind("ema", "symbol=600519.SH,600036.SH,000001.SZ", key);
  REQUIRE(reply.status == 200);
  CHECK(reply.json()["status"] == "OK");
  CHECK(remaining(reply) == "8");

  // An unknown symbol in a multi-symbol request is free.
  reply = ind("rsi", "symbol=600519.SH,000002.SZ,600036.SH", key);
  REQUIRE(reply.status == 200);
  CHECK(reply.json()["status"] == "PARTIAL");
  CHECK(remaining(reply) == "6");

  // A known symbol with empty values is served: 1 credit.
  reply = ind("sma", "symbol=600519.SH&timestamp=2024-01-06", key);
  REQUIRE(reply.status == 200);
  CHECK(reply.json()["results"]["values"] == json::array());
  CHECK(remaining(reply) == "5");

  // Every symbol unknown: cost 0.
  reply = ind("sma", "symbol=000002.SZ,000003.SZ", key);
  REQUIRE(reply.status == 200);
  CHECK(reply.json()["status"] == "PARTIAL");
  CHECK(remaining(reply) == "5");

  // Errors after authentication cost nothing and carry the balance.
  for (const std::string& path : std::vector<std::string>{
           target("sma", "symbol=600519.SH&window=0"),                    // 400
           target("ema", "symbol=000002.SZ"),                             // 400
           target("rsi", "symbol=600519.SH&timespan=week"),               // 400
           target("sma", "symbol=" + symbol_list(6)),                     // 403
           target("ema", "symbol=000001.SZ&timestamp.gte=2019-01-02")}) { // 403
    CAPTURE(path);
    reply = get(path, key);
    CHECK((reply.status == 400 || reply.status == 403));
    CHECK(remaining(reply) == "5");
  }
  // 404 and 405 come before authentication.
  CHECK_FALSE(get("/v1/indicators/cci?symbol=600519.SH", key).has_header("X-Credits-Remaining"));
  CHECK_FALSE(request(port, target("sma", "symbol=600519.SH"), key, "POST")
                  .has_header("X-Credits-Remaining"));
  CHECK(shared().store.listed_credits(created.id) == "5");

  SUBCASE("HEAD charges as GET and sends no body") {
    const auto two = target("rsi", "symbol=600519.SH,600036.SH");
    const auto head = request(port, two, key, "HEAD");
    CHECK(head.status == 200);
    CHECK(head.body.empty());
    CHECK(remaining(head) == "3");
    check_raw_head(port, target("sma", "symbol=600519.SH"), key, "2");
    CHECK(shared().store.listed_credits(created.id) == "2");
    const auto get_reply = request(port, two, key, "GET");
    CHECK(get_reply.status == 200);
    CHECK(remaining(get_reply) == "0");
  }
  SUBCASE("HEAD answers as GET would: same status and headers, no body") {
    const auto comparable = headers_but_volatile;
    for (const auto& path : {target("sma", "symbol=600519.SH"),
                             target("ema", "symbol=600519.SH,000002.SZ&expand_underlying=true"),
                             target("rsi", "symbol=600519.SH&window=0"), target("rsi", "")}) {
      CAPTURE(path);
      const auto get_reply = get(path);
      const auto head = request(port, path, shared().pro.plaintext, "HEAD");
      CHECK(head.status == get_reply.status);
      CHECK(head.body.empty());
      CHECK(comparable(head) == comparable(get_reply));
      CHECK(is_request_id(head.header("X-Request-Id")));
    }
  }
  SUBCASE("unmetered keys carry no balance") {
    CHECK_FALSE(ind("sma", "symbol=600519.SH").has_header("X-Credits-Remaining"));
  }
}

TEST_CASE("D7 indicators: 402 INSUFFICIENT_CREDITS charges nothing; check order 403 before 402") {
  const auto created = shared().store.create_key("basic", 1, "ind-poor");
  const auto& key = created.plaintext;
  for (const auto& indicator : k_indicators) {
    CAPTURE(indicator);
    const auto reply = ind(indicator, "symbol=600519.SH,600036.SH", key);
    check_error(reply, 402, "INSUFFICIENT_CREDITS");
    CHECK(remaining(reply) == "1");
    // 403 (six symbols on Basic) before 402.
    check_error(ind(indicator, "symbol=" + symbol_list(6), key), 403, "PLAN_LIMIT");
    // 400 before 403 and 402.
    check_error(ind(indicator, "symbol=" + symbol_list(6) + "&window=0", key), 400,
                "INVALID_PARAMETER");
  }
  CHECK(shared().store.listed_credits(created.id) == "1");
  auto reply = ind("rsi", "symbol=600519.SH", key);
  REQUIRE(reply.status == 200);
  CHECK(remaining(reply) == "0");
  reply = ind("sma", "symbol=600519.SH", key);
  check_error(reply, 402, "INSUFFICIENT_CREDITS");
  CHECK(remaining(reply) == "0");
  const auto head = request(shared().port(), target("sma", "symbol=600519.SH"), key, "HEAD");
  CHECK(head.status == 402);
  CHECK(head.body.empty());
  // A cost-0 request passes at any balance.
  reply = ind("ema", "symbol=000002.SZ,000003.SZ", key);
  CHECK(reply.status == 200);
  CHECK(remaining(reply) == "0");
  CHECK(shared().store.listed_credits(created.id) == "0");

  SUBCASE("a free key with no credits") {
    const auto broke = shared().store.create_key("free", 0, "ind-broke").plaintext;
    check_error(ind("sma", "symbol=600519.SH", broke), 402, "INSUFFICIENT_CREDITS");
    check_error(ind("sma", "symbol=600519.SH&timestamp.gte=2020-01-01", broke), 403, "PLAN_LIMIT");
    check_error(ind("sma", "symbol=600519.SH,600036.SH", broke), 403, "PLAN_LIMIT");
  }
}

TEST_CASE("D13 indicators: convention=tdx is 通达信's EMA and RSI; its SMA is TA-Lib's") {
  // D13's recurrences, seeded with the first value, over the D9 adjusted closes of the fixture.
  const auto close = moutai_series(true, &CsvBar::close);
  const int n = 12;
  std::vector<Point> ema{close.front()};
  for (std::size_t i = 1; i < close.size(); ++i) {
    ema.push_back(Point{close[i].t, (2 * close[i].value + (n - 1) * ema.back().value) / (n + 1)});
  }
  std::vector<Point> rsi;
  double rise = 0, move = 0;
  for (std::size_t i = 1; i < close.size(); ++i) {
    const double change = close[i].value - close[i - 1].value;
    rise = i == 1 ? std::max(change, 0.0) : (std::max(change, 0.0) + (n - 1) * rise) / n;
    move = i == 1 ? std::abs(change) : (std::abs(change) + (n - 1) * move) / n;
    rsi.push_back(Point{close[i].t, move == 0 ? 0.0 : rise / move * 100});
  }
  const std::string all = "symbol=600519.SH&window=12&order=asc&limit=5000";
  check_matches(single_points(ind("ema", all + "&convention=tdx")), ema);
  check_matches(single_points(ind("rsi", all + "&convention=TDX")), rsi);
  CHECK(single_points(ind("sma", all + "&convention=Tdx"))
        == single_points(ind("sma", all + "&convention=talib")));
  SUBCASE("talib is the default, and differs from tdx") {
    CHECK(single_points(ind("ema", all)) == single_points(ind("ema", all + "&convention=TALIB")));
    CHECK(single_points(ind("ema", all)).size() == close.size() - (n - 1));
  }
  SUBCASE("next_url keeps the convention") {
    const auto body = ok_body(ind("ema", "symbol=600519.SH&window=12&convention=tdx&limit=3"));
    const std::string next = body["results"].value("next_url", "");
    CHECK(next.find("convention=tdx") != std::string::npos);
  }
  SUBCASE("anything else is 400 INVALID_PARAMETER naming convention, checked after series_type") {
    for (const std::string query : {"convention=wilder", "convention=", "convention=ta-lib"}) {
      CAPTURE(query);
      const auto reply = ind("rsi", "symbol=600519.SH&" + query);
      check_error(reply, 400, "INVALID_PARAMETER");
      CHECK(reply.json()["error"]["message"].get<std::string>().find("convention")
            != std::string::npos);
    }
    const auto reply = ind("ema", "symbol=600519.SH&series_type=vwap&convention=x");
    check_error(reply, 400, "INVALID_PARAMETER");
    CHECK(reply.json()["error"]["message"].get<std::string>().find("series_type")
          != std::string::npos);
  }
}
