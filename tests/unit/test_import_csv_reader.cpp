#include "core/import/csv_reader.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <sstream>
#include <string>
#include <vector>

using namespace ashare;
using Fields = std::vector<std::string>;

namespace {

struct ReadResult {
  std::vector<import::CsvRecord> records;
  bool unterminated = false;
};

ReadResult read_all(const std::string& text) {
  std::istringstream in(text);
  import::CsvReader reader(in);
  ReadResult result;
  import::CsvRecord record;
  while (reader.next(record)) {
    result.records.push_back(record);
  }
  result.unterminated = reader.unterminated_quote();
  return result;
}

} // namespace

TEST_CASE("import::CsvReader") {
  SUBCASE("records, fields and 1-based lines") {
    const auto result = read_all("a,b,c\n1,2,3\n");
    REQUIRE(result.records.size() == 2);
    CHECK(result.records[0].line == 1);
    CHECK(result.records[0].fields == Fields{"a", "b", "c"});
    CHECK(result.records[1].line == 2);
    CHECK(result.records[1].fields == Fields{"1", "2", "3"});
    CHECK_FALSE(result.unterminated);
  }

  SUBCASE("no newline at the end") {
    const auto result = read_all("a,b\n1,2");
    REQUIRE(result.records.size() == 2);
    CHECK(result.records[1].fields == Fields{"1", "2"});
  }

  SUBCASE("empty fields are kept") {
    const auto result = read_all("a,,\n,x,\n");
    REQUIRE(result.records.size() == 2);
    CHECK(result.records[0].fields == Fields{"a", "", ""});
    CHECK(result.records[1].fields == Fields{"", "x", ""});
  }

  SUBCASE("quoted fields hold commas, newlines and \"\" escapes") {
    const auto result = read_all("\"a,b\",c\n\"he said \"\"hi\"\"\",\"\"\n");
    REQUIRE(result.records.size() == 2);
    CHECK(result.records[0].fields == Fields{"a,b", "c"});
    CHECK(result.records[1].fields == Fields{"he said \"hi\"", ""});
  }

  SUBCASE("CRLF line ends") {
    const auto result = read_all("a,b\r\n1,2\r\n\"x\r\ny\",3\r\n");
    REQUIRE(result.records.size() == 3);
    CHECK(result.records[0].fields == Fields{"a", "b"});
    CHECK(result.records[1].fields == Fields{"1", "2"});
    CHECK(result.records[1].line == 2);
    CHECK(result.records[2].fields == Fields{"x\r\ny", "3"}); // inside quotes, kept as written
    CHECK(result.records[2].line == 3);
  }

  SUBCASE("a UTF-8 byte order mark is skipped") {
    const auto result = read_all("\xEF\xBB\xBFsymbol,trade_date\n600519.SH,2024-01-02\n");
    REQUIRE(result.records.size() == 2);
    CHECK(result.records[0].fields == Fields{"symbol", "trade_date"});
    CHECK(result.records[0].line == 1);
  }

  SUBCASE("a lone 0xEF that is not a BOM is data") {
    const auto result = read_all("\xEFx,y\n");
    REQUIRE(result.records.size() == 1);
    CHECK(result.records[0].fields == Fields{"\xEFx", "y"});
  }

  SUBCASE("blank lines are skipped but counted") {
    const auto result = read_all("\na\n\n\r\nb\n\n");
    REQUIRE(result.records.size() == 2);
    CHECK(result.records[0].fields == Fields{"a"});
    CHECK(result.records[0].line == 2);
    CHECK(result.records[1].fields == Fields{"b"});
    CHECK(result.records[1].line == 5);
  }

  SUBCASE("a record starts on its first line; later lines count the quoted newlines") {
    const auto result = read_all("h1,h2\n\"multi\nline\nfield\",1\nnext,2\n");
    REQUIRE(result.records.size() == 3);
    CHECK(result.records[1].line == 2);
    CHECK(result.records[1].fields == Fields{"multi\nline\nfield", "1"});
    CHECK(result.records[2].line == 5);
    CHECK(result.records[2].fields == Fields{"next", "2"});
  }

  SUBCASE("an unterminated quote ends at the end of input and is reported") {
    const auto result = read_all("a,b\n1,\"open\n2,3\n");
    REQUIRE(result.records.size() == 2);
    CHECK(result.records[1].line == 2);
    CHECK(result.records[1].fields == Fields{"1", "open\n2,3\n"});
    CHECK(result.unterminated);
  }

  SUBCASE("empty input has no records") {
    CHECK(read_all("").records.empty());
    CHECK(read_all("\n\n").records.empty());
  }
}

