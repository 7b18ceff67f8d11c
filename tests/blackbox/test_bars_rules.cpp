// SPEC "Daily bars" rules 1-8 and D1-D4, D8, D12 over HTTP, against the shared server. Expected
// values come from the fixture CSVs themselves.
#include "fixtures.hpp"

#include <algorithm>
#include <doctest/doctest.h>
#include <set>

using namespace bb;
using nlohmann::json;

namespace {

const std::string k_moutai = "600519.SH";
const std::string k_moutai_file = "bancob_600519.SH.csv";
constexpr double k_moutai_latest_factor = 8.305; // factor of 600519.SH on 2025-10-23

Reply bars(const std::string& from,
           const std::string& to,
           const std::string& query,
           const std::optional<std::string>& key = shared().pro.plaintext) {
  return get(bars_target(from, to, query), key);
}

// The whole body of a 200 bars reply (fails the test otherwise).
json ok_json(const Reply& reply) {
  INFO("body: " << reply.body);
  REQUIRE(reply.status == 200);
  return reply.json();
}

std::vector<std::string> csv_dates(const std::vector<CsvBar>& rows) {
  std::vector<std::string> out;
  for (const auto& row : rows) {
    out.push_back(row.date);
  }
  return out;
}

// Check `bar` against `row` adjusted per D8 (or raw when !adjusted).
void check_bar(const json& bar, const CsvBar& row, bool adjusted, double latest_factor) {
  INFO("bar: " << bar.dump());
  REQUIRE(bar.size() == 10);
  const double factor = *row.factor;
  const auto price = [&](double raw) {
    return adjusted ? adjust(raw, factor, latest_factor) : raw;
  };
  CHECK(bar["trade_date"] == row.date);
  CHECK(bar["t"].get<std::int64_t>() == t_ms(row.date));
  CHECK(bar["open"].get<double>() == price(row.open));
  CHECK(bar["high"].get<double>() == price(row.high));
  CHECK(bar["low"].get<double>() == price(row.low));
  CHECK(bar["close"].get<double>() == price(row.close));
  CHECK(bar["volume"].is_number_integer());
  CHECK(bar["volume"].get<std::int64_t>() == row.volume);
  CHECK(bar["turnover"].get<double>() == row.turnover);
  CHECK(bar["change_pct"].get<double>() == *row.change_pct);
  CHECK(bar["factor"].get<double>() == factor);
}

} // namespace

TEST_CASE("SPEC bars rule 1: the single-symbol response form") {
  const auto reply = bars("2024-01-02", "2024-01-05", "symbol=600519.SH");
  const auto body = ok_json(reply);
  const std::set<std::string> expected_keys{"status",       "request_id", "symbol", "adjusted",
                                            "multiplier",   "timespan",   "from",   "to",
                                            "resultsCount", "ohlc",       "meta"};
  std::set<std::string> keys;
  for (const auto& [key, value] : body.items()) {
    keys.insert(key);
  }
  CHECK(keys == expected_keys);
  CHECK(body["status"] == "OK");
  CHECK(body["request_id"] == reply.header("X-Request-Id"));
  CHECK(body["symbol"] == k_moutai);
  CHECK(body["adjusted"] == true);
  CHECK(body["multiplier"] == 1);
  CHECK(body["timespan"] == "day");
  CHECK(body["from"] == "2024-01-02");
  CHECK(body["to"] == "2024-01-05");
  CHECK(body["resultsCount"] == 4);
  CHECK(body["ohlc"].size() == 4);
  CHECK(body["meta"]
        == json{{"as_of", k_fixture_as_of},
                {"source", "bb-fixtures"},
                {"schema_version", k_schema_version}});
  CHECK(reply.header("Content-Type").rfind("application/json", 0) == 0);
}

