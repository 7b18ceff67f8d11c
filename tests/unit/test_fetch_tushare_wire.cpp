#include "testutil.hpp"

#include "core/fetch/tushare/tables.hpp"
#include "core/fetch/tushare/wire.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

using namespace ashare;
using namespace ashare::fetch::tushare;

TEST_CASE("tushare wire: a request is the client's JSON envelope") {
  const auto body = request_body("daily", "secret", nlohmann::json{{"trade_date", "20240102"}}, "");
  const auto parsed = nlohmann::json::parse(body);
  CHECK(parsed["api_name"] == "daily");
  CHECK(parsed["token"] == "secret");
  CHECK(parsed["params"]["trade_date"] == "20240102");
  CHECK(parsed["fields"] == "");
}

TEST_CASE("tushare wire: numbers keep the text the source sent") {
  const auto reply = parse_reply(
      R"({"request_id":"r1","code":0,"msg":"","data":{"fields":["ts_code","close","vol","x"],)"
      R"("items":[["600519.SH",1708.10,31234.56,null],["000001.SZ",9.2,100,1e-3]],"has_more":true}})");
  REQUIRE(reply);
  CHECK(reply->request_id == "r1");
  CHECK(reply->data.has_more);
  REQUIRE(reply->data.items.size() == 2);
  CHECK(*reply->data.items[0][1] == "1708.10");
  CHECK(*reply->data.items[0][2] == "31234.56");
  CHECK_FALSE(reply->data.items[0][3].has_value());
  CHECK(*reply->data.items[1][2] == "100");
  CHECK(*reply->data.items[1][3] == "1e-3");
  CHECK(reply->data.column("vol") == 2u);
  CHECK_FALSE(reply->data.column("amount").has_value());
}

TEST_CASE("tushare wire: what is not the envelope is an error saying so") {
  CHECK_FALSE(parse_reply(R"({"code":0,"msg":"","data":{"fields":["a"],"items":[[1)"));
  CHECK_FALSE(parse_reply(R"([1,2])"));
  CHECK_FALSE(parse_reply(R"({"msg":"no code"})"));
  CHECK_FALSE(parse_reply(R"({"code":0,"data":{"fields":["a","b"],"items":[[1]]}})"));
  const auto refusal = parse_reply(R"({"code":40203,"msg":"x","data":null})");
  REQUIRE(refusal);
  CHECK(refusal->code == 40203);
}

TEST_CASE("tushare wire: the reply reader takes JSON exactly as RFC 8259 writes it") {
  const auto envelope = [](const std::string& cell) {
    return R"({"code":0,"msg":"","data":{"fields":["a"],"items":[[)" + cell + "]]}}";
  };
  const auto cell_of = [&](const std::string& cell) -> std::optional<std::string> {
    const auto reply = parse_reply(envelope(cell));
    REQUIRE(reply);
    REQUIRE(reply->data.items.size() == 1);
    return reply->data.items[0][0];
  };
  // Strings: escapes, \u with surrogate pairs, UTF-8 as sent.
  CHECK(*cell_of(R"("a\"b\\c\/d\n\t")") == "a\"b\\c/d\n\t");
  CHECK(*cell_of(R"("\u8d35\u5dde\u8305\u53f0")") == "贵州茅台");
  CHECK(*cell_of(R"("\ud83d\ude00")") == "\xF0\x9F\x98\x80");
  CHECK(*cell_of("\"贵州茅台\"") == "贵州茅台");
  // Numbers and literals keep their text.
  CHECK(*cell_of("-0.5E+3") == "-0.5E+3");
  CHECK(*cell_of("0") == "0");
  CHECK(*cell_of("true") == "1");
  CHECK_FALSE(cell_of(" null ").has_value());
  // Whitespace anywhere between tokens.
  CHECK(parse_reply(" \n{ \"code\" : 0 , \"data\" : { \"fields\" : [ ] , \"items\" : [ ] } }\r\n"));

  const std::vector<std::string> not_json = {
      "01", "1.", ".5", "-", "1e", "+1", "0x10", "NaN", "tru", "nul",  // numbers and words
      R"("\x")", R"("\u12")", R"("\udc00")", R"("\ud800x")", R"("\ud800\u0041")", // escapes
      "\"a\tb\"", "\"\xC0\xAF\"", "\"\xED\xA0\x80\"", "\"\xF4\x90\x80\x80\"", "\"\xE8\xB4\"", // raw bytes
      "\"open", "1,", ",1"};
  for (const auto& cell : not_json) {
    CAPTURE(cell);
    const auto reply = parse_reply(envelope(cell));
    REQUIRE_FALSE(reply);
    CHECK(reply.error().message.find("not JSON") != std::string::npos);
    CHECK_FALSE(nlohmann::json::accept(envelope(cell))); // the reference agrees
  }
  CHECK_FALSE(parse_reply(R"({"code":0} x)"));
  CHECK_FALSE(parse_reply(R"({"code":0,})"));
  CHECK_FALSE(parse_reply(R"({"code" 0})"));
  CHECK_FALSE(parse_reply(""));
  // Deep nesting is refused, not followed.
  const auto deep = parse_reply(R"({"code":0,"x":)" + std::string(100, '[') + std::string(100, ']') + "}");
  REQUIRE_FALSE(deep);
  CHECK(deep.error().message.find("nested deeper") != std::string::npos);
  // A row with a nested cell.
  const auto nested = parse_reply(envelope(R"({"b":1})"));
  REQUIRE_FALSE(nested);
  CHECK(nested.error().message.find("row 1 has a nested cell") != std::string::npos);
}

