#include "tushare_api.hpp"

#include "index_weight.hpp"

#include <algorithm>
#include <cstdio>
#include <memory>
#include <set>

namespace standin {
namespace {

using nlohmann::json;

const std::string k_no_such_day = "99999999";

// The APIs the stand-in answers (D20 added fund_daily, fund_adj, fund_basic, index_daily,
// index_basic and index_weight).
const std::set<std::string> k_apis{"daily",      "adj_factor", "trade_cal",   "stock_basic", "suspend_d",
                                   "bse_mapping", "fund_daily", "fund_adj",    "fund_basic",  "index_daily",
                                   "index_basic", "index_weight"};

std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    auto comma = text.find(',', start);
    if (comma == std::string::npos) {
      comma = text.size();
    }
    auto item = text.substr(start, comma - start);
    item.erase(0, item.find_first_not_of(" \t"));
    item.erase(item.find_last_not_of(" \t") + 1);
    if (!item.empty()) {
      out.push_back(item);
    }
    start = comma + 1;
  }
  return out;
}

void append_json_string(std::string& out, const std::string& text) {
  out += '"';
  for (const char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\u%04x", static_cast<unsigned>(c));
      out += escaped;
    } else {
      out += c;
    }
  }
  out += '"';
}

} // namespace

struct TushareApi::Query {
  std::string api_name;
  std::string token;
  json params = json::object();
  std::string fields;

  // Return parameter `name` as text (a number as its digits); nullopt when absent, null or "".
  std::optional<std::string> param(const std::string& name) const {
    if (!params.is_object() || !params.contains(name)) {
      return std::nullopt;
    }
    const auto& value = params[name];
    std::string text = value.is_string() ? value.get<std::string>()
                       : value.is_null() ? std::string{}
                                         : value.dump();
    return text.empty() ? std::nullopt : std::optional{text};
  }
  std::optional<long long> int_param(const std::string& name) const {
    const auto text = param(name);
    return text ? std::optional{std::stoll(*text)} : std::nullopt;
  }
};

struct TushareApi::Answer {
  int code = 0;
  std::string msg;
  const std::vector<Column>* columns = nullptr;
  std::vector<const Row*> rows;
  std::vector<std::unique_ptr<Row>> owned; // rows made for this answer (faults, exchange)
  bool has_more = false;

  const Row* own(Row row) {
    owned.push_back(std::make_unique<Row>(std::move(row)));
    return owned.back().get();
  }
  // Keep rows [offset, offset + limit) and say whether more follow; no `limit` keeps the rest.
  void page(long long offset, std::optional<long long> limit) {
    const auto total = static_cast<long long>(rows.size());
    const auto begin = std::clamp(offset, 0LL, total);
    const auto end = limit ? std::clamp(begin + std::max(*limit, 0LL), begin, total) : total;
    has_more = end < total;
    rows = std::vector<const Row*>(rows.begin() + begin, rows.begin() + end);
  }
};

TushareApi::TushareApi(Market market, ApiOptions options)
    : m_market(std::move(market)), m_options(std::move(options)) {}

std::optional<std::string> TushareApi::control(const json& settings) {
  if (settings.is_object() && settings.contains("reset") && settings["reset"] == true) {
    std::lock_guard lock(m_mutex);
    m_log = json::array();
  }
  return m_faults.apply(settings);
}

json TushareApi::log() const {
  std::lock_guard lock(m_mutex);
  return m_log;
}

