#include "testutil.hpp"

#include "core/api/json.hpp"
#include "core/api/json_writer.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <bit>
#include <random>
#include <string>

using namespace ashare;
using nlohmann::json;
using test::date;
using test::make_bar;

namespace {

api::BarsItem item(const char* symbol, std::vector<domain::Bar> bars, bool known = true) {
  query::SymbolBars out;
  out.symbol = symbol;
  out.known = known;
  out.bars = std::move(bars);
  return api::BarsItem(std::move(out));
}

api::BarsResponse single_response() {
  api::BarsResponse response;
  response.request_id = "00010203-0405-4607-8809-0a0b0c0d0e0f";
  response.single = true;
  response.adjusted = true;
  response.from = date("2024-01-01");
  response.to = date("2024-01-31");
  auto bar = make_bar("2024-01-02", 1685.0, 1695.0, 1663.0, 1525.4, 8.305, 3935445);
  bar.turnover = 8398945449;
  bar.change_pct = -1.5;
  response.items.push_back(item("600519.SH", {bar}));
  response.dataset = store::DatasetInfo{date("2024-01-31"), "tushare", 7};
  return response;
}

} // namespace

TEST_CASE("api::error_to_json: the D10 envelope") {
  const auto text = api::error_to_json(
      make_error(ErrorCode::invalid_symbol, "invalid symbol \"60051.SH\": expected six digits"));
  CHECK(
      text
      == R"({"error":{"code":"INVALID_SYMBOL","message":"invalid symbol \"60051.SH\": expected six digits"}})");
  CHECK(json::parse(api::error_to_json(make_error(ErrorCode::internal, "x")))["error"]["code"]
        == "INTERNAL_ERROR");
}

TEST_CASE("D5: api::health_to_json") {
  CHECK(api::health_to_json(store::DatasetInfo{date("2025-10-23"), "tushare", 3})
        == R"({"status":"ok","as_of":"2025-10-23","schema_version":"2026-05-27"})");
  CHECK(api::health_to_json(store::DatasetInfo{})
        == R"({"status":"ok","as_of":null,"schema_version":"2026-05-27"})");
}

TEST_CASE("api::bars_to_json: single-symbol form") {
  const auto response = single_response();
  const auto text = api::bars_to_json(response, std::nullopt);
  const auto body = json::parse(text);

  SUBCASE("the required fields of SPEC, and no multi-symbol fields") {
    CHECK(body["status"] == "OK");
    CHECK(body["request_id"] == "00010203-0405-4607-8809-0a0b0c0d0e0f");
    CHECK(body["symbol"] == "600519.SH");
    CHECK(body["adjusted"] == true);
    CHECK(body["multiplier"] == 1);
    CHECK(body["timespan"] == "day");
    CHECK(body["from"] == "2024-01-01");
    CHECK(body["to"] == "2024-01-31");
    CHECK(body["resultsCount"] == 1);
    CHECK_FALSE(body.contains("results"));
    CHECK_FALSE(body.contains("summary"));
    CHECK_FALSE(body.contains("next_url"));
    CHECK(
        body["meta"]
        == json{{"as_of", "2024-01-31"}, {"source", "tushare"}, {"schema_version", "2026-05-27"}});
  }
  SUBCASE("a bar has every field, with t per D2 and volume an integer") {
    const auto& bar = body["ohlc"].at(0);
    CHECK(bar.size() == 10);
    CHECK(bar["trade_date"] == "2024-01-02");
    CHECK(bar["t"] == 1704124800000);
    CHECK(bar["open"] == 1685.0);
    CHECK(bar["high"] == 1695.0);
    CHECK(bar["low"] == 1663.0);
    CHECK(bar["close"] == 1525.4);
    CHECK(bar["volume"].is_number_integer());
    CHECK(bar["volume"] == 3935445);
    CHECK(bar["turnover"] == 8398945449.0);
    CHECK(bar["change_pct"] == -1.5);
    CHECK(bar["factor"] == 8.305);
    // D12 on the wire: shortest digits, no exponent, no trailing ".0".
    CHECK(text.find(R"("close":1525.4,)") != std::string::npos);
    CHECK(text.find(R"("turnover":8398945449,)") != std::string::npos);
    CHECK(text.find(R"("open":1685,)") != std::string::npos);
  }
  SUBCASE("credits_charged appears only when charged (D7)") {
    const auto charged = json::parse(api::bars_to_json(response, 1));
    CHECK(charged["meta"]["credits_charged"] == 1);
    CHECK_FALSE(body["meta"].contains("credits_charged"));
  }
  SUBCASE("summary with nulls, next_url") {
    auto copy = single_response();
    copy.items[0] = item("600519.SH", {});
    copy.items[0].summary = query::Summary{date("2024-01-01"), date("2024-01-31"), 0, {}, {}, {}};
    copy.items[0].next_url = "/v1/ohlc/range/1/day/2024-01-03/2024-01-31?symbol=600519.SH&limit=1";
    const auto with = json::parse(api::bars_to_json(copy, std::nullopt));
    CHECK(with["resultsCount"] == 0);
    CHECK(with["ohlc"] == json::array());
    CHECK(with["summary"]
          == json{{"from", "2024-01-01"},
                  {"to", "2024-01-31"},
                  {"bars_count", 0},
                  {"return_pct", nullptr},
                  {"open_first", nullptr},
                  {"close_last", nullptr}});
    CHECK(with["next_url"]
          == "/v1/ohlc/range/1/day/2024-01-03/2024-01-31?symbol=600519.SH&limit=1");
  }
  SUBCASE("an empty store has as_of null") {
    auto copy = single_response();
    copy.dataset = store::DatasetInfo{};
    CHECK(json::parse(api::bars_to_json(copy, std::nullopt))["meta"]["as_of"].is_null());
  }
}

