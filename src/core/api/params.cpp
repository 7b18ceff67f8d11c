#include "core/api/params.hpp"

#include <charconv>

namespace ashare::api {
namespace {

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') {
      c = static_cast<char>(c - 'A' + 'a');
    }
  }
  return out;
}

Error invalid(std::string_view name, std::string_view value, std::string_view expected) {
  return make_error(ErrorCode::invalid_parameter, "invalid " + std::string(name) + " \""
                                                    + std::string(value) + "\": expected "
                                                    + std::string(expected));
}

} // namespace

Result<bool> parse_bool_param(std::string_view name,
                              std::optional<std::string_view> value,
                              bool fallback) {
  if (!value) {
    return fallback;
  }
  const std::string text = lower(*value);
  if (text == "true" || text == "1") {
    return true;
  }
  if (text == "false" || text == "0") {
    return false;
  }
  return invalid(name, *value, "true or false");
}

Result<std::string> parse_enum_param(std::string_view name,
                                     std::optional<std::string_view> value,
                                     std::initializer_list<std::string_view> allowed,
                                     std::string_view fallback) {
  if (!value) {
    return std::string(fallback);
  }
  std::string text = lower(*value);
  std::string expected;
  std::size_t index = 0;
  for (const auto option : allowed) {
    if (text == option) {
      return text;
    }
    if (index > 0) {
      expected += index + 1 == allowed.size() ? " or " : ", ";
    }
    expected += option;
    ++index;
  }
  return invalid(name, *value, expected);
}

Result<std::optional<std::int64_t>> parse_int_param(std::string_view name,
                                                    std::optional<std::string_view> value,
                                                    std::int64_t min,
                                                    std::int64_t max) {
  if (!value) {
    return std::optional<std::int64_t>{};
  }
  const std::string expected =
    "an integer from " + std::to_string(min) + " to " + std::to_string(max);
  const std::string_view text = *value;
  const bool digits_only = !text.empty() && text.find_first_not_of("0123456789") == text.npos;
  std::int64_t number = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), number);
  if (!digits_only || error != std::errc{} || end != text.data() + text.size() || number < min
      || number > max) {
    return invalid(name, text, expected);
  }
  return std::optional<std::int64_t>{number};
}

} // namespace ashare::api