Outcome TushareApi::call(const std::string& body, std::int64_t time_ms) {
  Query query;
  Outcome outcome;
  json entry{{"time_ms", time_ms}};
  const auto parsed = json::parse(body, nullptr, false);
  if (!parsed.is_object()) {
    outcome.body = render_error(40001, "请求参数格式错误");
    entry.update({{"api_name", nullptr}, {"outcome", "error"}, {"code", 40001}});
  } else {
    query.api_name = parsed.value("api_name", "");
    query.token = parsed.value("token", "");
    query.params = parsed.contains("params") && parsed["params"].is_object() ? parsed["params"]
                                                                              : json::object();
    if (parsed.contains("fields") && parsed["fields"].is_array()) {
      for (const auto& field : parsed["fields"]) {
        query.fields += (query.fields.empty() ? "" : ",") + field.get<std::string>();
      }
    } else {
      query.fields = parsed.value("fields", "");
    }
    entry.update({{"api_name", query.api_name}, {"params", query.params},
                  {"fields", query.fields}, {"token_ok", query.token == m_options.token}});
    outcome.delay_ms = m_faults.slow_ms(query.api_name);
    if (m_faults.take_hold(query.api_name)) {
      outcome.held = query.api_name;
    }
    auto answer = dispatch(query);
    if (answer.code != 0) {
      outcome.body = render_error(answer.code, answer.msg);
      entry.update({{"outcome", "error"}, {"code", answer.code}});
    } else if (const auto fault = m_faults.take(query.api_name)) {
      if (fault->kind == FaultKind::drop) {
        outcome.action = Outcome::Action::drop;
        entry.update({{"outcome", "drop"}, {"code", nullptr}});
      } else if (fault->kind == FaultKind::malformed) {
        const auto full = render(answer, query.fields);
        outcome.body = full.substr(0, full.size() / 2);
        entry.update({{"outcome", "malformed"}, {"code", nullptr}});
      } else {
        outcome.body = render_error(fault->code, fault->msg);
        entry.update({{"outcome", "error"}, {"code", fault->code}});
      }
    } else {
      outcome.body = render(answer, query.fields);
      entry.update({{"outcome", "ok"}, {"code", 0}, {"rows", answer.rows.size()},
                    {"has_more", answer.has_more}});
    }
  }
  std::lock_guard lock(m_mutex);
  m_log.push_back(std::move(entry));
  return outcome;
}

// The checks in the order the stand-in makes them: token, API name, permission, parameters.
TushareApi::Answer TushareApi::dispatch(const Query& query) {
  Answer answer;
  if (query.token != m_options.token) {
    answer.code = 40101;
    answer.msg = "您的token不对，请确认。";
  } else if (k_apis.count(query.api_name) == 0 || m_faults.is_unknown(query.api_name)) {
    answer.code = 40101;
    answer.msg = "请指定正确的接口名";
  } else if (m_faults.is_forbidden(query.api_name)) {
    answer.code = -2002;
    answer.msg = "抱歉，您没有权限访问该接口，权限的具体详情访问：https://tushare.pro/document/1?doc_id=108。";
  } else {
    try {
      if (query.api_name == "daily" || query.api_name == "adj_factor") {
        const bool daily = query.api_name == "daily";
        return answer_bars(query, daily ? m_market.daily : m_market.adj_factor,
                           daily ? k_daily_columns : k_adj_factor_columns, daily);
      }
      // D20: a fund's day as a stock's, an index's by its ts_code.
      if (query.api_name == "fund_daily" || query.api_name == "index_daily") {
        return answer_bars(query, query.api_name == "fund_daily" ? m_market.fund_daily : m_market.index_daily,
                           k_daily_columns, false);
      }
      if (query.api_name == "fund_adj") {
        return answer_bars(query, m_market.fund_adj, k_adj_factor_columns, false);
      }
      if (query.api_name == "fund_basic" || query.api_name == "index_basic") {
        const bool funds = query.api_name == "fund_basic";
        return answer_basic(query, funds ? m_market.fund_basic : m_market.index_basic,
                            funds ? k_fund_basic_columns : k_index_basic_columns);
      }
      if (query.api_name == "index_weight") {
        return answer_index_weight(query);
      }
      if (query.api_name == "trade_cal") {
        return answer_trade_cal(query);
      }
      if (query.api_name == "stock_basic") {
        return answer_stock_basic(query);
      }
      if (query.api_name == "bse_mapping") {
        Answer mapping;
        mapping.columns = &k_bse_mapping_columns;
        for (const auto& row : m_market.bse_mapping) {
          if (query.param("o_code").value_or(row[1]) == row[1] && query.param("n_code").value_or(row[2]) == row[2]) {
            mapping.rows.push_back(&row);
          }
        }
        mapping.page(query.int_param("offset").value_or(0), query.int_param("limit"));
        return mapping;
      }
      return answer_suspend_d(query);
    } catch (const std::exception&) { // a non-numeric offset or limit
      answer = Answer{};
      answer.code = 40001;
      answer.msg = "参数错误";
    }
  }
  return answer;
}

