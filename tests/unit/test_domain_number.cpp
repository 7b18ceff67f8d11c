#include "core/domain/number.hpp"
#include "core/domain/decimal_digits.hpp"

#include <doctest/doctest.h>

#include <array>
#include <bit>
#include <charconv>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

using namespace ashare;
using domain::Decimal;

TEST_CASE("domain::parse_decimal") {
  SUBCASE("reads sign, digits and exponent exactly") {
    const struct {
      const char* text;
      bool negative;
      const char* digits;
      int exponent;
    } table[] = {
        {"39354.45", false, "3935445", -2},
        {"8398945.449", false, "8398945449", -3},
        {"-1.5", true, "15", -1},
        {"+7", false, "7", 0},
        {"1e3", false, "1", 3},
        {"2.5E-3", false, "25", -4},
        {".5", false, "5", -1},
        {"100", false, "1", 2}, // trailing zeros fold into the exponent
        {"007.50", false, "75", -1},
        {"0", false, "0", 0},
        {"0.000", false, "0", 0},
    };
    for (const auto& row : table) {
      CAPTURE(std::string_view(row.text));
      const auto decimal = domain::parse_decimal(row.text);
      REQUIRE(decimal.has_value());
      CHECK(decimal->negative == row.negative);
      CHECK(decimal->digits == row.digits);
      CHECK(decimal->exponent == row.exponent);
    }
  }

  SUBCASE("rejects everything else") {
    const char* rejected[] = {"",   " 1", "1 ", "nan", "inf",   "-inf", "1,5", "0x10",  "1e",
                              "e3", ".",  "-",  "+",   "1.2.3", "--1",  "1e+", "1_000", "١"};
    for (const char* text : rejected) {
      CAPTURE(std::string_view(text));
      CHECK_FALSE(domain::parse_decimal(text).has_value());
    }
  }
}

TEST_CASE("D12: vendor units convert exactly in decimal") {
  const auto shares = [](const char* text, int power) {
    const auto decimal = domain::parse_decimal(text);
    REQUIRE(decimal.has_value());
    return domain::to_int64(domain::scale_decimal(*decimal, power));
  };
  SUBCASE("the examples of D12") {
    CHECK(shares("39354.45", 2) == 3935445);       // Tushare vol, lots x 100
    CHECK(shares("8398945.449", 3) == 8398945449); // Tushare amount, thousand CNY x 1000
  }
  SUBCASE("a double would get these wrong; the decimal does not") {
    // 1.1 * 100 is 110.00000000000001 in double arithmetic.
    CHECK(1.1 * 100 != 110.0);
    CHECK(shares("1.1", 2) == 110);
    CHECK(shares("1530231.87", 2) == 153023187);
  }
  SUBCASE("fractional shares, overflow and zero") {
    CHECK_FALSE(shares("39354.455", 2).has_value()); // 3935445.5 shares
    CHECK_FALSE(shares("0.001", 2).has_value());
    CHECK(shares("0", 5) == 0);
    CHECK(shares("0.00", 2) == 0);
    CHECK(shares("-12.5", 1) == -125);
    CHECK(shares("9223372036854775807", 0) == std::numeric_limits<std::int64_t>::max());
    CHECK_FALSE(shares("9223372036854775808", 0).has_value());
    CHECK_FALSE(shares("1", 19).has_value());
    CHECK(shares("1", 18) == 1'000'000'000'000'000'000);
  }
  SUBCASE("to_double is correctly rounded") {
    const auto value = [](const char* text) {
      return domain::to_double(*domain::parse_decimal(text));
    };
    CHECK(value("1525.4") == 1525.4);
    CHECK(value("0.1") == 0.1);
    CHECK(value("-1.5") == -1.5);
    CHECK(value("8398945.449") == 8398945.449);
    CHECK(domain::to_double(domain::scale_decimal(*domain::parse_decimal("8398945.449"), 3))
          == 8398945449.0);
    CHECK(std::isinf(value("1e400")));
    CHECK(value("1e-400") == 0.0);
  }
  SUBCASE("is_zero") {
    CHECK(domain::is_zero(*domain::parse_decimal("0.000")));
    CHECK(domain::is_zero(*domain::parse_decimal("-0")));
    CHECK_FALSE(domain::is_zero(*domain::parse_decimal("0.001")));
  }
}