TEST_CASE("SPEC bars rule 1 / D1: the multi-symbol response form, items in request order") {
  const auto body =
      ok_json(bars("2024-01-02", "2024-01-03", "symbol=600036.SH,600519.SH,002594.SZ&limit=1"));
  CHECK(body["status"] == "OK");
  CHECK_FALSE(body.contains("symbol"));
  CHECK_FALSE(body.contains("ohlc"));
  CHECK(body["resultsCount"] == 3);
  REQUIRE(body["results"].size() == 3);
  const std::vector<std::string> expected{"600036.SH", "600519.SH", "002594.SZ"};
  for (std::size_t i = 0; i < expected.size(); ++i) {
    const auto& item = body["results"][i];
    CHECK(item["symbol"] == expected[i]);
    // D1: limit applies to each symbol separately.
    CHECK(item["resultsCount"] == 1);
    REQUIRE(item["ohlc"].size() == 1);
    CHECK(item["ohlc"][0]["trade_date"] == "2024-01-02");
    CHECK_FALSE(item.contains("error"));
    CHECK(item["next_url"]
          == "/v1/ohlc/range/1/day/2024-01-03/2024-01-03?symbol=" + expected[i] + "&limit=1");
  }
  CHECK(body["meta"]["as_of"] == k_fixture_as_of);
}

TEST_CASE("SPEC bars rule 2 / D2: trading days only, t at midnight UTC+8") {
  const auto rows = read_csv(fixture(k_moutai_file));
  SUBCASE("a week with a holiday and a weekend") {
    const auto body = ok_json(bars("2023-12-29", "2024-01-08", "symbol=600519.SH"));
    const std::vector<std::string> expected{"2023-12-29", "2024-01-02", "2024-01-03",
                                            "2024-01-04", "2024-01-05", "2024-01-08"};
    CHECK(dates_of(body["ohlc"]) == expected);
    CHECK(csv_dates(in_range(rows, "2023-12-29", "2024-01-08")) == expected);
    CHECK(body["ohlc"][1]["t"].get<std::int64_t>() == 1704124800000); // D2's example
    for (const auto& bar : body["ohlc"]) {
      CHECK(bar["t"].get<std::int64_t>() == t_ms(bar["trade_date"].get<std::string>()));
    }
  }
  SUBCASE("a whole year matches the fixture's dates") {
    const auto body = ok_json(bars("2024-01-01", "2024-12-31", "symbol=600519.SH"));
    const auto expected = csv_dates(in_range(rows, "2024-01-01", "2024-12-31"));
    CHECK(expected.size() == 242);
    CHECK(dates_of(body["ohlc"]) == expected);
    CHECK(body["resultsCount"] == 242);
  }
  SUBCASE("a weekend alone has no bar") {
    const auto body = ok_json(bars("2024-01-06", "2024-01-07", "symbol=600519.SH"));
    CHECK(body["ohlc"] == json::array());
    CHECK(body["resultsCount"] == 0);
    CHECK(body["status"] == "OK");
  }
}

TEST_CASE("SPEC bars rule 3: sort=desc with limit=30 is the latest 30 sessions") {
  const auto rows = read_csv(fixture(k_moutai_file));
  const auto body =
      ok_json(bars("2023-01-01", "2025-12-31", "symbol=600519.SH&sort=desc&limit=30"));
  std::vector<std::string> expected;
  for (auto it = rows.rbegin(); it != rows.rend() && expected.size() < 30; ++it) {
    expected.push_back(it->date);
  }
  CHECK(dates_of(body["ohlc"]) == expected);
  CHECK(body["resultsCount"] == 30);
  SUBCASE("asc with limit is the earliest sessions") {
    const auto asc = ok_json(bars("2023-01-01", "2025-12-31", "symbol=600519.SH&limit=3"));
    CHECK(dates_of(asc["ohlc"])
          == std::vector<std::string>{"2023-09-25", "2023-09-26", "2023-09-27"});
  }
}

TEST_CASE("SPEC bars rule 4: from later than to is INVALID_PARAMETER") {
  check_error(bars("2024-01-05", "2024-01-04", "symbol=600519.SH"), 400, "INVALID_PARAMETER");
}

TEST_CASE("SPEC bars rule 5: from equal to to gives zero or one bar") {
  const auto one = ok_json(bars("2024-01-04", "2024-01-04", "symbol=600519.SH"));
  CHECK(dates_of(one["ohlc"]) == std::vector<std::string>{"2024-01-04"});
  CHECK(one["resultsCount"] == 1);
  const auto none = ok_json(bars("2024-01-06", "2024-01-06", "symbol=600519.SH"));
  CHECK(none["ohlc"] == json::array());
  CHECK(none["resultsCount"] == 0);
}

