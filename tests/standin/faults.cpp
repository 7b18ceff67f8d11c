#include "faults.hpp"

#include <algorithm>

namespace standin {
namespace {

using nlohmann::json;

const std::string k_doc_tail = "权限的具体详情访问：https://tushare.pro/document/1?doc_id=108。";

// The per-minute limit message in its three recorded wordings (shared/data/real/SOURCES.md,
// tushare_pro): "minute" (waditu/tushare #900), "frequency", and "2018" (#818, its tail after
// "详情访问：" assumed).
std::string per_minute_msg(const std::string& wording, const std::string& api, int limit) {
  if (wording == "frequency") {
    return "抱歉，您访问接口(" + api + ")频率超限(" + std::to_string(limit) + "次/分钟)，"
           + k_doc_tail;
  }
  if (wording == "2018") {
    return "抱歉，您每分最多访问该接口" + std::to_string(limit)
           + "次:-(，详情访问：https://tushare.pro/document/1?doc_id=108";
  }
  return "抱歉，您每分钟最多访问该接口" + std::to_string(limit) + "次，" + k_doc_tail;
}

std::string daily_quota_msg(int limit) {
  return "抱歉，您每天最多访问该接口" + std::to_string(limit) + "次，" + k_doc_tail;
}

// `value` as a list: an array as is, anything else as a list of one.
std::vector<json> as_list(const json& value) {
  if (value.is_array()) {
    return {value.begin(), value.end()};
  }
  return {value};
}

} // namespace

std::optional<std::string> Faults::apply(const json& settings) {
  if (!settings.is_object()) {
    return "the control body must be a JSON object";
  }
  if (settings.contains("reset") && settings["reset"] == true) {
    std::lock_guard lock(m_mutex);
    m_counted.clear();
    m_forbidden.clear();
    m_unknown.clear();
    m_slow_ms.clear();
    m_days.clear();
    m_daily_cap.reset();
    m_hold.reset();
    ++m_releases;
    m_released.notify_all();
  }
  for (const auto& [key, value] : settings.items()) {
    if (key == "reset") {
      continue;
    }
    if (auto error = apply_key(key, value)) {
      return error;
    }
  }
  return std::nullopt;
}

std::optional<std::string> Faults::apply_key(const std::string& key, const json& value) try {
  if (key == "per_minute" || key == "daily_quota" || key == "internal_error" || key == "refusal"
      || key == "malformed" || key == "drop") {
    return add_counted(key, value);
  }
  if (key == "split_day" || key == "partial_day" || key == "empty_day" || key == "closed_day_bar"
      || key == "bad_row") {
    return add_days(key, value);
  }
  std::lock_guard lock(m_mutex);
  if (key == "no_permission" || key == "unknown_api") {
    for (const auto& api : as_list(value)) {
      (key == "no_permission" ? m_forbidden : m_unknown).insert(api.get<std::string>());
    }
  } else if (key == "slow") {
    for (const auto& item : as_list(value)) {
      m_slow_ms[item.value("api", "*")] = item.at("ms").get<int>();
    }
  } else if (key == "daily_cap") {
    m_daily_cap = value.get<int>();
  } else if (key == "hold") {
    m_hold = value.value("api", "*");
  } else if (key == "release") {
    m_hold.reset();
    ++m_releases;
    m_released.notify_all();
  } else {
    return "unknown control key \"" + key + "\"";
  }
  return std::nullopt;
} catch (const json::exception& e) {
  return "bad value for \"" + key + "\": " + e.what();
}

std::optional<std::string> Faults::add_counted(const std::string& key, const json& value) {
  for (const auto& item : as_list(value)) {
    Counted counted;
    counted.api = item.value("api", "*");
    counted.remaining = item.value("count", 1);
    const std::string shown_api = counted.api == "*" ? "daily" : counted.api;
    if (key == "per_minute") {
      counted.fault = {FaultKind::error_reply, 40203,
                       per_minute_msg(item.value("wording", "minute"), shown_api,
                                      item.value("limit", 500))};
    } else if (key == "daily_quota") {
      counted.fault = {FaultKind::error_reply, 40203, daily_quota_msg(item.value("limit", 50000))};
    } else if (key == "internal_error") {
      counted.fault = {FaultKind::error_reply, item.value("code", -1),
                       item.value("msg", "系统内部错误")};
    } else if (key == "refusal") {
      counted.fault = {FaultKind::error_reply, item.value("code", 40001),
                       item.value("msg", "请求参数格式错误")};
    } else if (key == "malformed") {
      counted.fault = {FaultKind::malformed, 0, ""};
    } else {
      counted.fault = {FaultKind::drop, 0, ""};
    }
    std::lock_guard lock(m_mutex);
    m_counted.push_back(std::move(counted));
  }
  return std::nullopt;
}

std::optional<std::string> Faults::add_days(const std::string& key, const json& value) {
  for (const auto& item : as_list(value)) {
    const std::string date = key == "bad_row" ? item.at("date").get<std::string>()
                                              : item.get<std::string>();
    if (date.size() != 8 || !std::all_of(date.begin(), date.end(), ::isdigit)) {
      return "bad date \"" + date + "\" for \"" + key + "\": expected YYYYMMDD";
    }
    std::lock_guard lock(m_mutex);
    auto& day = m_days[date];
    if (key == "split_day") {
      day.split = true;
    } else if (key == "partial_day") {
      day.partial = true;
    } else if (key == "empty_day") {
      day.empty = true;
    } else if (key == "closed_day_bar") {
      day.closed_day_bar = true;
    } else {
      const auto kind = item.value("kind", "negative_close");
      if (kind != "negative_close" && kind != "high_below_low") {
        return "bad bad_row kind \"" + kind + "\": expected negative_close or high_below_low";
      }
      day.bad_row = BadRow{item.value("ts_code", ""), kind};
    }
  }
  return std::nullopt;
}

std::optional<CallFault> Faults::take(const std::string& api_name) {
  std::lock_guard lock(m_mutex);
  for (auto& counted : m_counted) {
    if (counted.remaining > 0 && (counted.api == "*" || counted.api == api_name)) {
      --counted.remaining;
      auto fault = counted.fault;
      std::erase_if(m_counted, [](const Counted& c) { return c.remaining <= 0; });
      return fault;
    }
  }
  return std::nullopt;
}

bool Faults::is_forbidden(const std::string& api_name) const {
  std::lock_guard lock(m_mutex);
  return m_forbidden.count(api_name) > 0;
}

bool Faults::is_unknown(const std::string& api_name) const {
  std::lock_guard lock(m_mutex);
  return m_unknown.count(api_name) > 0;
}

int Faults::slow_ms(const std::string& api_name) const {
  std::lock_guard lock(m_mutex);
  if (const auto found = m_slow_ms.find(api_name); found != m_slow_ms.end()) {
    return found->second;
  }
  const auto any = m_slow_ms.find("*");
  return any == m_slow_ms.end() ? 0 : any->second;
}

DayFaults Faults::day(const std::string& trade_date) const {
  std::lock_guard lock(m_mutex);
  const auto found = m_days.find(trade_date);
  return found == m_days.end() ? DayFaults{} : found->second;
}

std::vector<std::string> Faults::closed_day_bars() const {
  std::lock_guard lock(m_mutex);
  std::vector<std::string> out;
  for (const auto& [date, day] : m_days) {
    if (day.closed_day_bar) {
      out.push_back(date);
    }
  }
  return out;
}

std::optional<int> Faults::daily_cap() const {
  std::lock_guard lock(m_mutex);
  return m_daily_cap;
}

bool Faults::take_hold(const std::string& api_name) {
  std::lock_guard lock(m_mutex);
  if (!m_hold || (*m_hold != "*" && *m_hold != api_name)) {
    return false;
  }
  m_hold.reset();
  return true;
}

void Faults::wait_for_release() {
  std::unique_lock lock(m_mutex);
  const auto seen = m_releases;
  m_released.wait(lock, [&] { return m_releases != seen; });
}

} // namespace standin