TEST_CASE("D12: domain::append_number writes fixed notation, shortest round-trip digits") {
  const struct {
    double value;
    const char* text;
  } table[] = {
      {1e-7, "0.0000001"},
      {1e21, "1000000000000000000000"},
      {1525.4, "1525.4"},
      {3.0, "3"},
      {-0.0, "0"},
      {0.0, "0"},
      {-2.5, "-2.5"},
      {0.1, "0.1"},
      {0.1 + 0.2, "0.30000000000000004"},
      {1713.8986, "1713.8986"},
      {1704124800000.0, "1704124800000"},
      {123456789.125, "123456789.125"},
      {-0.0001, "-0.0001"},
  };
  for (const auto& row : table) {
    CAPTURE(std::string_view(row.text));
    CHECK(domain::format_number(row.value) == row.text);
  }

  SUBCASE("appends to what is there") {
    std::string out = "x=";
    domain::append_number(out, 2.25);
    CHECK(out == "x=2.25");
  }

  SUBCASE("never exponent notation, and the text reads back as the same double") {
    for (double value : {5e-324, 1e-300, 2.2250738585072014e-308, 1.7976931348623157e308, 1e100,
                         123e-20, 6.02214076e23}) {
      const std::string text = domain::format_number(value);
      CAPTURE(std::string_view(text));
      CHECK(text.find_first_of("eE") == std::string::npos);
      double back = 0;
      const auto result = std::from_chars(text.data(), text.data() + text.size(), back);
      CHECK(result.ec == std::errc{});
      CHECK(back == value);
    }
  }
}

// Return what append_number wrote before its fast path for whole 1/10000s: std::to_chars in fixed
// notation, shortest round-trip digits.
std::string to_chars_fixed(double value) {
  if (value == 0) {
    return "0";
  }
  char buffer[400];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::fixed);
  return std::string(buffer, result.ptr);
}