TEST_CASE("SPEC bars rule 6 / D3: only 1/day, case-sensitive") {
  for (const std::string interval :
       {"2/day", "1/week", "01/day", "x/day", "1/DAY", "1/Day", "0/day", "1/minute", "-1/day"}) {
    CAPTURE(interval);
    const auto reply =
        get("/v1/ohlc/range/" + interval + "/2024-01-02/2024-01-05?symbol=600519.SH");
    check_error(reply, 400, "UNSUPPORTED_INTERVAL");
  }
}

TEST_CASE("SPEC bars rule 7: a valid symbol with no bars in range is 200 and empty") {
  const auto body = ok_json(bars("2010-01-04", "2010-01-08", "symbol=600519.SH"));
  CHECK(body["status"] == "OK");
  CHECK(body["ohlc"] == json::array());
  CHECK(body["resultsCount"] == 0);
  CHECK_FALSE(body.contains("next_url"));
  SUBCASE("also after as_of") {
    const auto later = ok_json(bars("2026-01-05", "2026-01-09", "symbol=600519.SH"));
    CHECK(later["ohlc"] == json::array());
  }
}

TEST_CASE("D1: symbols") {
  SUBCASE("any case is accepted and echoed canonical, whitespace trimmed") {
    for (const std::string symbol : {"600519.sh", "600519.Sh", "%20600519.SH%09", "+600519.sh+"}) {
      CAPTURE(symbol);
      const auto body = ok_json(bars("2024-01-02", "2024-01-02", "symbol=" + symbol));
      CHECK(body["symbol"] == k_moutai);
      CHECK(body["resultsCount"] == 1);
    }
    const auto multi =
        ok_json(bars("2024-01-02", "2024-01-02", "symbol=%20600036.sh%20,002594.sz"));
    REQUIRE(multi["results"].size() == 2);
    CHECK(multi["results"][0]["symbol"] == "600036.SH");
    CHECK(multi["results"][1]["symbol"] == "002594.SZ");
  }
  SUBCASE("an empty item, a missing or empty symbol, a duplicate: INVALID_PARAMETER") {
    for (const std::string query :
         {"symbol=600519.SH,", "symbol=,600519.SH", "symbol=600519.SH,,600036.SH",
          "symbol=600519.SH,%20,600036.SH", "", "symbol=", "symbol=%20",
          "symbol=600519.SH,600519.SH", "symbol=600519.SH,600519.sh", "Symbol=600519.SH"}) {
      CAPTURE(query);
      check_error(bars("2024-01-02", "2024-01-05", query), 400, "INVALID_PARAMETER");
    }
  }
  SUBCASE("a malformed item anywhere: INVALID_SYMBOL naming it") {
    for (const std::string bad : {"60051.SH", "6005190.SH", "600519.SS", "600519SH", "600519.SHX",
                                  "ABCDEF.SH", "600519.", "600519"}) {
      CAPTURE(bad);
      for (const std::string& query : std::vector<std::string>{
               "symbol=" + bad, "symbol=600519.SH," + bad, "symbol=" + bad + ",600519.SH"}) {
        const auto reply = bars("2024-01-02", "2024-01-05", query);
        check_error(reply, 400, "INVALID_SYMBOL");
        CHECK(reply.json()["error"]["message"].get<std::string>().find(bad) != std::string::npos);
      }
    }
  }
  SUBCASE("an unknown symbol alone is INVALID_SYMBOL") {
    const auto reply = bars("2024-01-02", "2024-01-05", "symbol=000002.SZ");
    check_error(reply, 400, "INVALID_SYMBOL");
    CHECK(reply.json()["error"]["message"].get<std::string>().find("000002.SZ")
          != std::string::npos);
  }
  SUBCASE("an unknown symbol in a list is a per-item error and PARTIAL") {
    const auto body =
        ok_json(bars("2024-01-02", "2024-01-03", "symbol=600519.sh,000002.sz,600036.SH"));
    CHECK(body["status"] == "PARTIAL");
    CHECK(body["resultsCount"] == 3);
    REQUIRE(body["results"].size() == 3);
    CHECK(body["results"][0]["symbol"] == "600519.SH");
    CHECK(body["results"][0]["resultsCount"] == 2);
    CHECK_FALSE(body["results"][0].contains("error"));
    const auto& unknown = body["results"][1];
    CHECK(unknown["symbol"] == "000002.SZ");
    CHECK(unknown["resultsCount"] == 0);
    CHECK(unknown["ohlc"] == json::array());
    REQUIRE(unknown.contains("error"));
    CHECK(unknown["error"].size() == 2);
    CHECK(unknown["error"]["code"] == "INVALID_SYMBOL");
    CHECK(unknown["error"]["message"].get<std::string>().find("000002.SZ") != std::string::npos);
    CHECK(body["results"][2]["symbol"] == "600036.SH");
    CHECK(body["results"][2]["resultsCount"] == 2);
  }
  SUBCASE("a known symbol without bars in range keeps the status OK") {
    const auto body = ok_json(bars("2025-01-02", "2025-01-03", "symbol=600519.SH,000001.SZ"));
    CHECK(body["status"] == "OK");
    CHECK(body["results"][0]["resultsCount"] == 2);
    CHECK(body["results"][1]["resultsCount"] == 0); // 000001.SZ ends on 2024-12-31
    CHECK_FALSE(body["results"][1].contains("error"));
    const auto none = ok_json(bars("2010-01-04", "2010-01-05", "symbol=600519.SH,600036.SH"));
    CHECK(none["status"] == "OK");
    CHECK(none["results"][0]["resultsCount"] == 0);
    CHECK(none["results"][1]["resultsCount"] == 0);
  }
}

