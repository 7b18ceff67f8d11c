#include "core/fetch/pacer.hpp"
#include "core/fetch/tushare/client.hpp"
#include "fetch_fakes.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

using namespace ashare;
using namespace ashare::fetch;
using namespace ashare::fetch::tushare;
using namespace std::chrono_literals;

namespace {

std::string rows_reply(int first, int count, bool has_more) {
  nlohmann::json items = nlohmann::json::array();
  for (int i = first; i < first + count; ++i) {
    items.push_back({i});
  }
  return nlohmann::json{{"code", 0}, {"msg", ""},
                        {"data", {{"fields", {"n"}}, {"items", items}, {"has_more", has_more}}}}
      .dump();
}

std::string refusal(int code, const std::string& msg) {
  return nlohmann::json{{"code", code}, {"msg", msg}, {"data", nullptr}}.dump();
}

struct ClientRig {
  test::FakeClock clock;
  test::ScriptedGateway gateway;
  Pacer pacer{clock, 180, 60s};
  tushare::Client client{gateway, pacer, clock, tushare::ClientSettings{"tok", 2, 500ms, 3}};
};

} // namespace

using test::FakeClock;

TEST_CASE("pacer: calls are spaced evenly under the pace, and a rate refusal waits a window") {
  FakeClock clock;
  Pacer pacer(clock, 180, 60s);
  CHECK(pacer.before_call() == 0ms);
  CHECK(pacer.before_call() == 333ms); // 60 s / 180
  clock.sleep_for(1s);
  CHECK(pacer.before_call() == 0ms);
  CHECK(pacer.after_rate_refusal(100) == 60s);
  CHECK(pacer.per_window() == 90);
  CHECK(pacer.after_rate_refusal(500) == 60s);
  CHECK(pacer.per_window() == 90); // never faster than before
  Pacer off(clock, 0, 60s);
  CHECK(off.before_call() == 0ms);
  CHECK(off.before_call() == 0ms);
  CHECK(pace_under(1) == 1);
  CHECK(pace_under(500) == 450);
}

TEST_CASE("tushare client: pages while has_more, offset by the rows received") {
  ClientRig rig;
  rig.gateway.then(rows_reply(0, 3, true));
  rig.gateway.then(rows_reply(3, 2, false));
  const auto result = rig.client.call("daily", nlohmann::json{{"trade_date", "20240102"}}, "");
  REQUIRE(std::holds_alternative<Table>(result));
  CHECK(std::get<Table>(result).items.size() == 5);
  REQUIRE(rig.gateway.sent.size() == 2);
  const auto second = nlohmann::json::parse(rig.gateway.sent[1]);
  CHECK(second["params"]["offset"] == 3);
  CHECK(second["params"]["limit"] == 3);
  CHECK(second["params"]["trade_date"] == "20240102");
  CHECK(rig.client.requests() == 2);
}

TEST_CASE("tushare client: a per-minute answer waits the window and sends the same call again") {
  ClientRig rig;
  rig.gateway.then(refusal(40203, "抱歉，您每分钟最多访问该接口50次，权限的具体详情访问：x"));
  rig.gateway.then(rows_reply(0, 1, false));
  const auto result = rig.client.call("daily", nlohmann::json::object(), "");
  REQUIRE(std::holds_alternative<Table>(result));
  CHECK(rig.gateway.sent[0] == rig.gateway.sent[1]);
  CHECK(rig.pacer.per_window() == 45);
  REQUIRE_FALSE(rig.clock.slept.empty());
  CHECK(rig.clock.slept.front() == 60s);
}

TEST_CASE("tushare client: the per-minute answer's N paces the calls after it, in every wording (D18)") {
  struct Case {
    const char* msg;
    int pace;                       // pace_under(N)
    std::chrono::milliseconds apart; // 60 s / pace
  };
  for (const auto& c : {Case{"抱歉，您每分钟最多访问该接口50次，权限的具体详情访问：x", 45, 1333ms},
                        Case{"抱歉，您每分最多访问该接口80次:-(，详情访问：x", 72, 833ms},
                        Case{"抱歉，您访问接口(daily)频率超限(20次/分钟)，权限的具体详情访问：x", 18, 3333ms}}) {
    INFO(c.msg);
    ClientRig rig;
    rig.gateway.then(refusal(40203, c.msg));
    rig.gateway.then(rows_reply(0, 1, false));
    rig.gateway.then(rows_reply(0, 1, false));
    REQUIRE(std::holds_alternative<Table>(rig.client.call("daily", nlohmann::json::object(), "")));
    REQUIRE(std::holds_alternative<Table>(rig.client.call("daily", nlohmann::json::object(), "")));
    CHECK(rig.gateway.sent.size() == 3);
    CHECK(rig.pacer.per_window() == c.pace);
    // The window waited out, then the same call and the next one at the new pace.
    CHECK(rig.clock.slept == std::vector<std::chrono::milliseconds>{60s, c.apart, c.apart});
  }
}

TEST_CASE("tushare client: network and internal errors are retried with a doubling backoff") {
  ClientRig rig;
  rig.gateway.then_fail("connection refused");
  rig.gateway.then(refusal(-1, "系统内部错误"));
  rig.gateway.then(rows_reply(0, 1, false));
  const auto result = rig.client.call("daily", nlohmann::json::object(), "");
  REQUIRE(std::holds_alternative<Table>(result));
  CHECK(rig.clock.slept == std::vector<std::chrono::milliseconds>{500ms, 1000ms});
}

TEST_CASE("tushare client: a source that keeps failing ends the call") {
  ClientRig rig;
  rig.gateway.then("{not json");
  rig.gateway.then("", 502);
  rig.gateway.then_fail("timed out");
  const auto result = rig.client.call("daily", nlohmann::json::object(), "");
  REQUIRE(std::holds_alternative<CallFailure>(result));
  const auto& failure = std::get<CallFailure>(result);
  CHECK(failure.kind == CallFailure::Kind::failing);
  CHECK(failure.message.find("timed out") != std::string::npos);
  CHECK(failure.message.find("tok") == std::string::npos); // never the token
  CHECK(rig.gateway.sent.size() == 3);
}

TEST_CASE("tushare client: quota, token and permission refusals end the call at once") {
  ClientRig rig;
  rig.gateway.then(refusal(40203, "抱歉，您每天最多访问该接口50000次"));
  rig.gateway.then(refusal(40101, "您的token不对，请确认。"));
  rig.gateway.then(refusal(-2002, "抱歉，您没有权限访问该接口"));
  auto kind = [&rig] {
    return std::get<CallFailure>(rig.client.call("adj_factor", nlohmann::json::object(), "")).kind;
  };
  CHECK(kind() == CallFailure::Kind::quota);
  CHECK(kind() == CallFailure::Kind::token);
  CHECK(kind() == CallFailure::Kind::permission);
  CHECK(rig.gateway.sent.size() == 3);
}
