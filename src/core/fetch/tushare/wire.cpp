#include "core/fetch/tushare/wire.hpp"

#include <charconv>
#include <utility>

namespace ashare::fetch::tushare {
namespace {

// Return the whole number written before `end` in `text` (digits only), or nullopt.
std::optional<int> number_before(std::string_view text, std::size_t end) {
  std::size_t begin = end;
  while (begin > 0 && text[begin - 1] >= '0' && text[begin - 1] <= '9') {
    --begin;
  }
  int value = 0;
  const auto [ptr, error] = std::from_chars(text.data() + begin, text.data() + end, value);
  if (begin == end || error != std::errc() || ptr != text.data() + end) {
    return std::nullopt;
  }
  return value;
}

// D18: the per-minute answer in its recorded wordings: "每分…最多访问该接口N次" ("您每分钟最多
// 访问该接口500次", and in 2018 "您每分最多访问该接口80次:-(") and "您访问接口(daily)频率超限
// (500次/分钟)". Return N (nullopt when it names none), or nullopt when `msg` is neither.
std::optional<std::optional<int>> per_minute_limit(std::string_view msg) {
  const std::string_view per_minute = "每分";
  const std::string_view at_most = "最多访问该接口";
  const auto minute = msg.find(per_minute);
  if (const auto at = minute == std::string_view::npos ? minute : msg.find(at_most, minute);
      at != std::string_view::npos) {
    auto rest = msg.substr(at + at_most.size());
    std::size_t digits = 0;
    while (digits < rest.size() && rest[digits] >= '0' && rest[digits] <= '9') {
      ++digits;
    }
    return number_before(rest, digits);
  }
  const std::string_view second = "次/分钟";
  if (const auto at = msg.find(second); at != std::string_view::npos) {
    return number_before(msg, at);
  }
  return std::nullopt;
}

bool contains(std::string_view text, std::string_view part) {
  return text.find(part) != std::string_view::npos;
}

} // namespace

std::optional<std::size_t> Table::column(std::string_view name) const {
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (fields[i] == name) {
      return i;
    }
  }
  return std::nullopt;
}

std::string request_body(std::string_view api_name,
                         std::string_view token,
                         const nlohmann::json& params,
                         std::string_view fields) {
  nlohmann::json body;
  body["api_name"] = api_name;
  body["token"] = token;
  body["params"] = params.is_null() ? nlohmann::json::object() : params;
  body["fields"] = fields;
  return body.dump();
}

ClassifiedRefusal classify_refusal(const Envelope& reply) {
  const std::string_view msg = reply.msg;
  if (auto limit = per_minute_limit(msg)) {
    return {Refusal::per_minute, *limit};
  }
  if (contains(msg, "每天最多访问该接口") || contains(msg, "次/天")) {
    return {Refusal::daily_quota, std::nullopt};
  }
  if (reply.code == -2002 || contains(msg, "没有权限访问")) {
    return {Refusal::permission, std::nullopt};
  }
  if (contains(msg, "token")) {
    return {Refusal::token, std::nullopt};
  }
  if (contains(msg, "系统内部错误") || contains(msg, "服务器错误") || contains(msg, "系统未知错误")) {
    return {Refusal::internal, std::nullopt};
  }
  return {Refusal::other, std::nullopt};
}

} // namespace ashare::fetch::tushare