TEST_CASE("tushare wire: a number past a double's range is JSON, kept as sent, and refused by D16's row checks") {
  // RFC 8259's grammar sets no range on a number (section 6 lets a parser set one): the envelope
  // is read, and the bar that holds such a number is the row checks' to refuse, as an import's.
  const auto reply = parse_reply(
      R"({"request_id":"r","code":0,"msg":"","data":{"fields":["ts_code","trade_date","open","high","low",)"
      R"("close","pre_close","change","pct_chg","vol","amount"],"items":[)"
      R"(["600519.SH","20240102",1715.0,1718.19,1678.1,8.488e464,1726.0,-40.99,-2.3749,32156.12,5440082.128],)"
      R"(["000001.SZ","20240102",9.39,9.42,9.21,9.21,9.39,-0.18,-1.9169,1158366.45,1e-400]],"has_more":false}})");
  REQUIRE(reply);
  CHECK(*reply->data.items[0][5] == "8.488e464");
  CHECK(*reply->data.items[1][10] == "1e-400");
  const auto rows = read_daily(reply->data);
  REQUIRE(rows);
  CHECK(rows->file.rows.empty());
  REQUIRE(rows->file.problems.size() == 2);
  CHECK(rows->code_on_line(rows->file.problems[0].line) == "600519.SH");
  CHECK(rows->file.problems[0].column == "close");
  CHECK(rows->file.problems[0].message == "\"8.488e464\" is out of range");
  CHECK(rows->code_on_line(rows->file.problems[1].line) == "000001.SZ");
  CHECK(rows->file.problems[1].column == "amount");
  CHECK(rows->file.problems[1].message == "\"1e-400\" is out of range");
}

TEST_CASE("tushare wire: refusals are classified by their words (D18)") {
  auto kind = [](std::int64_t code, std::string msg) {
    return classify_refusal(Envelope{"", code, std::move(msg), {}});
  };
  const auto minute = kind(40203, "抱歉，您每分钟最多访问该接口500次，权限的具体详情访问："
                                  "https://tushare.pro/document/1?doc_id=108。");
  CHECK(minute.kind == Refusal::per_minute);
  CHECK(minute.per_minute_limit == 500);
  const auto minute2 = kind(40203, "抱歉，您访问接口(daily)频率超限(200次/分钟)，请稍后再试");
  CHECK(minute2.kind == Refusal::per_minute);
  CHECK(minute2.per_minute_limit == 200);
  // D18's "每分…最多访问该接口N次": the 2018 wording too (waditu/tushare #818).
  const auto minute2018 = kind(40203, "抱歉，您每分最多访问该接口80次:-(，详情访问：https://tushare.pro");
  CHECK(minute2018.kind == Refusal::per_minute);
  CHECK(minute2018.per_minute_limit == 80);
  const auto unsaid = kind(40203, "抱歉，您每分钟最多访问该接口次数超限");
  CHECK(unsaid.kind == Refusal::per_minute);
  CHECK_FALSE(unsaid.per_minute_limit.has_value());
  CHECK(kind(40203, "抱歉，您每天最多访问该接口50000次，权限的具体详情访问：...").kind
        == Refusal::daily_quota);
  CHECK(kind(-2002, "抱歉，您没有权限访问该接口，权限的具体详情访问：https://tushare.pro/document/1?doc_id=108。").kind
        == Refusal::permission);
  CHECK(kind(40101, "您的token不对，请确认。").kind == Refusal::token);
  CHECK(kind(-1, "系统内部错误").kind == Refusal::internal);
  CHECK(kind(-1, "服务器错误").kind == Refusal::internal);
  CHECK(kind(-1, "系统未知错误").kind == Refusal::internal);
  CHECK(kind(40101, "请指定正确的接口名").kind == Refusal::other);
}