TEST_CASE("D2: dates are strict YYYY-MM-DD and name the parameter") {
  for (const std::string bad :
       {"2024-1-02", "2024-01-2", "20240102", "2024.01.02", "2024-02-30", "2023-02-29",
        "2024-13-01", "2024-00-10", "2024-01-00", "abcd-ef-gh", "2024-01-02T00:00", "%202024-01-02",
        "2024-01-02%20", "1704124800000", "+2024-01-02",
        "0000-01-01",      // D2: years 0001-9999
        "2024%2F01%2F02"}) { // D2: one segment, split before it is decoded (never three)
    CAPTURE(bad);
    const auto as_from = bars(bad, "2024-01-05", "symbol=600519.SH");
    check_error(as_from, 400, "INVALID_PARAMETER");
    CHECK(error_code(as_from) == "INVALID_PARAMETER");
    CHECK(as_from.json()["error"]["message"].get<std::string>().find("from") != std::string::npos);
    const auto as_to = bars("2024-01-02", bad, "symbol=600519.SH");
    check_error(as_to, 400, "INVALID_PARAMETER");
    CHECK(as_to.json()["error"]["message"].get<std::string>().find("to") != std::string::npos);
  }
  SUBCASE("the year 0000 is refused with why, 0001 and 9999 are dates") {
    const auto zero = bars("0000-01-01", "2024-01-05", "symbol=600519.SH");
    CHECK(zero.json()["error"]["message"]
          == "invalid from \"0000-01-01\": the year must be 0001 to 9999");
    const auto body = ok_json(bars("0001-01-01", "9999-12-31", "symbol=600519.SH&limit=1"));
    CHECK(body["resultsCount"] == 1);
  }
  SUBCASE("29 February of a leap year is a date") {
    const auto body = ok_json(bars("2024-02-29", "2024-02-29", "symbol=600519.SH"));
    CHECK(dates_of(body["ohlc"]) == std::vector<std::string>{"2024-02-29"});
  }
}