TEST_CASE("D1: api::bars_to_json: multi-symbol form") {
  api::BarsResponse response = single_response();
  response.single = false;
  response.adjusted = false;
  auto served = item("000001.SZ", {make_bar("2024-01-02", 9, 9.5, 8.5, 9.2)});
  served.summary = query::Summary{date("2024-01-01"), date("2024-01-31"), 1, 2.2222, 9.0, 9.2};
  response.items.push_back(item("000002.SZ", {}, false));
  response.items.push_back(std::move(served));
  response.items[0].next_url = "/v1/next";
  const auto body = json::parse(api::bars_to_json(response, 2));

  CHECK(body["status"] == "PARTIAL");
  CHECK(body["adjusted"] == false);
  CHECK(body["resultsCount"] == 3); // the number of symbols
  CHECK_FALSE(body.contains("symbol"));
  CHECK_FALSE(body.contains("ohlc"));
  CHECK_FALSE(body.contains("summary"));
  CHECK(body["meta"]["credits_charged"] == 2);
  const auto& results = body["results"];
  REQUIRE(results.size() == 3);

  CHECK(results[0]["symbol"] == "600519.SH");
  CHECK(results[0]["resultsCount"] == 1);
  CHECK(results[0]["next_url"] == "/v1/next");
  CHECK_FALSE(results[0].contains("error"));

  CHECK(results[1]["symbol"] == "000002.SZ");
  CHECK(results[1]["resultsCount"] == 0);
  CHECK(results[1]["ohlc"] == json::array());
  CHECK(results[1]["error"]
        == json{{"code", "INVALID_SYMBOL"}, {"message", "unknown symbol \"000002.SZ\""}});
  CHECK_FALSE(results[1].contains("summary"));

  CHECK(results[2]["summary"]["return_pct"] == 2.2222);
  CHECK(results[2]["summary"]["bars_count"] == 1);
  CHECK_FALSE(results[2].contains("next_url"));

  SUBCASE("every item served: OK") {
    response.items.erase(response.items.begin() + 1);
    CHECK(json::parse(api::bars_to_json(response, 2))["status"] == "OK");
  }
}