TEST_CASE("D12: domain::append_number writes whole 1/10000s as to_chars does (issue 11, P5)") {
  SUBCASE("edges of the fast path") {
    for (double value : {0.0001, -0.0001, 0.001, 0.01, 0.1, 0.9999, 1.0, 10.0, 1650.0, 1650.92,
                         1713.8986, 99999999999.9999, -99999999999.9999, 100000000000.0,
                         99999999999.99995, 999999999999.9999, 0.00005, 0.00015, 123456.7,
                         1e11, 1e14, 9e14, 5e-5, 2.5e-5, 12345678901.2345, -1.0500,
                         static_cast<double>(INT64_C(999999999999999)) / 10000,
                         static_cast<double>(INT64_C(1000000000000000)) / 10000}) {
      CAPTURE(value);
      CHECK(domain::format_number(value) == to_chars_fixed(value));
    }
  }
  SUBCASE("random whole 1/10000s of every magnitude, and their neighbouring doubles") {
    std::mt19937_64 random(20261124);
    for (int i = 0; i < 200'000; ++i) {
      const int digits = 1 + static_cast<int>(random() % 16);
      std::int64_t whole = static_cast<std::int64_t>(random() % 10'000'000'000'000'000ULL);
      for (int d = digits; d < 16; ++d) {
        whole /= 10;
      }
      if (random() % 2 != 0) {
        whole = -whole;
      }
      const double value = static_cast<double>(whole) / 10000;
      for (double near : {value, std::nextafter(value, 1e300), std::nextafter(value, -1e300),
                          value * 1.0000000001, value / 3}) {
        CAPTURE(near);
        REQUIRE(domain::format_number(near) == to_chars_fixed(near));
      }
    }
  }
  SUBCASE("random doubles") {
    std::mt19937_64 random(7);
    for (int i = 0; i < 100'000; ++i) {
      const double value = std::bit_cast<double>(random());
      if (std::isfinite(value) && std::fabs(value) < 1e30) {
        CAPTURE(value);
        REQUIRE(domain::format_number(value) == to_chars_fixed(value));
      }
    }
  }
}

TEST_CASE("D12: domain::write_ten_thousandths writes what to_chars writes of the double (issue "
          "11, P5)") {
  const auto from_whole = [](std::int64_t whole) {
    char text[domain::k_max_number_chars];
    return std::string(text, domain::write_ten_thousandths(text, whole));
  };
  // std::to_chars itself, not write_number, whose fast path shares the digit writer.
  const auto from_double = [](std::int64_t whole) {
    return to_chars_fixed(static_cast<double>(whole) / 10000);
  };
  SUBCASE("edges") {
    for (const std::int64_t whole :
         {INT64_C(0), INT64_C(1), INT64_C(-1), INT64_C(10), INT64_C(100), INT64_C(1000),
          INT64_C(9999), INT64_C(10000), INT64_C(10001), INT64_C(16509200), INT64_C(-10500),
          INT64_C(999999999999999), INT64_C(-999999999999999), INT64_C(1000000000000000),
          INT64_C(-1000000000000000), INT64_C(9007199254740993), INT64_C(123456789012345678),
          std::numeric_limits<std::int64_t>::max(),
          std::numeric_limits<std::int64_t>::min() + 1}) {
      CAPTURE(whole);
      CHECK(from_whole(whole) == from_double(whole));
    }
    CHECK(from_whole(16509200) == "1650.92");
    CHECK(from_whole(-10500) == "-1.05");
    CHECK(from_whole(0) == "0");
  }
  SUBCASE("every fraction and every whole part below 10000 (the texts copied from tables)") {
    for (std::int64_t fraction = 0; fraction < 10000; ++fraction) {
      for (const std::int64_t part : {0, 7, 42, 999, 9999, 10000, 123456}) {
        for (const std::int64_t sign : {1, -1}) {
          const std::int64_t whole = sign * (part * 10000 + fraction);
          CAPTURE(whole);
          REQUIRE(from_whole(whole) == from_double(whole));
        }
      }
    }
    for (std::int64_t part = 0; part < 10000; ++part) {
      for (const std::int64_t fraction : {0, 1, 10, 5000, 9999}) {
        const std::int64_t whole = part * 10000 + fraction;
        CAPTURE(whole);
        REQUIRE(from_whole(whole) == from_double(whole));
      }
    }
  }
  SUBCASE("random whole numbers of every magnitude") {
    std::mt19937_64 random(20261124);
    for (int i = 0; i < 200'000; ++i) {
      auto whole = static_cast<std::int64_t>(random() >> (random() % 64));
      if (random() % 2 != 0) {
        whole = -whole;
      }
      CAPTURE(whole);
      REQUIRE(from_whole(whole) == from_double(whole));
    }
  }
}

TEST_CASE("domain::append_integer") {
  std::string out;
  domain::append_integer(out, 0);
  out += ',';
  domain::append_integer(out, 3935445);
  out += ',';
  domain::append_integer(out, std::numeric_limits<std::int64_t>::min());
  CHECK(out == "0,3935445,-9223372036854775808");
}

TEST_CASE("issue 11: domain::write_integer writes what std::to_string writes") {
  // Every digit count, both signs and the extremes, as the bars' volume is written (P5).
  std::vector<std::int64_t> values{0, std::numeric_limits<std::int64_t>::min(),
                                   std::numeric_limits<std::int64_t>::max()};
  for (std::int64_t power = 1; power <= std::numeric_limits<std::int64_t>::max() / 10; power *= 10) {
    for (const std::int64_t value : {power - 1, power, power + 1, 10 * power - 1}) {
      values.push_back(value);
      values.push_back(-value);
    }
  }
  // Groups of four digits that are zeros, or lead with zeros, below 10^12 (written in groups).
  for (const std::int64_t value : {INT64_C(10'000'001), INT64_C(20'000'005), INT64_C(100'000'001),
                                   INT64_C(100'010'000), INT64_C(123'400'005'678),
                                   INT64_C(999'900'000'009), INT64_C(1'000'000'000'001)}) {
    values.push_back(value);
    values.push_back(-value);
  }
  std::mt19937_64 random(11);
  for (int i = 0; i < 10000; ++i) {
    values.push_back(static_cast<std::int64_t>(random() >> (random() % 64)));
  }
  for (const auto value : values) {
    CAPTURE(value);
    std::array<char, 20> text{};
    char* end = domain::write_integer(text.data(), value);
    CHECK(std::string(text.data(), end) == std::to_string(value));
  }
  for (std::uint64_t value : {std::uint64_t{0}, std::uint64_t{9}, std::uint64_t{10},
                              std::numeric_limits<std::uint64_t>::max()}) {
    std::array<char, 20> text{};
    char* end = domain::write_unsigned(text.data(), value);
    CHECK(std::string(text.data(), end) == std::to_string(value));
  }
}

TEST_CASE("issue 11: parse_double and parse_plain_integer answer as parse_decimal does") {
  // The fast paths must agree with the exact route for every text, plain or not.
  std::vector<std::string> texts{
    "0",      "-0",     "-0.0",  "0.000",  "1",    "-1",    "12.5",  "+12.5", ".5",   "5.",
    "-.5",    "1e3",    "1E-3",  "1e",     "",     "-",     ".",     "1.2.3", "1,5",  "nan",
    "inf",    " 1",     "1 ",    "0x10",   "1e400", "-1e400", "1e-400",
    "0.1",    "0.2",    "0.30000000000000004", "9007199254740993", "123456789012345678",
    "1234567890123456789", "-999999999999999999", "00012.3400", "1525.40",
    "99999999999999999999999999999999999999.9", // 40 characters: the fast path's longest
    "999999999999999999999999999999999999999.99", // 42: the exact route
    "2.2250738585072011e-308", "1.7976931348623157e308",
  };
  std::mt19937_64 random(11);
  for (int i = 0; i < 20'000; ++i) {
    // Random plain decimals of up to 25 digits, with and without a sign and a fraction.
    std::string text = random() % 3 == 0 ? "-" : "";
    const int whole = 1 + static_cast<int>(random() % 12);
    for (int d = 0; d < whole; ++d) {
      text.push_back(static_cast<char>('0' + random() % 10));
    }
    if (random() % 2) {
      text.push_back('.');
      const int fraction = 1 + static_cast<int>(random() % 13);
      for (int d = 0; d < fraction; ++d) {
        text.push_back(static_cast<char>('0' + random() % 10));
      }
    }
    texts.push_back(text);
  }
  for (const auto& text : texts) {
    CAPTURE(text);
    const auto decimal = domain::parse_decimal(text);
    const auto fast = domain::parse_double(text);
    REQUIRE(fast.has_value() == decimal.has_value());
    if (decimal) {
      const double exact = domain::to_double(*decimal);
      CHECK(std::bit_cast<std::uint64_t>(*fast) == std::bit_cast<std::uint64_t>(exact));
    }
    if (const auto integer = domain::parse_plain_integer(text)) {
      REQUIRE(decimal);
      CHECK(domain::to_int64(*decimal) == integer);
    }
  }
  CHECK(domain::parse_plain_integer("123456789012345678") == 123456789012345678);
  CHECK(domain::parse_plain_integer("-42") == -42);
  CHECK_FALSE(domain::parse_plain_integer("1234567890123456789")); // 19 digits: the exact route
  CHECK_FALSE(domain::parse_plain_integer("+42"));
  CHECK_FALSE(domain::parse_plain_integer("4.0"));
  CHECK_FALSE(domain::parse_plain_integer("-"));
}

TEST_CASE("issue 11: to_double's fast path rounds as from_chars does") {
  // Up to 15 digits and |exponent| <= 22 take one multiplication or division; the rest, and this
  // reference, read "digits e exponent" with from_chars.
  std::mt19937_64 random(3);
  for (int i = 0; i < 100'000; ++i) {
    Decimal value;
    value.negative = random() % 2 == 0;
    value.digits = std::to_string(1 + random() % 9);
    const int more = static_cast<int>(random() % 18);
    for (int d = 0; d < more; ++d) {
      value.digits.push_back(static_cast<char>('0' + random() % 10));
    }
    value.exponent = static_cast<int>(random() % 61) - 30;
    const std::string text =
      (value.negative ? "-" : "") + value.digits + "e" + std::to_string(value.exponent);
    double expected = 0;
    std::from_chars(text.data(), text.data() + text.size(), expected);
    CAPTURE(text);
    CHECK(std::bit_cast<std::uint64_t>(domain::to_double(value))
          == std::bit_cast<std::uint64_t>(expected));
  }
}

TEST_CASE("issue 13: to_double overflows by magnitude, not by the exponent's sign (D16)") {
  // 400 digits with exponent 0 are 10^399: inf, never 0 (the import read such a turnover as 0).
  const auto big = *domain::parse_decimal(std::string(400, '1'));
  CHECK(domain::to_double(big) == HUGE_VAL);
  const auto big_negative = *domain::parse_decimal("-" + std::string(400, '9') + "e-50");
  CHECK(domain::to_double(big_negative) == -HUGE_VAL);
  // 400 digits after the point and an exponent that leaves them at 10^-20 are an ordinary value.
  const auto small = *domain::parse_decimal("0." + std::string(380, '0') + "1e360");
  CHECK(domain::to_double(small) == 1e-21);
  const auto underflow = *domain::parse_decimal("1" + std::string(30, '0') + "e-400");
  CHECK(domain::to_double(underflow) == 0.0);
  CHECK(std::signbit(domain::to_double(*domain::parse_decimal("-1e-400"))));
}

TEST_CASE("issue 13: write_number refuses a number that is not finite (D12 has no text for it)") {
  char buffer[domain::k_max_number_chars];
  for (const double value : {std::numeric_limits<double>::infinity(),
                             -std::numeric_limits<double>::infinity(),
                             std::numeric_limits<double>::quiet_NaN()}) {
    CAPTURE(value);
    CHECK_THROWS_AS(domain::write_number(buffer, value), domain::NonFiniteNumber);
    CHECK_THROWS_AS(domain::format_number(value), domain::NonFiniteNumber);
  }
  CHECK(domain::format_number(std::numeric_limits<double>::max()).size() == 309);
}