TEST_CASE("D4: query parameters") {
  SUBCASE("booleans in any case, and 1/0") {
    for (const std::string value : {"true", "TRUE", "True", "1"}) {
      CAPTURE(value);
      CHECK(ok_json(
                bars("2024-01-02", "2024-01-02", "symbol=600519.SH&adjusted=" + value))["adjusted"]
            == true);
    }
    for (const std::string value : {"false", "FALSE", "False", "0"}) {
      CAPTURE(value);
      CHECK(ok_json(
                bars("2024-01-02", "2024-01-02", "symbol=600519.SH&adjusted=" + value))["adjusted"]
            == false);
    }
    for (const std::string value : {"yes", "no", "", "2", "t", "truee", "%20true"}) {
      CAPTURE(value);
      const auto reply = bars("2024-01-02", "2024-01-02", "symbol=600519.SH&adjusted=" + value);
      check_error(reply, 400, "INVALID_PARAMETER");
      CHECK(reply.json()["error"]["message"].get<std::string>().find("adjusted")
            != std::string::npos);
    }
  }
  SUBCASE("enumerations in any case") {
    const auto desc = ok_json(bars("2024-01-02", "2024-01-04", "symbol=600519.SH&sort=DESC"));
    CHECK(dates_of(desc["ohlc"])
          == std::vector<std::string>{"2024-01-04", "2024-01-03", "2024-01-02"});
    const auto asc = ok_json(bars("2024-01-02", "2024-01-04", "symbol=600519.SH&sort=Asc"));
    CHECK(dates_of(asc["ohlc"])
          == std::vector<std::string>{"2024-01-02", "2024-01-03", "2024-01-04"});
    const auto summary =
        ok_json(bars("2024-01-02", "2024-01-04", "symbol=600519.SH&include=SUMMARY"));
    CHECK(summary.contains("summary"));
    for (const std::string query :
         {"sort=up", "sort=", "sort=descending", "include=summaries", "include=", "include=all"}) {
      CAPTURE(query);
      const auto reply = bars("2024-01-02", "2024-01-04", "symbol=600519.SH&" + query);
      check_error(reply, 400, "INVALID_PARAMETER");
      const auto name = query.substr(0, query.find('='));
      CHECK(reply.json()["error"]["message"].get<std::string>().find(name) != std::string::npos);
    }
  }
  SUBCASE("limit is an integer from 1 to 5000") {
    for (const std::string value : {"0", "5001", "-1", "abc", "1.5", "+5", "",
                                    "10000000000000000000000", "1e3", "%205", "0x10"}) {
      CAPTURE(value);
      const auto reply = bars("2024-01-02", "2024-01-04", "symbol=600519.SH&limit=" + value);
      check_error(reply, 400, "INVALID_PARAMETER");
      CHECK(reply.json()["error"]["message"].get<std::string>().find("limit") != std::string::npos);
    }
    CHECK(ok_json(bars("2024-01-02", "2024-01-04", "symbol=600519.SH&limit=5000"))["resultsCount"]
          == 3);
    CHECK(ok_json(bars("2024-01-02", "2024-01-04", "symbol=600519.SH&limit=1"))["resultsCount"]
          == 1);
    CHECK(ok_json(bars("2024-01-02", "2024-01-04", "symbol=600519.SH&limit=007"))["resultsCount"]
          == 3);
  }
  SUBCASE("parameters the endpoint does not define are ignored") {
    const auto body =
        ok_json(bars("2024-01-02", "2024-01-04", "symbol=600519.SH&foo=bar&order=desc&window=3"));
    CHECK(dates_of(body["ohlc"])
          == std::vector<std::string>{"2024-01-02", "2024-01-03", "2024-01-04"});
  }
}

