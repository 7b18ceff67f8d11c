// Tables for people (issue 12): decimal padding that keeps every digit, the caps that only tables
// apply, compact volumes and turnovers, fitting a width by compacting and then leaving columns
// out, and the title, units and colour rows of a printed table.
#include "cli/output/table.hpp"

#include "core/domain/number.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

using namespace ashare;
using namespace ashare::cli;

namespace {

using Texts = std::vector<std::string>;

// `text` without the zeros (and point) that padding added at its end.
std::string unpadded(std::string text) {
  if (text.find('.') == std::string::npos) {
    return text;
  }
  while (text.back() == '0') {
    text.pop_back();
  }
  if (text.back() == '.') {
    text.pop_back();
  }
  return text;
}

Table sample_table() {
  Table table;
  table.title = "600519.SH  2024-06-18 .. 2024-06-19  raw prices";
  table.columns = {
    {{"DATE"}, {"2024-06-18", "2024-06-19"}},
    {{"CLOSE", Align::right, "CNY"}, {"1650.92", "1650.00"}},
    {{"VOLUME", Align::right, "shares"}, {"2,561,234", "45,367,539"}, {"2.56M", "45.37M"}, 2},
    {{"FACTOR", Align::right}, {"8.305", "8.305"}, {}, 1},
  };
  return table;
}

} // namespace

TEST_CASE("cli::fixed_decimals") {
  SUBCASE("pads each column to its longest decimals, so the points line up") {
    const struct {
      std::vector<double> values;
      Texts expected;
    } cases[] = {
      {{1650, 1650.92}, {"1650.00", "1650.92"}},               // --raw, issue 12
      {{1578.032, 1593.5431}, {"1578.0320", "1593.5431"}},     // adjusted, issue 12
      {{1471.2303, 1449.563, 1420.591}, {"1471.2303", "1449.5630", "1420.5910"}},
      {{12, 7}, {"12", "7"}},                                  // no decimals: no point
      {{-0.06, 0.6964, 0}, {"-0.0600", "0.6964", "0.0000"}},
      {{-0.0}, {"0"}},
      {{1e-7, 1}, {"0.0000001", "1.0000000"}},                 // never exponent notation (D12)
      {{}, {}},
    };
    for (const auto& c : cases) {
      CAPTURE(c.values.size());
      CHECK(fixed_decimals(c.values) == c.expected);
    }
  }
  SUBCASE("without a cap no digit is ever dropped") {
    std::mt19937_64 random(12);
    std::uniform_int_distribution<std::int64_t> whole(1, 99'999'999);
    std::uniform_int_distribution<int> scale(0, 4);
    std::vector<double> values;
    for (int i = 0; i < 2000; ++i) {
      values.push_back(static_cast<double>(whole(random)) / std::pow(10, scale(random)));
    }
    values.push_back(0.1 + 0.2); // 0.30000000000000004: 17 decimals, kept
    const auto texts = fixed_decimals(values);
    REQUIRE(texts.size() == values.size());
    for (std::size_t i = 0; i < values.size(); ++i) {
      CAPTURE(texts[i]);
      CHECK(texts[i].size() - texts[i].find('.') == texts[0].size() - texts[0].find('.'));
      CHECK(unpadded(texts[i]) == domain::format_number(values[i]));
    }
    CHECK(texts.back() == "0.30000000000000004");
  }
  SUBCASE("a cap rounds what is longer and pads what is shorter") {
    const std::vector<double> change{-0.8682394857284, 0.5, 12};
    CHECK(fixed_decimals(change, 4) == Texts{"-0.8682", "0.5000", "12.0000"});
    CHECK(fixed_decimals(std::vector<double>{1.5, 2.25}, 4) == Texts{"1.50", "2.25"});
    CHECK(fixed_decimals(std::vector<double>{0.123456789012, 8.305}, 6)
          == Texts{"0.123457", "8.305000"});
    CHECK(fixed_decimals(std::vector<double>{-0.00001, 0.00004}, 4) == Texts{"0.0000", "0.0000"});
    CHECK(fixed_decimals(std::vector<double>{2.71828}, 0) == Texts{"3"});
  }
  SUBCASE("what is not a number prints as a dash and sets no width") {
    const std::vector<double> values{std::numeric_limits<double>::quiet_NaN(), 1.25,
                                     std::numeric_limits<double>::infinity()};
    CHECK(fixed_decimals(values) == Texts{"-", "1.25", "-"});
  }
}

