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

Result<std::optional<double>> parse_decimal_param(std::string_view name,
                                                  std::optional<std::string_view> value,
                                                  double max) {
  if (!value) {
    return std::optional<double>{};
  }
  const std::string_view text = *value;
  const auto point = text.find('.');
  const auto digits = [](std::string_view part) {
    return !part.empty() && part.find_first_not_of("0123456789") == part.npos;
  };
  const bool plain = point == text.npos ? digits(text)
                                        : digits(text.substr(0, point)) && digits(text.substr(point + 1));
  double number = 0;
  const auto [end, error] = plain ? std::from_chars(text.data(), text.data() + text.size(), number)
                                  : std::from_chars_result{text.data(), std::errc::invalid_argument};
  if (!plain || error != std::errc{} || end != text.data() + text.size() || !(number > 0)
      || number > max) {
    std::string shown(text.substr(0, 64)); // the value, cut short if it is long
    return invalid(name, shown, "a decimal number greater than 0 and at most " + std::to_string(static_cast<int>(max)));
  }
  return std::optional<double>{number};
}

} // namespace ashare::api