// daily (with the day faults) and adj_factor: one day's rows by ts_code, or the days of a range,
// latest first, then paged by offset/limit under the cap.
TushareApi::Answer TushareApi::answer_bars(const Query& query,
                                           const RowsByDay& table,
                                           const std::vector<Column>& columns,
                                           bool is_daily) {
  Answer answer;
  answer.columns = &columns;
  const auto code_list = split_list(query.param("ts_code").value_or(""));
  const std::set<std::string> codes(code_list.begin(), code_list.end());
  const auto wanted = [&](const Row& row) { return codes.empty() || codes.count(row[0]) > 0; };

  std::vector<std::string> days;
  if (const auto trade_date = query.param("trade_date")) {
    days.push_back(*trade_date);
  } else {
    const auto from = query.param("start_date").value_or("");
    const auto to = query.param("end_date").value_or(k_no_such_day);
    for (auto it = table.lower_bound(from); it != table.end() && it->first <= to; ++it) {
      days.push_back(it->first);
    }
    if (is_daily) {
      for (const auto& day : m_faults.closed_day_bars()) {
        if (day >= from && day <= to && !table.count(day)) {
          days.push_back(day);
        }
      }
    }
    std::sort(days.rbegin(), days.rend());
  }

  for (const auto& day : days) {
    const auto faults = is_daily ? m_faults.day(day) : DayFaults{};
    if (faults.empty) {
      continue;
    }
    std::vector<const Row*> day_rows;
    if (const auto found = table.find(day); found != table.end()) {
      for (const auto& row : found->second) {
        day_rows.push_back(&row);
      }
    } else if (faults.closed_day_bar) {
      // D18: a bar on a day the calendar says is closed: the previous day's first row, redated.
      const auto previous = table.lower_bound(day);
      if (previous != table.begin()) {
        for (const auto& row : std::prev(previous)->second) {
          if (wanted(row)) {
            Row copy = row;
            copy[1] = day;
            day_rows.push_back(answer.own(std::move(copy)));
            break;
          }
        }
      }
    }
    if (faults.partial) {
      day_rows.resize(day_rows.size() / 2); // D18's "not yet published" day
    }
    std::erase_if(day_rows, [&](const Row* row) { return !wanted(*row); });
    if (faults.bad_row) {
      const auto target = std::find_if(day_rows.begin(), day_rows.end(), [&](const Row* row) {
        return faults.bad_row->ts_code.empty() || (*row)[0] == faults.bad_row->ts_code;
      });
      if (target != day_rows.end()) {
        Row bad = **target;
        if (faults.bad_row->kind == "negative_close") {
          bad[5] = "-1.0";
        } else {
          std::swap(bad[3], bad[4]); // high below low
          if (bad[3] == bad[4]) {
            bad[3] = "0.01";
          }
        }
        *target = answer.own(std::move(bad));
      }
    }
    answer.rows.insert(answer.rows.end(), day_rows.begin(), day_rows.end());
  }

  const long long cap = m_faults.daily_cap().value_or(m_options.daily_cap);
  auto limit = std::min(query.int_param("limit").value_or(cap), cap);
  if (query.param("trade_date") && m_faults.day(days.front()).split) {
    limit = std::min(limit, std::max(1LL, static_cast<long long>(answer.rows.size() + 1) / 2));
  }
  answer.page(query.int_param("offset").value_or(0), limit);
  return answer;
}