TEST_CASE("cli::compact_numbers") {
  const struct {
    std::vector<double> values;
    Texts expected;
  } cases[] = {
    {{2561234, 45367539}, {"2.56M", "45.37M"}},               // one unit per column
    {{4.21e9, 9.5e8, 9177637170}, {"4.21B", "0.95B", "9.18B"}},
    {{1234, 999}, {"1.23K", "1.00K"}},
    {{999'999'999}, {"1000.00M"}},
    {{950, 12}, {"950", "12"}},                               // below 1000: as is
    {{950.5, 12}, {"950.5", "12.0"}},
    {{0}, {"0"}},
    {{}, {}},
  };
  for (const auto& c : cases) {
    CAPTURE(c.expected);
    CHECK(compact_numbers(c.values) == c.expected);
  }
}

TEST_CASE("cli::with_thousands") {
  const struct {
    const char* in;
    const char* out;
  } cases[] = {
    {"1234567", "1,234,567"}, {"1234567.5", "1,234,567.5"}, {"-1234", "-1,234"},
    {"999", "999"},           {"1000", "1,000"},             {"0.12345", "0.12345"},
    {"", ""},
  };
  for (const auto& c : cases) {
    CHECK(with_thousands(c.in) == c.out);
  }
}

TEST_CASE("cli::fit_table") {
  // DATE 10, CLOSE 7, VOLUME 10 (compact 6), FACTOR 6, two spaces apart.
  REQUIRE(table_width(sample_table()) == 10 + 7 + 10 + 6 + 3 * 2);
  SUBCASE("no width, or wide enough: nothing changes") {
    for (const std::optional<std::size_t> width : {std::optional<std::size_t>(), {39}, {200}}) {
      auto table = sample_table();
      CHECK(fit_table(table, width).empty());
      CHECK(table.columns.size() == 4);
      CHECK(table.columns[2].cells == Texts{"2,561,234", "45,367,539"});
    }
  }
  SUBCASE("too wide: compact cells first") {
    auto table = sample_table();
    CHECK(fit_table(table, 38).empty());
    CHECK(table.columns[2].cells == Texts{"2.56M", "45.37M"});
    CHECK(table_width(table) == 35);
  }
  SUBCASE("still too wide: columns by rank, rank 1 first") {
    auto table = sample_table();
    CHECK(fit_table(table, 34) == Texts{"FACTOR"});
    CHECK(table_width(table) == 27);
    table = sample_table();
    CHECK(fit_table(table, 26) == Texts{"FACTOR", "VOLUME"});
    CHECK(table.columns.size() == 2);
  }
  SUBCASE("rank 0 is never left out") {
    auto table = sample_table();
    CHECK(fit_table(table, 5) == Texts{"FACTOR", "VOLUME"});
    CHECK(table.columns[0].heading.header == "DATE");
    CHECK(table.columns[1].heading.header == "CLOSE");
  }
}

TEST_CASE("cli::print_table") {
  SUBCASE("title, headers, units, rows: right-aligned columns end together") {
    std::ostringstream out;
    print_table(out, sample_table());
    CHECK(out.str()
          == "600519.SH  2024-06-18 .. 2024-06-19  raw prices\n"
             "DATE          CLOSE      VOLUME  FACTOR\n"
             "                CNY      shares\n"
             "2024-06-18  1650.92   2,561,234   8.305\n"
             "2024-06-19  1650.00  45,367,539   8.305\n");
  }
  SUBCASE("no units row without units, no title line without a title; rows coloured") {
    auto table = sample_table();
    table.title.clear();
    table.columns[1].heading.unit.clear();
    table.columns[2].heading.unit.clear();
    table.row_colors = {"31", ""};
    std::ostringstream out;
    print_table(out, table);
    CHECK(out.str()
          == "DATE          CLOSE      VOLUME  FACTOR\n"
             "\x1b[31m2024-06-18  1650.92   2,561,234   8.305\x1b[0m\n"
             "2024-06-19  1650.00  45,367,539   8.305\n");
  }
  SUBCASE("row-wise: as before, without a title") {
    std::ostringstream out;
    print_table(out, {{"SYMBOL"}, {"BARS", Align::right}}, {{"600519.SH", "1,212"}, {"1.SH", "5"}});
    CHECK(out.str()
          == "SYMBOL      BARS\n"
             "600519.SH  1,212\n"
             "1.SH           5\n");
  }
}