TEST_CASE("issue 11: CsvReader reads fields that cross its 64 KiB blocks") {
  // 3 MB of records with fields of every length, some quoted (with "" and a newline inside),
  // some with a quote inside an unquoted field, CRLF and LF ends: every record and line number
  // as written, whichever block boundary it straddles.
  std::mt19937 random(17);
  std::vector<Fields> expected;
  std::string text;
  std::int64_t line = 1;
  std::vector<std::int64_t> lines;
  while (text.size() < 3'000'000) {
    Fields fields;
    std::string record;
    const int count = 1 + static_cast<int>(random() % 12);
    std::int64_t newlines = 0;
    for (int f = 0; f < count; ++f) {
      std::string field(random() % 40, 'x');
      for (auto& c : field) {
        c = static_cast<char>('a' + random() % 26);
      }
      std::string written = field;
      if (random() % 7 == 0) {
        field += "\"q\"\n";
        written = "\"" + field.substr(0, field.size() - 4) + "\"\"q\"\"\n\"";
        ++newlines;
      } else if (random() % 11 == 0 && !field.empty()) {
        field += "\"";
        written = field; // a quote inside an unquoted field is a character
      }
      record += (f ? "," : "") + written;
      fields.push_back(field);
    }
    if (fields.size() == 1 && fields[0].empty()) {
      continue; // a blank line is no record
    }
    text += record + (random() % 3 == 0 ? "\r\n" : "\n");
    expected.push_back(fields);
    lines.push_back(line);
    line += 1 + newlines;
  }
  const auto result = read_all(text);
  REQUIRE(result.records.size() == expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    CAPTURE(i);
    REQUIRE(result.records[i].fields == expected[i]);
    REQUIRE(result.records[i].line == lines[i]);
  }
  CHECK_FALSE(result.unterminated);
}

namespace {

// An endless stream of one byte: a file with one line that never ends, of which it counts what
// was read (a streambuf that hands out 4 KiB at a time).
class EndlessLine : public std::streambuf {
public:
  explicit EndlessLine(char byte) : m_block(4096, byte) {}
  std::int64_t bytes_read = 0;

protected:
  int_type underflow() override {
    setg(m_block.data(), m_block.data(), m_block.data() + m_block.size());
    bytes_read += static_cast<std::int64_t>(m_block.size());
    return traits_type::to_int_type(m_block[0]);
  }

private:
  std::string m_block;
};

// Read every record of `text`; return the records read and the too-long line (0: none).
std::pair<std::size_t, std::int64_t> count_records(const std::string& text) {
  std::istringstream in(text);
  import::CsvReader reader(in);
  import::CsvRecord record;
  std::size_t records = 0;
  while (reader.next(record)) {
    ++records;
  }
  return {records, reader.too_long_line()};
}

} // namespace

TEST_CASE("D16: a line longer than 64 KiB ends the input at that line, each edge") {
  constexpr auto k_max = static_cast<std::size_t>(import::k_max_line_bytes);
  const std::string header = "a,b\n";
  // Placed so that the long line crosses a 64 KiB block boundary, and so that it does not.
  for (const std::size_t prefix : {std::size_t{0}, std::size_t{1000}, std::size_t{60000}}) {
    CAPTURE(prefix);
    const std::string lead = header + std::string(prefix, 'x') + ",y\n";
    CHECK(count_records(lead + std::string(k_max - 2, 'z') + ",1\nq,r\n")
          == std::pair<std::size_t, std::int64_t>{4, 0});
    CHECK(count_records(lead + std::string(k_max - 2, 'z') + ",1\r\nq,r\r\n")
          == std::pair<std::size_t, std::int64_t>{4, 0});
    CHECK(count_records(lead + std::string(k_max - 2, 'z') + ",1") // the last line, no line end
          == std::pair<std::size_t, std::int64_t>{3, 0});
    CHECK(count_records(lead + std::string(k_max - 1, 'z') + ",1\nq,r\n")
          == std::pair<std::size_t, std::int64_t>{2, 3});
    CHECK(count_records(lead + std::string(k_max - 1, 'z') + ",1")
          == std::pair<std::size_t, std::int64_t>{2, 3});
    // Many short fields, and a quoted field with line ends in it: physical lines count.
    std::string commas(k_max + 1, ',');
    CHECK(count_records(lead + commas + "\n") == std::pair<std::size_t, std::int64_t>{2, 3});
    CHECK(count_records(lead + "\"" + std::string(k_max, 'q') + "\nmore\"\n")
          == std::pair<std::size_t, std::int64_t>{2, 3});
    CHECK(count_records(lead + "\"" + std::string(k_max - 1, 'q') + "\nmore\"\n")
          == std::pair<std::size_t, std::int64_t>{3, 0});
  }
}

TEST_CASE("D16: a line that never ends is refused after reading about 64 KiB of it") {
  for (const char byte : {'7', ',', '"'}) {
    CAPTURE(byte);
    EndlessLine source(byte);
    std::istream in(&source);
    import::CsvReader reader(in);
    import::CsvRecord record;
    CHECK_FALSE(reader.next(record));
    CHECK(reader.too_long_line() == 1);
    CHECK_FALSE(reader.unterminated_quote());
    CHECK(source.bytes_read <= 3 * import::k_max_line_bytes);
  }
}
