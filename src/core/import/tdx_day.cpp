// TDX (通达信) `.day` files, as in vipdoc/sh/lday/sh600000.day: fixed 32-byte records whose units
// depend on the symbol's kind (D20, measured in shared/data/real/indices_etfs_turn4/PROVENANCE.md:
// sh000001.day's volume equals Tushare's index_daily vol in lots on every day of 2018).
#include "core/import/vendor_formats.hpp"

#include <bit>
#include <charconv>
#include <cmath>
#include <cstring>
#include <iterator>

namespace ashare::import {
namespace {

constexpr std::size_t k_record_size = 32;

std::uint32_t read_u32(const unsigned char* bytes) {
  return static_cast<std::uint32_t>(bytes[0]) | static_cast<std::uint32_t>(bytes[1]) << 8
         | static_cast<std::uint32_t>(bytes[2]) << 16 | static_cast<std::uint32_t>(bytes[3]) << 24;
}

domain::Decimal whole(std::uint32_t value, int exponent) {
  return domain::Decimal{false, std::to_string(value), value == 0 ? 0 : exponent};
}

// Return the float32 `amount` as a decimal. From 2^24 on, floats are whole numbers: take the exact
// value, losing nothing. Below, take the float's shortest decimal text (12345.67, not the binary
// 12345.669921875): the decimal amount TDX stored, as far as a float can tell.
domain::Decimal float_amount(float amount) {
  char text[64];
  const auto result =
      std::trunc(amount) == amount
          ? std::to_chars(std::begin(text), std::end(text), static_cast<double>(amount),
                          std::chars_format::fixed, 0)
          : std::to_chars(std::begin(text), std::end(text), amount, std::chars_format::fixed);
  return domain::parse_decimal(std::string_view(text, static_cast<std::size_t>(result.ptr - text)))
      .value_or(domain::Decimal{});
}

} // namespace

TdxRecord decode_tdx_record(const unsigned char* bytes) {
  TdxRecord record;
  record.date = read_u32(bytes);
  record.open = read_u32(bytes + 4);
  record.high = read_u32(bytes + 8);
  record.low = read_u32(bytes + 12);
  record.close = read_u32(bytes + 16);
  record.amount = std::bit_cast<float>(read_u32(bytes + 20));
  record.volume = read_u32(bytes + 24);
  return record;
}

TdxDayUnits tdx_day_units(domain::Kind kind) {
  switch (kind) {
  case domain::Kind::stock:
    return {-2, 0};
  case domain::Kind::index:
    return {-2, 2};
  case domain::Kind::fund:
    return {-3, 0};
  }
  return {};
}

std::variant<VendorRow, RowProblem> tdx_vendor_row(const TdxRecord& record,
                                                   const std::string& symbol,
                                                   std::int64_t number,
                                                   TdxDayUnits units) {
  const auto date = domain::Date::from_yyyymmdd(record.date);
  if (!date) {
    return RowProblem{number, "date", std::to_string(record.date) + " is not a date YYYYMMDD"};
  }
  if (!std::isfinite(record.amount)) {
    // A damaged record: a NaN or infinite float is no amount, and must not become 0.
    return RowProblem{number, "amount", "the float32 amount is not a finite number"};
  }
  VendorRow row;
  row.symbol = symbol;
  row.trade_date = *date;
  row.open = whole(record.open, units.price_exponent);
  row.high = whole(record.high, units.price_exponent);
  row.low = whole(record.low, units.price_exponent);
  row.close = whole(record.close, units.price_exponent);
  row.volume = whole(record.volume, 0);
  row.turnover = float_amount(record.amount);
  return row;
}

Result<ParsedFile> parse_tdx_day(std::istream& in, const std::string& symbol, RowSink sink) {
  const std::string bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  if (bytes.empty() || bytes.size() % k_record_size != 0) {
    return file_error(1, "file",
                      "size " + std::to_string(bytes.size())
                          + " bytes is not a positive multiple of 32: not a TDX .day file");
  }
  const auto kind = domain::kind_of_code(symbol);
  if (!kind) {
    return file_error(1, "symbol", kind.error().message);
  }
  const auto units = tdx_day_units(*kind);
  ParsedFile file;
  file.sink = std::move(sink);
  file.has_factor = false;
  file.has_change_pct = false;
  const auto* data = reinterpret_cast<const unsigned char*>(bytes.data());
  const auto latest = domain::today_utc8();
  for (std::size_t i = 0; i * k_record_size < bytes.size(); ++i) {
    const auto number = static_cast<std::int64_t>(i + 1);
    const auto record = decode_tdx_record(data + i * k_record_size);
    auto row = tdx_vendor_row(record, symbol, number, units);
    if (auto* problem = std::get_if<RowProblem>(&row)) {
      file.problems.push_back(std::move(*problem));
      continue;
    }
    auto converted =
      convert_vendor_row(std::get<VendorRow>(row), VendorUnits{units.volume_power, 0}, number, latest);
    if (auto* problem = std::get_if<RowProblem>(&converted)) {
      file.problems.push_back(std::move(*problem));
    } else {
      file.add_row(std::get<ParsedRow>(std::move(converted)));
    }
  }
  return file;
}

} // namespace ashare::import