// index_weight (D20): one index_code's snapshots by trade_date or over start_date..end_date, latest
// first, paged under the cap. A code without snapshots (000300.SH: Tushare files CSI 300 under
// 399300.SZ) answers no rows, as the real service did.
TushareApi::Answer TushareApi::answer_index_weight(const Query& query) {
  Answer answer;
  answer.columns = &k_index_weight_columns;
  const auto found = m_market.index_weight.find(query.param("index_code").value_or(""));
  if (found != m_market.index_weight.end()) {
    const auto trade_date = query.param("trade_date");
    const auto from = trade_date.value_or(query.param("start_date").value_or(""));
    const auto to = trade_date.value_or(query.param("end_date").value_or(k_no_such_day));
    for (auto it = found->second.rbegin(); it != found->second.rend(); ++it) {
      if (it->first >= from && it->first <= to) {
        for (const auto& row : it->second) {
          answer.rows.push_back(&row);
        }
      }
    }
  }
  const long long cap = m_faults.daily_cap().value_or(m_options.daily_cap);
  answer.page(query.int_param("offset").value_or(0), std::min(query.int_param("limit").value_or(cap), cap));
  return answer;
}

// trade_cal: SSE's calendar (the A-share exchanges share it), latest first as Tushare answers.
TushareApi::Answer TushareApi::answer_trade_cal(const Query& query) {
  Answer answer;
  answer.columns = &k_trade_cal_columns;
  const auto exchange = query.param("exchange").value_or("SSE");
  const auto from = query.param("start_date").value_or("");
  const auto to = query.param("end_date").value_or(k_no_such_day);
  const auto is_open = query.param("is_open");
  for (auto it = m_market.trade_cal.rbegin(); it != m_market.trade_cal.rend(); ++it) {
    const Row& row = *it;
    if (row[1] < from || row[1] > to || (is_open && row[2] != *is_open)) {
      continue;
    }
    if (exchange == row[0]) {
      answer.rows.push_back(&row);
    } else {
      Row copy = row;
      copy[0] = exchange;
      answer.rows.push_back(answer.own(std::move(copy)));
    }
  }
  answer.page(query.int_param("offset").value_or(0), query.int_param("limit"));
  return answer;
}

// stock_basic: listed (L, the default), delisted (D) or paused (P) symbols.
TushareApi::Answer TushareApi::answer_stock_basic(const Query& query) {
  Answer answer;
  answer.columns = &k_stock_basic_columns;
  const auto status = query.param("list_status").value_or("L");
  const auto code = query.param("ts_code");
  for (const auto& row : m_market.stock_basic) {
    if (row[3] == status && (!code || row[0] == *code)) {
      answer.rows.push_back(&row);
    }
  }
  answer.page(query.int_param("offset").value_or(0), query.int_param("limit"));
  return answer;
}

// fund_basic and index_basic (D20): by ts_code, and fund_basic by market (E, the exchanges).
TushareApi::Answer TushareApi::answer_basic(const Query& query, const std::vector<Row>& rows,
                                            const std::vector<Column>& columns) {
  Answer answer;
  answer.columns = &columns;
  const auto code = query.param("ts_code");
  const auto market = query.param("market");
  const bool funds = &columns == &k_fund_basic_columns;
  for (const auto& row : rows) {
    if ((!code || row[0] == *code) && (!market || !funds || row[8] == *market)) {
      answer.rows.push_back(&row);
    }
  }
  answer.page(query.int_param("offset").value_or(0), query.int_param("limit"));
  return answer;
}