TEST_CASE("tushare tables: daily rows are read as the importer reads a Tushare file") {
  Table table;
  table.fields = {"ts_code", "trade_date", "open", "high", "low", "close", "pre_close",
                  "change", "pct_chg", "vol", "amount"};
  table.items.push_back({"600519.SH", "20240102", "1715.0", "1718.19", "1678.1", "1685.01",
                         "1726.0", "-40.99", "-2.3749", "32156.12", "5440082.128"});
  table.items.push_back({"000001.SZ", "20240102", "9.39", "9.42", "9.21", "9.21", "9.39",
                         "-0.18", "-1.9169", "1158366.45", "1075742.252"});
  table.items.push_back({"600000.SH", "20240102", "7.0", "6.0", "6.5", "6.6", "7.0", "0", "0",
                         "1", "1"});
  const auto rows = read_daily(table);
  REQUIRE(rows);
  REQUIRE(rows->file.rows.size() == 2);
  const auto& bar = rows->file.rows[0].bar;
  CHECK(bar.close == 1685.01);
  CHECK(bar.volume == 3215612);        // lots x 100, exactly
  CHECK(bar.turnover == 5440082128.0); // thousand CNY x 1000, exactly
  CHECK(*rows->file.rows[0].pre_close == 1726.0);
  REQUIRE(rows->file.problems.size() == 1); // high below open
  CHECK(rows->code_on_line(rows->file.problems[0].line) == "600000.SH");
}

TEST_CASE("tushare tables: listings, suspensions, factors and the calendar") {
  Table basic;
  basic.fields = {"ts_code", "name", "list_date", "delist_date", "list_status"};
  basic.items.push_back({"600519.SH", "贵州茅台", "20010827", std::nullopt, "L"});
  basic.items.push_back({"600087.SH", "退市长油", "19970606", "20140605", "D"});
  const auto listings = read_listings(basic);
  REQUIRE(listings);
  REQUIRE(listings->size() == 2);
  CHECK((*listings)[1].status == 'D');
  CHECK((*listings)[1].delist_date->iso() == "2014-06-05");
  CHECK_FALSE((*listings)[0].delist_date.has_value());

  Table suspend;
  suspend.fields = {"ts_code", "trade_date", "suspend_timing", "suspend_type"};
  suspend.items.push_back({"600519.SH", "20240103", std::nullopt, "S"});
  suspend.items.push_back({"600519.SH", "20240104", std::nullopt, "R"});
  const auto days = read_suspensions(suspend);
  REQUIRE(days);
  REQUIRE(days->size() == 1);
  CHECK((*days)[0].second.iso() == "2024-01-03");

  Table adj;
  adj.fields = {"ts_code", "trade_date", "adj_factor"};
  adj.items.push_back({"600519.SH", "20240102", "8.4464"});
  adj.items.push_back({"000001.SZ", "20240102", "not a number"});
  const auto factors = read_adj_factors(adj);
  REQUIRE(factors);
  CHECK(factors->size() == 1);
  CHECK(factors->at("600519.SH") == 8.4464);

  Table cal;
  cal.fields = {"exchange", "cal_date", "is_open", "pretrade_date"};
  cal.items.push_back({"SSE", "20240210", "0", "20240208"});
  cal.items.push_back({"SSE", "20240208", "1", "20240207"});
  const auto calendar = read_calendar(cal);
  REQUIRE(calendar);
  CHECK(calendar->open_days.size() == 1);
  CHECK(calendar->span->first.iso() == "2024-02-08");
  CHECK(calendar->span->second.iso() == "2024-02-10");
}

TEST_CASE("tushare tables: index_weight's snapshots by day, members by symbol (D20)") {
  Table weights;
  weights.fields = {"index_code", "con_code", "trade_date", "weight"};
  weights.items.push_back({"399300.SZ", "600519.SH", "20240131", "5.8125"});
  weights.items.push_back({"399300.SZ", "000001.SZ", "20240131", "0.9031"});
  weights.items.push_back({"399300.SZ", "000001.SZ", "20231229", "0.8872"});
  weights.items.push_back({"399300.SZ", "200002.SZ", "20240131", "0.1"});     // a B share: kept out
  weights.items.push_back({"399300.SZ", "600000.SH", "2024-13-01", "0.5"});   // no date
  weights.items.push_back({"399300.SZ", "600036.SH", "20240131", std::nullopt}); // no weight
  const auto snapshots = read_index_weight(weights);
  REQUIRE(snapshots);
  REQUIRE(snapshots->size() == 2);
  const auto& january = snapshots->at(test::date("2024-01-31"));
  REQUIRE(january.size() == 2);
  CHECK(january[0].symbol == "000001.SZ");
  CHECK(january[0].weight == 0.9031);
  CHECK(january[1].symbol == "600519.SH");
  CHECK(snapshots->at(test::date("2023-12-29")).size() == 1);
  Table without;
  without.fields = {"index_code", "con_code", "trade_date"};
  const auto refused = read_index_weight(without);
  REQUIRE_FALSE(refused);
  CHECK(refused.error().message == "Tushare `index_weight` answered without a `weight` column");
}
