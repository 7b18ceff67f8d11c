// An in-process Tushare Pro for the fetch tests: an http::Gateway that answers `daily`,
// `adj_factor`, `suspend_d`, `stock_basic` and `trade_cal` from real Tushare `daily` CSV files
// (data/sample/tushare/), paged by `offset`/`limit`, with switches for the refusals of D18.
// The black-box tests run the stand-in server instead (tests/standin/).
#pragma once

#include "core/http/gateway.hpp"

#include <fstream>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace ashare::test {

class FakeTushare final : public http::Gateway {
public:
  using Row = std::vector<std::string>; // the CSV's cells, as text

  // Serve the rows of the Tushare daily CSV files `paths`.
  explicit FakeTushare(const std::vector<std::filesystem::path>& paths) {
    for (const auto& path : paths) {
      std::ifstream in(path);
      std::string line;
      std::getline(in, line);
      header = split(line);
      while (std::getline(in, line)) {
        auto row = split(line);
        by_day[row[1]].push_back(row);
      }
    }
    for (auto& [day, rows] : by_day) {
      std::sort(rows.begin(), rows.end());
    }
    derive_adj_factors();
  }

  // The adj_factor each row is answered with: the pre_close chain from 1, rounded to 3 decimals
  // as Tushare's are; keyed by (ts_code, trade_date).
  std::map<std::pair<std::string, std::string>, std::string> adj;
  std::vector<std::string> header;
  std::map<std::string, std::vector<Row>> by_day; // trade_date -> rows, by ts_code
  std::set<std::string> refused_apis;             // answered with code -2002
  // bse_mapping's rows (o_code, n_code): one of the real 248 unless a case says otherwise.
  std::vector<std::pair<std::string, std::string>> bse_mapping{{"838163.BJ", "920163.BJ"}};
  std::function<std::optional<std::string>(const nlohmann::json&)> override_reply;
  std::vector<nlohmann::json> calls; // every request, parsed
  int page_rows_cap = 6000;

  http::Outcome send(const http::Call& call) override {
    const auto request = nlohmann::json::parse(call.body);
    calls.push_back(request);
    if (override_reply) {
      if (auto reply = override_reply(request)) {
        return http::Reply{200, *reply};
      }
    }
    const std::string api = request["api_name"];
    if (refused_apis.count(api) != 0) {
      return refusal(-2002, "抱歉，您没有权限访问该接口，权限的具体详情访问：https://tushare.pro/document/1?doc_id=108。");
    }
    const auto& params = request["params"];
    if (api == "daily" || api == "adj_factor") {
      return table(api, matching(params), params);
    }
    if (api == "stock_basic") {
      return listings(params);
    }
    if (api == "bse_mapping") {
      std::vector<std::vector<std::string>> items;
      for (const auto& [old_code, new_code] : bse_mapping) {
        items.push_back({old_code, new_code});
      }
      return http::Reply{200, envelope({"o_code", "n_code"}, items, false)};
    }
    if (api == "suspend_d") {
      return http::Reply{200, envelope({"ts_code", "trade_date", "suspend_type"}, {}, false)};
    }
    return refusal(40101, "请指定正确的接口名");
  }

  std::size_t count_calls(const std::string& api) const {
    return static_cast<std::size_t>(std::count_if(calls.begin(), calls.end(), [&](const auto& call) {
      return call["api_name"] == api;
    }));
  }

  static http::Outcome refusal(int code, const std::string& msg) {
    return http::Reply{200, nlohmann::json{{"request_id", "x"}, {"code", code}, {"msg", msg}, {"data", nullptr}}.dump()};
  }

  // Return an envelope whose items are written verbatim: numbers as their CSV text.
  static std::string envelope(const std::vector<std::string>& fields,
                              const std::vector<std::vector<std::string>>& items,
                              bool has_more) {
    std::string out = R"({"request_id":"fake","code":0,"msg":"","data":{"fields":)"
                      + nlohmann::json(fields).dump() + R"(,"items":[)";
    for (std::size_t i = 0; i < items.size(); ++i) {
      out += i == 0 ? "[" : ",[";
      for (std::size_t c = 0; c < items[i].size(); ++c) {
        const auto& cell = items[i][c];
        const bool text = c < 2 || cell.empty() || !(std::isdigit(static_cast<unsigned char>(cell[0])) || cell[0] == '-');
        out += (c == 0 ? "" : ",") + (cell.empty() ? std::string("null") : text ? nlohmann::json(cell).dump() : cell);
      }
      out += "]";
    }
    return out + "],\"has_more\":" + (has_more ? "true" : "false") + "}}";
  }

private:
  static std::vector<std::string> split(const std::string& line) {
    std::vector<std::string> cells;
    std::stringstream in(line);
    std::string cell;
    while (std::getline(in, cell, ',')) {
      cells.push_back(cell);
    }
    return cells;
  }

  void derive_adj_factors() {
    std::map<std::string, std::pair<double, double>> chain; // ts_code -> (factor, previous close)
    for (const auto& [day, rows] : by_day) {
      for (const auto& row : rows) {
        auto [it, first] = chain.try_emplace(row[0], 1.0, 0.0);
        if (!first) {
          it->second.first *= it->second.second / std::stod(row[6]);
        }
        it->second.second = std::stod(row[5]);
        char text[32];
        std::snprintf(text, sizeof text, "%.3f", it->second.first);
        adj[{row[0], day}] = text;
      }
    }
  }

  std::vector<Row> matching(const nlohmann::json& params) const {
    std::vector<Row> rows;
    const auto codes = params.value("ts_code", std::string());
    const auto from = params.value("start_date", params.value("trade_date", std::string("0")));
    const auto to = params.value("end_date", params.value("trade_date", std::string("99999999")));
    for (auto it = by_day.lower_bound(from); it != by_day.end() && it->first <= to; ++it) {
      for (const auto& row : it->second) {
        if (codes.empty() || codes.find(row[0]) != std::string::npos) {
          rows.push_back(row);
        }
      }
    }
    return rows;
  }

  http::Outcome table(const std::string& api, const std::vector<Row>& rows, const nlohmann::json& params) const {
    const auto offset = static_cast<std::size_t>(params.value("offset", 0));
    const auto limit = std::min<std::size_t>(static_cast<std::size_t>(params.value("limit", 6000)),
                                             static_cast<std::size_t>(page_rows_cap));
    std::vector<std::vector<std::string>> items;
    for (std::size_t i = offset; i < rows.size() && items.size() < limit; ++i) {
      items.push_back(api == "daily" ? rows[i] : Row{rows[i][0], rows[i][1], adj.at({rows[i][0], rows[i][1]})});
    }
    const bool more = offset + items.size() < rows.size();
    const auto fields = api == "daily" ? header : std::vector<std::string>{"ts_code", "trade_date", "adj_factor"};
    return http::Reply{200, envelope(fields, items, more)};
  }

  http::Outcome listings(const nlohmann::json& params) const {
    std::vector<std::vector<std::string>> items;
    if (params.value("list_status", std::string("L")) == "L") {
      std::set<std::string> codes;
      for (const auto& [day, rows] : by_day) {
        for (const auto& row : rows) {
          codes.insert(row[0]);
        }
      }
      for (const auto& code : codes) {
        items.push_back({code, "name of " + code, "19900101", "", "L"});
      }
    }
    return http::Reply{200, envelope({"ts_code", "name", "list_date", "delist_date", "list_status"}, items, false)};
  }
};

} // namespace ashare::test