TEST_CASE("D8: forward adjustment anchored at the symbol's latest stored bar") {
  const auto rows = read_csv(fixture(k_moutai_file));
  REQUIRE(rows.back().date == k_fixture_as_of);
  REQUIRE(*rows.back().factor == k_moutai_latest_factor);

  SUBCASE("a range ending before the latest factor change still uses the latest factor") {
    // 2024-01 has factor 7.8576; the latest factor (8.305) dates from 2025-06-26.
    const auto body = ok_json(bars("2024-01-01", "2024-01-31", "symbol=600519.SH"));
    const auto expected = in_range(rows, "2024-01-01", "2024-01-31");
    REQUIRE(body["ohlc"].size() == expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) {
      check_bar(body["ohlc"][i], expected[i], true, k_moutai_latest_factor);
    }
    // Spot check with literal numbers: raw open 1715.0 on 2024-01-02, factor 7.8576.
    CHECK(body["ohlc"][0]["trade_date"] == "2024-01-02");
    CHECK(body["ohlc"][0]["open"].get<double>() == 1622.611);
    CHECK(body["ohlc"][0]["close"].get<double>() == 1594.2366); // raw 1685.01
  }
  SUBCASE("every bar across every factor step, adjusted and raw") {
    const auto adjusted = ok_json(bars("2023-01-01", "2025-12-31", "symbol=600519.SH"));
    const auto raw = ok_json(bars("2023-01-01", "2025-12-31", "symbol=600519.SH&adjusted=false"));
    CHECK(raw["adjusted"] == false);
    REQUIRE(adjusted["ohlc"].size() == rows.size());
    REQUIRE(raw["ohlc"].size() == rows.size());
    for (std::size_t i = 0; i < rows.size(); ++i) {
      CAPTURE(rows[i].date);
      check_bar(adjusted["ohlc"][i], rows[i], true, k_moutai_latest_factor);
      check_bar(raw["ohlc"][i], rows[i], false, k_moutai_latest_factor);
      for (const char* field : {"volume", "turnover", "change_pct", "factor", "t", "trade_date"}) {
        CHECK(adjusted["ohlc"][i][field] == raw["ohlc"][i][field]);
      }
    }
    // On the latest bar the adjusted prices are the raw ones.
    CHECK(adjusted["ohlc"].back()["close"] == raw["ohlc"].back()["close"]);
  }
  SUBCASE("the other fixtures, including a bonus issue (002594.SZ)") {
    for (const std::string file : {"bancob_600036.SH.csv", "bancob_002594.SZ.csv"}) {
      CAPTURE(file);
      const auto fixture_rows = read_csv(fixture(file));
      const double latest = *fixture_rows.back().factor;
      const auto body =
          ok_json(bars("2023-01-01", "2025-12-31", "symbol=" + fixture_rows.front().symbol));
      REQUIRE(body["ohlc"].size() == fixture_rows.size());
      for (std::size_t i = 0; i < fixture_rows.size(); ++i) {
        check_bar(body["ohlc"][i], fixture_rows[i], true, latest);
      }
    }
  }
  SUBCASE("a file without factors: factor 1, change_pct derived from the closes") {
    const auto fixture_rows = read_csv(fixture("jenny_000001.SZ.csv"));
    const auto body = ok_json(bars("2020-01-01", "2020-01-10", "symbol=000001.SZ"));
    const auto expected = in_range(fixture_rows, "2020-01-01", "2020-01-10");
    REQUIRE(body["ohlc"].size() == expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) {
      const auto& bar = body["ohlc"][i];
      CHECK(bar["factor"].get<double>() == 1.0);
      CHECK(bar["close"].get<double>() == expected[i].close);
      const double change =
          i == 0 ? 0.0 : ((expected[i].close * 1.0) / (expected[i - 1].close * 1.0) - 1) * 100;
      CHECK(bar["change_pct"].get<double>() == change); // 2020-01-02 is the symbol's first bar
    }
  }
}

