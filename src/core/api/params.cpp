#include "core/api/params.hpp"

#include <charconv>
#include <limits>

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
                                                  int max) {
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
  // The bounds are checked on the digits as written (D13: 0 < k <= 10 exactly), not on the
  // double they round to: 10.00000000000000000001 is above 10.
  const auto whole = plain ? text.substr(0, point) : std::string_view{};
  const auto fraction = plain && point != text.npos ? text.substr(point + 1) : std::string_view{};
  const auto significant = whole.substr(std::min(whole.find_first_not_of('0'), whole.size()));
  const bool fraction_zero = fraction.find_first_not_of('0') == fraction.npos;
  const auto limit = std::to_string(max);
  const bool above_max = significant.size() > limit.size()
                         || (significant.size() == limit.size()
                             && (significant > limit || (significant == limit && !fraction_zero)));
  if (!plain || (significant.empty() && fraction_zero) || above_max) {
    std::string shown(text.substr(0, 64)); // the value, cut short if it is long
    return invalid(name, shown, "a decimal number greater than 0 and at most " + limit);
  }
  // The nearest double; a positive text too small for any double reads as the smallest one.
  double number = 0;
  std::from_chars(text.data(), text.data() + text.size(), number);
  return std::optional<double>{std::max(number, std::numeric_limits<double>::denorm_min())};
}

} // namespace ashare::api
