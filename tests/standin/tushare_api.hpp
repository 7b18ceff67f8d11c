// The stand-in's Tushare Pro API (issue 32): one POSTed JSON call in, the reply's bytes out, as
// api.tushare.pro answers (shared/spec/DECISIONS.md D18 "Wire facts"): `{"request_id","code",
// "msg","data":{"fields","items","has_more"}}`, numbers written as the data's text. Faults come
// from a Faults; every call is logged for `GET /_log`. Thread-safe.
#pragma once

#include "faults.hpp"
#include "market.hpp"

#include <cstdint>
#include <mutex>
#include <random>
#include <string>

#include <nlohmann/json.hpp>

namespace standin {

struct ApiOptions {
  std::string token = "standin-token";
  int daily_cap = 6000; // rows per call of daily and adj_factor (Tushare: 6000)
};

// What the HTTP layer does with a call.
struct Outcome {
  enum class Action { reply, drop } action = Action::reply;
  int delay_ms = 0;  // sleep this long first
  std::string body;  // the reply (JSON, or truncated JSON when malformed)
  std::string held;  // the API name, when the call is held until a release (`hold`)
};

class TushareApi {
public:
  TushareApi(Market market, ApiOptions options);

  // Answer the request body `body` (received at `time_ms`, Unix ms) and log the call.
  Outcome call(const std::string& body, std::int64_t time_ms);

  // Apply a control object (see Faults::apply); return an error message or nullopt.
  std::optional<std::string> control(const nlohmann::json& settings);

  // Return the calls received since start or the last reset, oldest first.
  nlohmann::json log() const;

  // Wait until a `release` control (or a `reset`) lets a held call reply.
  void wait_for_release() { m_faults.wait_for_release(); }

private:
  struct Query;
  struct Answer;

  Answer dispatch(const Query& query);
  Answer answer_bars(const Query& query, const RowsByDay& table, const std::vector<Column>& columns, bool with_faults);
  Answer answer_basic(const Query& query, const std::vector<Row>& rows, const std::vector<Column>& columns);
  Answer answer_index_weight(const Query& query);
  Answer answer_trade_cal(const Query& query);
  Answer answer_stock_basic(const Query& query);
  Answer answer_suspend_d(const Query& query);
  std::string render(const Answer& answer, const std::string& fields);
  std::string render_error(int code, const std::string& msg);
  std::string request_id();

  const Market m_market;
  const ApiOptions m_options;
  Faults m_faults;
  mutable std::mutex m_mutex; // m_log, m_random
  nlohmann::json m_log = nlohmann::json::array();
  std::mt19937_64 m_random{std::random_device{}()};
};

} // namespace standin