TEST_CASE("D8: next_url pages through the window, asc and desc, single and multi") {
  const auto port = shared().port();
  const auto key = shared().pro.plaintext;
  const auto all_dates = [&](const std::string& query) {
    return dates_of(ok_json(bars("2024-01-01", "2024-12-31", "symbol=600519.SH&" + query))["ohlc"]);
  };
  for (const std::string sort : {"asc", "desc"}) {
    CAPTURE(sort);
    const auto expected = all_dates("sort=" + sort);
    REQUIRE(expected.size() == 242);
    std::vector<std::string> collected;
    std::string target = bars_target("2024-01-01", "2024-12-31",
                                     "symbol=600519.sh&sort=" + sort + "&limit=100&adjusted=TRUE");
    std::vector<std::size_t> page_sizes;
    for (int page = 0; page < 10 && !target.empty(); ++page) {
      const auto body = ok_json(request(port, target, key));
      const auto dates = dates_of(body["ohlc"]);
      page_sizes.push_back(dates.size());
      collected.insert(collected.end(), dates.begin(), dates.end());
      target = body.contains("next_url") ? body["next_url"].get<std::string>() : "";
      if (page == 0) {
        // The first page's next_url: the window moved past the last returned bar, every other
        // parameter kept (the symbol canonical).
        const std::string last = dates.back();
        const std::string moved = sort == "asc"
                                      ? bars_target(plus_days(last, 1), "2024-12-31", "")
                                      : bars_target("2024-01-01", plus_days(last, -1), "");
        CHECK(target.rfind(moved + "?", 0) == 0);
        CHECK(target.find("symbol=600519.SH") != std::string::npos);
        CHECK(target.find("sort=" + sort) != std::string::npos);
        CHECK(target.find("limit=100") != std::string::npos);
        CHECK(target.find("adjusted=TRUE") != std::string::npos);
      }
    }
    CHECK(page_sizes == std::vector<std::size_t>{100, 100, 42});
    CHECK(collected == expected);
    CHECK(target.empty());
  }
  SUBCASE("no next_url when limit equals the number of bars") {
    const auto body = ok_json(bars("2024-01-02", "2024-01-04", "symbol=600519.SH&limit=3"));
    CHECK_FALSE(body.contains("next_url"));
    const auto cut = ok_json(bars("2024-01-02", "2024-01-04", "symbol=600519.SH&limit=2"));
    CHECK(cut["next_url"] == "/v1/ohlc/range/1/day/2024-01-04/2024-01-04?symbol=600519.SH&limit=2");
    const auto desc =
        ok_json(bars("2024-01-02", "2024-01-04", "symbol=600519.SH&limit=2&sort=desc"));
    CHECK(desc["next_url"]
          == "/v1/ohlc/range/1/day/2024-01-02/2024-01-02?symbol=600519.SH&limit=2&sort=desc");
  }
  SUBCASE("multi-symbol: each item's next_url names that symbol alone") {
    const auto body = ok_json(bars("2024-01-02", "2024-01-31",
                                   "symbol=600519.SH,000002.SZ,600036.SH&limit=15&sort=desc"));
    REQUIRE(body["results"].size() == 3);
    CHECK_FALSE(body["results"][1].contains("next_url"));
    for (const std::size_t i : {std::size_t{0}, std::size_t{2}}) {
      const auto& item = body["results"][i];
      const auto symbol = item["symbol"].get<std::string>();
      CAPTURE(symbol);
      REQUIRE(item.contains("next_url"));
      const auto next = item["next_url"].get<std::string>();
      CHECK(next.find("symbol=" + symbol + "&") != std::string::npos);
      CHECK(next.find(',') == std::string::npos);
      CHECK(next.find("%2C") == std::string::npos);
      const auto rest = ok_json(request(port, next, key));
      CHECK(rest["symbol"] == symbol); // the single-symbol form
      auto dates = dates_of(item["ohlc"]);
      const auto more = dates_of(rest["ohlc"]);
      dates.insert(dates.end(), more.begin(), more.end());
      const auto full =
          ok_json(bars("2024-01-02", "2024-01-31", "symbol=" + symbol + "&sort=desc"));
      CHECK(dates == dates_of(full["ohlc"]));
      CHECK_FALSE(rest.contains("next_url"));
    }
  }
}

