// The date, symbol, number and decimal parsers and the query parameter parsers, on any bytes.
// The first byte picks the parser; the rest is its text. Beyond "no crash":
// - a number parse_decimal reads is what parse_double reads, bit for bit, and a finite one written
//   (D12) and read again is the same double;
// - a date, a symbol or a symbol list that parses is written back as the text it came from (or
//   its canonical form), which parses to the same value again;
// - printable() leaves no control byte and valid UTF-8.
#include "fuzz_check.hpp"

#include "core/api/params.hpp"
#include "core/domain/date.hpp"
#include "core/domain/number.hpp"
#include "core/domain/symbol.hpp"
#include "core/domain/text.hpp"

#include <bit>
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>

using namespace ashare;

namespace {

void check_number(std::string_view text) {
  const auto decimal = domain::parse_decimal(text);
  const auto value = domain::parse_double(text);
  FUZZ_CHECK(decimal.has_value() == value.has_value());
  if (!decimal) {
    return;
  }
  const double nearest = domain::to_double(*decimal);
  FUZZ_CHECK(std::bit_cast<std::uint64_t>(nearest) == std::bit_cast<std::uint64_t>(*value)
             || (nearest == 0 && *value == 0)); // parse_double's zero has no sign
  if (const auto whole = domain::parse_plain_integer(text)) {
    FUZZ_CHECK(domain::to_int64(*decimal) == whole);
  }
  if (std::isfinite(*value)) {
    const auto written = domain::format_number(*value);
    FUZZ_CHECK(written.find_first_of("eE") == std::string::npos); // never exponent form (D12)
    const auto again = domain::parse_double(written);
    FUZZ_CHECK(again.has_value() && *again == *value);
  }
}

void check_date(std::string_view text) {
  const auto date = domain::parse_iso_date(text, "from");
  if (!date) {
    FUZZ_CHECK(date.error().code == ErrorCode::invalid_parameter);
    return;
  }
  FUZZ_CHECK(date->iso() == text);
  FUZZ_CHECK(domain::Date::from_yyyymmdd(date->yyyymmdd()) == *date);
  FUZZ_CHECK(domain::Date::containing_instant(date->t_ms()) == *date);
}

void check_symbols(std::string_view text) {
  if (const auto symbol = domain::parse_symbol(text)) {
    const auto again = domain::parse_symbol(symbol->str());
    FUZZ_CHECK(again.ok() && again->str() == symbol->str());
  }
  if (const auto list = domain::parse_symbol_list(text)) {
    const auto again = domain::parse_symbol_list(domain::join_symbols(*list));
    FUZZ_CHECK(again.ok() && domain::join_symbols(*again) == domain::join_symbols(*list));
  }
}

void check_params(std::string_view text) {
  (void)api::parse_bool_param("adjusted", text, true);
  (void)api::parse_enum_param("sort", text, {"asc", "desc"}, "asc");
  if (const auto limit = api::parse_int_param("limit", text, 1, api::k_max_limit); limit && *limit) {
    FUZZ_CHECK(**limit >= 1 && **limit <= api::k_max_limit);
  }
  if (const auto k = api::parse_decimal_param("k", text, 10); k && *k) {
    FUZZ_CHECK(**k > 0 && **k <= 10);
  }
}

void check_printable(std::string_view text) {
  const auto shown = domain::printable(text);
  for (const char c : shown) {
    const auto byte = static_cast<unsigned char>(c);
    FUZZ_CHECK(byte >= 0x20 && byte != 0x7f);
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) {
    return 0;
  }
  const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  switch (data[0] % 5) {
  case 0: check_number(text); break;
  case 1: check_date(text); break;
  case 2: check_symbols(text); break;
  case 3: check_params(text); break;
  default: check_printable(text); break;
  }
  return 0;
}