// suspend_d: by trade_date, or by ts_code and a range, optionally one suspend_type (S or R).
TushareApi::Answer TushareApi::answer_suspend_d(const Query& query) {
  Answer answer;
  answer.columns = &k_suspend_d_columns;
  const auto code_list = split_list(query.param("ts_code").value_or(""));
  const std::set<std::string> codes(code_list.begin(), code_list.end());
  const auto trade_date = query.param("trade_date");
  const auto from = query.param("start_date").value_or("");
  const auto to = query.param("end_date").value_or(k_no_such_day);
  const auto type = query.param("suspend_type");
  for (const auto& row : m_market.suspend_d) {
    if ((codes.empty() || codes.count(row[0]) > 0) && (!trade_date || row[1] == *trade_date)
        && row[1] >= from && row[1] <= to && (!type || row[3] == *type)) {
      answer.rows.push_back(&row);
    }
  }
  answer.page(query.int_param("offset").value_or(0), query.int_param("limit"));
  return answer;
}

// The columns `fields` names, in its order (unknown names left out); all of them when none.
static std::vector<std::size_t> pick_fields(const std::vector<Column>& columns,
                                            const std::string& fields) {
  std::vector<std::size_t> picks;
  for (const auto& name : split_list(fields)) {
    const auto found = std::find_if(columns.begin(), columns.end(),
                                    [&](const Column& column) { return column.name == name; });
    if (found != columns.end()) {
      picks.push_back(static_cast<std::size_t>(found - columns.begin()));
    }
  }
  if (picks.empty()) {
    for (std::size_t i = 0; i < columns.size(); ++i) {
      picks.push_back(i);
    }
  }
  return picks;
}

// The key order of a recorded reply (shared/data/real/protocols/tushare_pro/); numbers are the
// data's text, written verbatim so that a client reads exactly the CSV's value.
std::string TushareApi::render(const Answer& answer, const std::string& fields) {
  const auto& columns = *answer.columns;
  const auto picks = pick_fields(columns, fields);
  std::string out = "{\"request_id\":\"" + request_id() + "\",\"code\":0,\"msg\":\"\",\"data\":{\"fields\":[";
  for (std::size_t i = 0; i < picks.size(); ++i) {
    out += i == 0 ? "" : ",";
    append_json_string(out, columns[picks[i]].name);
  }
  out += "],\"items\":[";
  out.reserve(out.size() + answer.rows.size() * picks.size() * 12);
  for (std::size_t r = 0; r < answer.rows.size(); ++r) {
    out += r == 0 ? "[" : ",[";
    const Row& row = *answer.rows[r];
    for (std::size_t i = 0; i < picks.size(); ++i) {
      out += i == 0 ? "" : ",";
      const auto& cell = row[picks[i]];
      if (cell.empty()) {
        out += "null";
      } else if (columns[picks[i]].is_text) {
        append_json_string(out, cell);
      } else {
        out += cell;
      }
    }
    out += "]";
  }
  out += "],\"has_more\":";
  out += answer.has_more ? "true" : "false";
  out += "}}";
  return out;
}

// As recorded in waditu/tushare #1205: `data` is null on an error.
std::string TushareApi::render_error(int code, const std::string& msg) {
  std::string out = "{\"request_id\":\"" + request_id() + "\",\"code\":" + std::to_string(code)
                    + ",\"msg\":";
  append_json_string(out, msg);
  out += ",\"data\":null}";
  return out;
}

// A random UUID-shaped id, as the recorded reply's.
std::string TushareApi::request_id() {
  std::uint64_t high = 0;
  std::uint64_t low = 0;
  {
    std::lock_guard lock(m_mutex);
    high = m_random();
    low = m_random();
  }
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "%08x-%04x-%04x-%04x-%012llx",
                static_cast<unsigned>(high >> 32), static_cast<unsigned>((high >> 16) & 0xffff),
                static_cast<unsigned>(high & 0xffff), static_cast<unsigned>(low >> 48),
                static_cast<unsigned long long>(low & 0xffffffffffffULL));
  return buffer;
}

} // namespace standin
