#include "core/import/csv_reader.hpp"

#include <doctest/doctest.h>

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