TEST_CASE("issue 11: a bar's JSON is written whole as JsonWriter writes it member by member") {
  // The bar as JsonWriter writes it, the generic way (the form before issue 11, P5).
  const auto generic = [](const domain::Bar& bar) {
    api::JsonWriter writer;
    writer.begin_object();
    char iso[10];
    bar.trade_date.write_iso(iso);
    writer.key("trade_date");
    writer.string(std::string_view(iso, sizeof iso));
    writer.key("t");
    writer.integer(bar.trade_date.t_ms());
    for (const auto& [name, value] :
         {std::pair{"open", bar.open}, {"high", bar.high}, {"low", bar.low}, {"close", bar.close}}) {
      writer.key(name);
      writer.number(value);
    }
    writer.key("volume");
    writer.integer(bar.volume);
    writer.key("turnover");
    writer.number(bar.turnover);
    writer.key("change_pct");
    writer.number(bar.change_pct);
    writer.key("factor");
    writer.number(bar.factor);
    writer.end_object();
    return writer.take();
  };
  std::mt19937_64 random(5);
  const double awkward[] = {0.0, -0.0, 0.1 + 0.2, 1.7976931348623157e308, 5e-324,
                            2.2250738585072014e-308, -1e300, 1713.8986, 1e15, 123456789.125};
  for (int i = 0; i < 20'000; ++i) {
    auto bar = make_bar("2024-06-03", 1525.4, 1545.0, 1522.01, 1524.0, 7.768, 39354);
    bar.trade_date = date("1991-01-01").plus_days(static_cast<int>(random() % 20000));
    double* fields[] = {&bar.open, &bar.high, &bar.low, &bar.close, &bar.turnover, &bar.change_pct,
                        &bar.factor};
    for (double* field : fields) {
      const auto kind = random() % 3;
      *field = kind == 0   ? static_cast<double>(static_cast<std::int64_t>(random() % 2'000'000'000) - 1'000'000'000) / 10000
               : kind == 1 ? awkward[random() % std::size(awkward)]
                           : std::bit_cast<double>(random() & 0x7fefffffffffffffULL);
    }
    bar.volume = static_cast<std::int64_t>(random()) / (i % 2 == 0 ? 1 : 1'000'000);
    CAPTURE(generic(bar));
    REQUIRE(api::bar_to_json(bar) == generic(bar));
    REQUIRE(api::bar_to_ndjson("600519.SH", bar)
            == "{\"symbol\":\"600519.SH\"," + generic(bar).substr(1));
  }
}

TEST_CASE("D9: an indicator response's next_url, written and read back") {
  api::IndicatorResponse response;
  response.request_id = "00010203-0405-4607-8809-0a0b0c0d0e0f";
  response.single = false;
  response.items.push_back({"600519.SH", true, {{1704124800000, 1685.25}}, true});
  response.items.push_back({"600036.SH", true, {{1704124800000, 30.5}}, false});
  response.next_urls = {"/v1/indicators/sma?symbol=600519.SH&limit=1&timestamp.lt=2024-01-02",
                        std::nullopt};
  const auto body = json::parse(api::indicators_to_json(response));
  CHECK(body["results"][0]["next_url"] == *response.next_urls[0]);
  CHECK_FALSE(body["results"][1].contains("next_url"));
  const auto read = api::indicators_from_json(api::indicators_to_json(response));
  REQUIRE(read);
  CHECK(read->next_urls == response.next_urls);
  CHECK(read->items[0].has_more);
  CHECK_FALSE(read->items[1].has_more);

  response.single = true; // in the single-symbol form, inside `results`
  response.items.resize(1);
  response.next_urls.resize(1);
  const auto single = json::parse(api::indicators_to_json(response));
  CHECK(single["results"]["next_url"] == *response.next_urls[0]);
  CHECK_FALSE(single.contains("next_url"));
  CHECK(api::indicators_from_json(single.dump())->next_urls == response.next_urls);
}

TEST_CASE("issue 13: a hostile remote's body is refused as a value, never a crash or a NaN") {
  const std::string bars_head =
    R"({"status":"OK","from":"2024-01-02","to":"2024-01-02","symbol":"600519.SH","ohlc":[)";
  const std::string good_bar =
    R"({"trade_date":"2024-01-02","open":1,"high":2,"low":0.5,"close":1.5,"volume":100,)"
    R"("turnover":150,"change_pct":0,"factor":1})";
  REQUIRE(api::bars_from_json(bars_head + good_bar + "]}").ok());
  const std::pair<std::string, std::string> bad_bars[] = {
    {R"("volume":100,)", R"("volume":1.76e20,)"},  // a float where a whole number goes (UBSan)
    {R"("volume":100,)", R"("volume":18446744073709551615,)"}, // beyond int64
    {R"("volume":100,)", R"("volume":1.5,)"},
    {R"("open":1,)", R"("open":1e400,)"},           // inf
    {R"("trade_date":"2024-01-02",)", R"("trade_date":7,)"},
  };
  for (const auto& [good, bad] : bad_bars) {
    CAPTURE(bad);
    auto bar = good_bar;
    bar.replace(bar.find(good), good.size(), bad);
    const auto response = api::bars_from_json(bars_head + bar + "]}");
    REQUIRE_FALSE(response.ok());
    CHECK(response.error().code == ErrorCode::invalid_input);
  }
  // nlohmann's type errors (value() of a string where a bool goes) are refusals too.
  CHECK_FALSE(api::bars_from_json(R"({"from":"2024-01-02","to":"2024-01-02","adjusted":"yes"})").ok());
  CHECK_FALSE(api::bars_from_json(R"({"from":"2024-01-02","to":"2024-01-02","results":[7]})").ok());

  const std::string values_head = R"({"status":"OK","results":{"values":[)";
  const auto values = [&](const std::string& items) {
    return api::indicators_from_json(values_head + items + "]}}");
  };
  REQUIRE(values(R"({"timestamp":1,"value":2,"upper":3,"lower":1})").ok());
  CHECK(values(R"({"timestamp":1,"value":2,"upper":3,"lower":1})")->indicator
        == query::Indicator::bbands);
  // The first value decides the indicator; a later one of another kind is no server's body (it
  // left NaN fields that the writer refused).
  CHECK_FALSE(values(R"({"timestamp":1,"value":2,"upper":3,"lower":1},{"timestamp":2,"value":2})").ok());
  CHECK_FALSE(values(R"({"timestamp":1,"value":2},{"timestamp":2,"value":2,"signal":1,"histogram":1})").ok());
  CHECK_FALSE(values(R"({"timestamp":1,"value":2,"upper":3})").ok()); // lower missing
  CHECK_FALSE(values(R"({"timestamp":1.7e20,"value":2})").ok());
  CHECK_FALSE(values(R"({"timestamp":"x","value":2})").ok());
  CHECK_FALSE(api::error_from_json(R"({"error":{"code":7}})").has_value());
  const auto health = api::health_as_of_from_json(R"({"as_of":{"x":1},"status":1})");
  REQUIRE(health.ok()); // an as_of that is no date is unknown, as a null one is
  CHECK_FALSE(health->has_value());
}