TEST_CASE("D8: summary") {
  const auto rows = read_csv(fixture(k_moutai_file));
  const auto window = in_range(rows, "2024-03-01", "2024-03-31");
  REQUIRE(window.size() >= 2);
  const auto first = window.front();
  const auto last = window.back();
  const double open_first = adjust(first.open, *first.factor, k_moutai_latest_factor);
  const double close_last = adjust(last.close, *last.factor, k_moutai_latest_factor);
  SUBCASE("asc") {
    const auto body = ok_json(bars("2024-03-01", "2024-03-31", "symbol=600519.SH&include=summary"));
    const auto& summary = body["summary"];
    CHECK(summary.size() == 6);
    CHECK(summary["from"] == "2024-03-01");
    CHECK(summary["to"] == "2024-03-31");
    CHECK(summary["bars_count"] == window.size());
    CHECK(summary["open_first"].get<double>() == open_first);
    CHECK(summary["close_last"].get<double>() == close_last);
    CHECK(summary["return_pct"].get<double>() == round4((close_last / open_first - 1) * 100));
  }
  SUBCASE("desc: the close of the earliest over the open of the latest") {
    const auto body =
        ok_json(bars("2024-03-01", "2024-03-31", "symbol=600519.SH&include=summary&sort=desc"));
    const auto& summary = body["summary"];
    const double open_latest = adjust(last.open, *last.factor, k_moutai_latest_factor);
    const double close_earliest = adjust(first.close, *first.factor, k_moutai_latest_factor);
    CHECK(summary["bars_count"] == window.size());
    CHECK(summary["open_first"].get<double>() == open_latest);
    CHECK(summary["close_last"].get<double>() == close_earliest);
    CHECK(summary["return_pct"].get<double>() == round4((close_earliest / open_latest - 1) * 100));
  }
  SUBCASE("after limit, on raw prices") {
    const auto body = ok_json(bars("2024-03-01", "2024-03-31",
                                   "symbol=600519.SH&include=summary&limit=2&adjusted=false"));
    const auto& summary = body["summary"];
    CHECK(summary["bars_count"] == 2);
    CHECK(summary["open_first"].get<double>() == window[0].open);
    CHECK(summary["close_last"].get<double>() == window[1].close);
    CHECK(summary["return_pct"].get<double>()
          == round4((window[1].close / window[0].open - 1) * 100));
  }
  SUBCASE("an empty range") {
    const auto body = ok_json(bars("2024-03-02", "2024-03-03", "symbol=600519.SH&include=summary"));
    CHECK(body["summary"]
          == json{{"from", "2024-03-02"},
                  {"to", "2024-03-03"},
                  {"bars_count", 0},
                  {"return_pct", nullptr},
                  {"open_first", nullptr},
                  {"close_last", nullptr}});
  }
  SUBCASE("multi-symbol: each served item has one, an item with an error has none") {
    const auto body =
        ok_json(bars("2024-03-01", "2024-03-31", "symbol=600519.SH,000002.SZ&include=summary"));
    CHECK_FALSE(body.contains("summary"));
    CHECK(body["results"][0]["summary"]["open_first"].get<double>() == open_first);
    CHECK(body["results"][0]["summary"]["bars_count"] == window.size());
    CHECK_FALSE(body["results"][1].contains("summary"));
  }
  SUBCASE("no summary without include") {
    CHECK_FALSE(ok_json(bars("2024-03-01", "2024-03-31", "symbol=600519.SH")).contains("summary"));
  }
}

TEST_CASE("D8: meta") {
  const auto body = ok_json(bars("2024-03-01", "2024-03-05", "symbol=600519.SH,600036.SH"));
  CHECK(body["meta"]
        == json{{"as_of", k_fixture_as_of},
                {"source", "bb-fixtures"},
                {"schema_version", k_schema_version}});
}

TEST_CASE("D12: numbers are never in exponent form, volume is an integer") {
  // Large turnovers (10^9..10^10 CNY), small change_pct values and 4-decimal prices.
  for (const std::string query : {"symbol=600519.SH", "symbol=600519.SH&adjusted=false",
                                  "symbol=600519.SH,600036.SH,002594.SZ&include=summary",
                                  "symbol=000001.SZ,600276.SH&include=summary"}) {
    CAPTURE(query);
    const auto reply = bars("2020-01-01", "2025-12-31", query + "&limit=5000");
    REQUIRE(reply.status == 200);
    CHECK(has_no_exponent(reply.body));
    CHECK(reply.body.find("e+") == std::string::npos);
    CHECK(reply.body.find("E+") == std::string::npos);
    const auto body = reply.json();
    const auto check_bars = [](const json& ohlc) {
      for (const auto& bar : ohlc) {
        REQUIRE(bar["volume"].is_number_integer());
      }
    };
    if (body.contains("ohlc")) {
      check_bars(body["ohlc"]);
    } else {
      for (const auto& item : body["results"]) {
        check_bars(item["ohlc"]);
      }
    }
  }
  SUBCASE("the scanner itself") {
    CHECK(has_no_exponent(R"({"a":1.5,"b":"1e5","c":-0.0001,"d":12345678901})"));
    CHECK_FALSE(has_no_exponent(R"({"a":1e-05})"));
    CHECK_FALSE(has_no_exponent(R"({"a":[2E+10]})"));
  }
}
