// The stand-in Tushare server itself (issue 32): its replies are the real CSV rows, verbatim; it
// pages, answers Tushare's errors and misbehaves as its control asks; it logs every call.
#include "server_process.hpp"
#include "tushare_standin.hpp"

#include <algorithm>
#include <chrono>
#include <fstream>

#include <doctest/doctest.h>
#include <httplib.h>

namespace bb {
namespace {

using nlohmann::json;

// POST `body` to the stand-in; the raw result (null on a transport error).
httplib::Result post(const TushareStandIn& standin, const json& body) {
  httplib::Client client("127.0.0.1", standin.port());
  return client.Post("/", body.dump(), "application/json");
}

json daily_call(const std::string& trade_date) {
  return {{"api_name", "daily"},
          {"token", TushareStandIn::k_token},
          {"params", {{"trade_date", trade_date}}},
          {"fields", ""}};
}

// The CSV rows of `trade_date` in tests/data/tushare_standin/daily, as the JSON arrays the
// stand-in must write (numbers as the CSV's text), sorted by ts_code.
std::vector<std::string> csv_rows_as_json(const std::string& trade_date) {
  std::vector<std::string> out;
  for (const auto& entry : std::filesystem::directory_iterator(data_dir() / "tushare_standin" / "daily")) {
    std::ifstream in(entry.path());
    std::string line;
    while (std::getline(in, line)) {
      if (line.find("," + trade_date + ",") == std::string::npos) {
        continue;
      }
      const auto code_end = line.find(',');
      const auto date_end = line.find(',', code_end + 1);
      out.push_back("[\"" + line.substr(0, code_end) + "\",\"" + trade_date + "\","
                    + line.substr(date_end + 1) + "]");
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

const std::string k_doc_tail = "权限的具体详情访问：https://tushare.pro/document/1?doc_id=108。";

} // namespace

TEST_CASE("tushare standin: a day's daily rows are the CSV rows, verbatim, by ts_code") {
  TushareStandIn standin;
  const auto result = post(standin, daily_call("20240102"));
  REQUIRE(result);
  CHECK(result->status == 200);
  const auto expected = csv_rows_as_json("20240102");
  REQUIRE(expected.size() == 10);
  std::string items;
  for (const auto& row : expected) {
    items += (items.empty() ? "" : ",") + row;
  }
  CHECK(result->body.find("\"items\":[" + items + "],\"has_more\":false}}") != std::string::npos);
  CHECK(result->body.rfind("{\"request_id\":\"", 0) == 0);
  CHECK(result->body.find("\",\"code\":0,\"msg\":\"\",\"data\":{\"fields\":[\"ts_code\",") != std::string::npos);

  const auto picked = standin.call("daily", {{"ts_code", "600519.SH"}, {"start_date", "20241227"},
                                             {"end_date", "20241231"}},
                                   "trade_date,close");
  CHECK(picked["data"]["fields"] == json{"trade_date", "close"});
  CHECK(picked["data"]["items"]
        == json::array({json::array({"20241231", 1524.0}), json::array({"20241230", 1525.0}),
                        json::array({"20241227", 1528.97})}));
}

TEST_CASE("tushare standin: daily pages with offset and limit under the cap, saying has_more") {
  TushareStandIn standin({"--daily-cap", "4"});
  const auto first = standin.call("daily", {{"trade_date", "20240102"}});
  CHECK(first["data"]["items"].size() == 4);
  CHECK(first["data"]["has_more"] == true);
  const auto last = standin.call("daily", {{"trade_date", "20240102"}, {"offset", 8}});
  CHECK(last["data"]["items"].size() == 2);
  CHECK(last["data"]["has_more"] == false);
  CHECK(last["data"]["items"][1][0] == "601318.SH");
  const auto limited = standin.call("daily", {{"trade_date", "20240102"}, {"offset", "1"}, {"limit", "3"}});
  CHECK(limited["data"]["items"].size() == 3);
  CHECK(limited["data"]["items"][0][0] == "000333.SZ");
  CHECK(limited["data"]["has_more"] == true);
}

TEST_CASE("tushare standin: trade_cal, stock_basic, suspend_d and adj_factor") {
  TushareStandIn standin;
  const auto calendar = standin.call("trade_cal", {{"exchange", "SSE"}, {"start_date", "20240209"},
                                                   {"end_date", "20240219"}, {"is_open", "1"}});
  CHECK(calendar["data"]["items"] == json{{"SSE", "20240219", 1, "20240208"}});
  const auto delisted = standin.call("stock_basic", {{"list_status", "D"}},
                                     "ts_code,list_status,delist_date");
  CHECK(delisted["data"]["items"] == json{{"600001.SH", "D", "20230630"}});
  CHECK(standin.call("stock_basic")["data"]["items"].size() == 10);
  const auto suspended = standin.call("suspend_d", {{"trade_date", "20200629"}, {"suspend_type", "S"}});
  CHECK(suspended["data"]["items"].size() == 1);
  const auto day = standin.call("daily", {{"trade_date", "20200629"}}, "ts_code");
  CHECK(day["data"]["items"].size() == 9); // 000001.SZ suspended that day
  CHECK(day["data"]["items"][0][0] == "000333.SZ");
  const auto factors = standin.call("adj_factor", {{"ts_code", "600276.SH"}, {"start_date", "20200522"},
                                                   {"end_date", "20200525"}});
  CHECK(factors["data"]["items"] == json{{"600276.SH", "20200525", 1.203}, {"600276.SH", "20200522", 1.0}});
}

TEST_CASE("tushare standin: Tushare's error replies") {
  TushareStandIn standin;
  const auto refused = standin.call("daily", {{"trade_date", "20240102"}}, "", "wrong");
  CHECK(refused["code"] == 40101);
  CHECK(refused["msg"] == "您的token不对，请确认。");
  CHECK(refused["data"].is_null());
  CHECK(standin.call("no_such_api")["msg"] == "请指定正确的接口名");

  standin.control({{"no_permission", {"adj_factor", "suspend_d"}}});
  const auto forbidden = standin.call("adj_factor", {{"trade_date", "20240102"}});
  CHECK(forbidden["code"] == -2002);
  CHECK(forbidden["msg"] == "抱歉，您没有权限访问该接口，" + k_doc_tail);
  CHECK(standin.call("suspend_d", {{"trade_date", "20240102"}})["code"] == -2002);

  standin.control({{"per_minute", {{"api", "daily"}, {"count", 2}}}});
  for (int i = 0; i < 2; ++i) {
    const auto limited = standin.call("daily", {{"trade_date", "20240102"}});
    CHECK(limited["code"] == 40203);
    CHECK(limited["msg"] == "抱歉，您每分钟最多访问该接口500次，" + k_doc_tail);
  }
  CHECK(standin.call("daily", {{"trade_date", "20240102"}})["code"] == 0);

  standin.control({{"per_minute", {{"wording", "frequency"}, {"limit", 200}}}});
  CHECK(standin.call("daily", {{"trade_date", "20240102"}})["msg"]
        == "抱歉，您访问接口(daily)频率超限(200次/分钟)，" + k_doc_tail);
  standin.control({{"daily_quota", json::object()}});
  CHECK(standin.call("trade_cal")["msg"] == "抱歉，您每天最多访问该接口50000次，" + k_doc_tail);
  standin.control({{"internal_error", {{{"msg", "服务器错误"}}, {{"api", "daily"}}}}});
  CHECK(standin.call("daily", {{"trade_date", "20240102"}})["msg"] == "服务器错误");
  const auto internal = standin.call("daily", {{"trade_date", "20240102"}});
  CHECK(internal["code"] == -1);
  CHECK(internal["msg"] == "系统内部错误");
  CHECK(standin.call("daily", {{"trade_date", "20240102"}})["code"] == 0);
}

TEST_CASE("tushare standin: malformed, dropped and slow replies") {
  TushareStandIn standin;
  standin.control({{"malformed", {{"api", "daily"}}}});
  const auto malformed = post(standin, daily_call("20240102"));
  REQUIRE(malformed);
  CHECK(malformed->status == 200);
  CHECK_FALSE(json::accept(malformed->body));

  standin.control({{"drop", {{"api", "daily"}}}});
  CHECK_FALSE(post(standin, daily_call("20240102")));
  CHECK(post(standin, daily_call("20240102"))->status == 200);

  standin.control({{"slow", {{"api", "daily"}, {"ms", 300}}}});
  const auto start = std::chrono::steady_clock::now();
  CHECK(post(standin, daily_call("20240102"))->status == 200);
  CHECK(std::chrono::steady_clock::now() - start >= 300ms);
}

TEST_CASE("tushare standin: day faults of daily") {
  TushareStandIn standin;
  standin.control({{"bad_row", {{"date", "20240102"}, {"ts_code", "600519.SH"}}},
                   {"closed_day_bar", "20240212"},
                   {"split_day", "20240103"},
                   {"partial_day", "20240104"},
                   {"empty_day", "20240105"}});
  const auto bad = standin.call("daily", {{"trade_date", "20240102"}, {"ts_code", "600519.SH"}}, "close");
  CHECK(bad["data"]["items"] == json{{-1.0}});
  standin.control({{"bad_row", {{"date", "20240102"}, {"kind", "high_below_low"}}}});
  const auto swapped = standin.call("daily", {{"trade_date", "20240102"}}, "ts_code,high,low");
  CHECK(swapped["data"]["items"][0] == json{"000001.SZ", 9.21, 9.42});

  const auto closed = standin.call("daily", {{"trade_date", "20240212"}});
  REQUIRE(closed["data"]["items"].size() == 1);
  CHECK(closed["data"]["items"][0][1] == "20240212");

  const auto first_half = standin.call("daily", {{"trade_date", "20240103"}});
  CHECK(first_half["data"]["items"].size() == 5);
  CHECK(first_half["data"]["has_more"] == true);
  const auto second_half = standin.call("daily", {{"trade_date", "20240103"}, {"offset", 5}});
  CHECK(second_half["data"]["items"].size() == 5);
  CHECK(second_half["data"]["has_more"] == false);

  const auto partial = standin.call("daily", {{"trade_date", "20240104"}});
  CHECK(partial["data"]["items"].size() == 5);
  CHECK(partial["data"]["has_more"] == false);
  CHECK(standin.call("daily", {{"trade_date", "20240105"}})["data"]["items"].empty());
}

TEST_CASE("tushare standin: the log records each call, and reset clears it and the faults") {
  TushareStandIn standin({"--control", R"({"no_permission":"adj_factor"})"});
  standin.call("daily", {{"trade_date", "20240102"}}, "ts_code,close");
  standin.call("adj_factor", {{"trade_date", "20240102"}});
  const auto log = standin.log();
  REQUIRE(log.size() == 2);
  CHECK(log[0]["api_name"] == "daily");
  CHECK(log[0]["params"] == json{{"trade_date", "20240102"}});
  CHECK(log[0]["fields"] == "ts_code,close");
  CHECK(log[0]["outcome"] == "ok");
  CHECK(log[1]["code"] == -2002);
  CHECK(log[1]["time_ms"].get<std::int64_t>() >= log[0]["time_ms"].get<std::int64_t>());

  standin.control({{"reset", true}});
  CHECK(standin.log().empty());
  CHECK(standin.call("adj_factor", {{"trade_date", "20240102"}})["code"] == 0);
}

TEST_CASE("tushare standin: a generated market on every open day, with valid bars") {
  TushareStandIn standin({"--generate", "30", "--generate-from", "20240102", "--generate-to", "20240110"});
  const auto day = standin.call("daily", {{"trade_date", "20240108"}});
  const auto& items = day["data"]["items"];
  REQUIRE(items.size() == 30);
  for (const auto& row : items) {
    const double open = row[2], high = row[3], low = row[4], close = row[5];
    CHECK(low <= std::min(open, close));
    CHECK(std::max(open, close) <= high);
    CHECK(low > 0);
  }
  CHECK(standin.call("daily", {{"trade_date", "20240106"}})["data"]["items"].empty()); // Saturday
  CHECK(standin.call("adj_factor", {{"ts_code", "000001.SZ"}})["data"]["items"].size() == 7);
  CHECK(standin.call("stock_basic")["data"]["items"].size() == 30);
}

} // namespace bb
