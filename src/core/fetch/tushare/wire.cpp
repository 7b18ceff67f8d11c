#include "core/fetch/tushare/wire.hpp"

#include <charconv>
#include <utility>

namespace ashare::fetch::tushare {
namespace {

using nlohmann::json;

// A SAX handler that builds the DOM as nlohmann's does, but keeps every number as the text the
// source sent (a JSON string), so that "1708.10" never passes through a double (D12).
class TextNumbers {
public:
  explicit TextNumbers(json& root) : m_root(root) {}

  bool null() { return put(json(nullptr)); }
  bool boolean(bool value) { return put(json(value)); }
  bool number_integer(json::number_integer_t value) { return put(json(std::to_string(value))); }
  bool number_unsigned(json::number_unsigned_t value) { return put(json(std::to_string(value))); }
  bool number_float(json::number_float_t, const json::string_t& text) { return put(json(text)); }
  bool string(json::string_t& value) { return put(json(std::move(value))); }
  bool binary(json::binary_t&) { return false; }
  bool start_object(std::size_t) { return open(json::object()); }
  bool key(json::string_t& name) {
    m_key = std::move(name);
    return true;
  }
  bool end_object() { return close(); }
  bool start_array(std::size_t) { return open(json::array()); }
  bool end_array() { return close(); }
  bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception&) {
    m_error_at = position;
    return false;
  }

  std::size_t error_at() const { return m_error_at; }

private:
  // Place `value` where the parse is: the root, the next element of an array, or under the key.
  json* place(json value) {
    if (m_stack.empty()) {
      m_root = std::move(value);
      return &m_root;
    }
    json& parent = *m_stack.back();
    if (parent.is_array()) {
      parent.push_back(std::move(value));
      return &parent.back();
    }
    json& slot = parent[m_key];
    slot = std::move(value);
    return &slot;
  }
  bool put(json value) {
    place(std::move(value));
    return true;
  }
  bool open(json container) {
    m_stack.push_back(place(std::move(container)));
    return true;
  }
  bool close() {
    m_stack.pop_back();
    return true;
  }

  json& m_root;
  std::vector<json*> m_stack;
  std::string m_key;
  std::size_t m_error_at = 0;
};

Error bad_reply(const std::string& what) {
  return make_error(ErrorCode::invalid_input, "the reply is not Tushare's envelope: " + what);
}

std::optional<std::int64_t> to_integer(const json& value) {
  if (!value.is_string()) {
    return std::nullopt;
  }
  const auto& text = value.get_ref<const std::string&>();
  std::int64_t out = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), out);
  if (error != std::errc() || end != text.data() + text.size()) {
    return std::nullopt;
  }
  return out;
}

Result<Table> read_table(const json& data) {
  if (!data.is_object() || !data.contains("fields") || !data.contains("items")
      || !data["fields"].is_array() || !data["items"].is_array()) {
    return bad_reply("`data` has no `fields` and `items` arrays");
  }
  Table table;
  for (const auto& field : data["fields"]) {
    if (!field.is_string()) {
      return bad_reply("a name in `fields` is not a string");
    }
    table.fields.push_back(field.get<std::string>());
  }
  for (const auto& item : data["items"]) {
    if (!item.is_array() || item.size() != table.fields.size()) {
      return bad_reply("row " + std::to_string(table.items.size() + 1) + " does not have "
                       + std::to_string(table.fields.size()) + " cells");
    }
    auto& row = table.items.emplace_back();
    for (const auto& cell : item) {
      if (cell.is_null()) {
        row.emplace_back();
      } else if (cell.is_string()) {
        row.emplace_back(cell.get<std::string>());
      } else if (cell.is_boolean()) {
        row.emplace_back(cell.get<bool>() ? "1" : "0");
      } else {
        return bad_reply("row " + std::to_string(table.items.size()) + " has a nested cell");
      }
    }
  }
  const auto more = data.find("has_more");
  table.has_more = more != data.end() && more->is_boolean() && more->get<bool>();
  return table;
}

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

// D18: the per-minute answer in both recorded wordings: "您每分钟最多访问该接口500次" and
// "您访问接口(daily)频率超限(500次/分钟)". Return N, or nullopt when `msg` is neither.
std::optional<std::optional<int>> per_minute_limit(std::string_view msg) {
  const std::string_view first = "每分钟最多访问该接口";
  if (const auto at = msg.find(first); at != std::string_view::npos) {
    auto rest = msg.substr(at + first.size());
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
  json body;
  body["api_name"] = api_name;
  body["token"] = token;
  body["params"] = params.is_null() ? json::object() : params;
  body["fields"] = fields;
  return body.dump();
}

Result<Reply> parse_reply(std::string_view body) {
  json root;
  TextNumbers handler(root);
  if (!json::sax_parse(body, &handler)) {
    return bad_reply("not JSON (at byte " + std::to_string(handler.error_at()) + " of "
                     + std::to_string(body.size()) + ")");
  }
  if (!root.is_object()) {
    return bad_reply("not a JSON object");
  }
  const auto code = root.contains("code") ? to_integer(root["code"]) : std::nullopt;
  if (!code) {
    return bad_reply("no whole-number `code`");
  }
  Reply reply;
  reply.code = *code;
  if (const auto msg = root.find("msg"); msg != root.end() && msg->is_string()) {
    reply.msg = msg->get<std::string>();
  }
  if (const auto id = root.find("request_id"); id != root.end() && id->is_string()) {
    reply.request_id = id->get<std::string>();
  }
  if (reply.code != 0) {
    return reply;
  }
  auto table = read_table(root.contains("data") ? root["data"] : json());
  if (!table) {
    return table.error();
  }
  reply.data = std::move(*table);
  return reply;
}

ClassifiedRefusal classify_refusal(const Reply& reply) {
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
