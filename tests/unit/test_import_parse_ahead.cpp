#include "core/import/parse_ahead.hpp"

#include <doctest/doctest.h>

#include <atomic>
#include <stdexcept>
#include <thread>

using namespace ashare;

namespace {

// A parse that sinks `rows` rows numbered from 1 (the rows of a file without factors), counting
// them in `produced`, then fails with `error` when given.
import::SinkingParse counting_parse(std::int64_t rows,
                                    std::atomic<std::int64_t>& produced,
                                    std::optional<std::string> error = std::nullopt) {
  return [rows, &produced, error](import::RowSink sink) -> Result<import::ParsedFile> {
    import::ParsedFile file;
    file.has_factor = false;
    file.sink = std::move(sink);
    for (std::int64_t line = 1; line <= rows; ++line) {
      import::ParsedRow row;
      row.line = line;
      row.symbol = "600519.SH";
      ++produced;
      file.add_row(std::move(row));
    }
    if (error) {
      return make_error(ErrorCode::invalid_input, *error);
    }
    file.problems.push_back({rows + 1, "close", "bad"});
    return file;
  };
}

} // namespace

TEST_CASE("import::parse_ahead hands every row over in order, with the parser's flags") {
  for (const std::int64_t rows : {0, 1, 1023, 1024, 1025, 10'000}) {
    CAPTURE(rows);
    std::atomic<std::int64_t> produced = 0;
    std::int64_t expected_line = 1;
    int batches_read = 0;
    const auto main_thread = std::this_thread::get_id();
    auto parsed = import::parse_ahead(
      counting_parse(rows, produced),
      [&](import::ParsedRow&& row, const import::ParsedFile& file) {
        REQUIRE(std::this_thread::get_id() == main_thread); // the store's thread
        REQUIRE(row.line == expected_line);
        REQUIRE_FALSE(file.has_factor);
        ++expected_line;
      },
      [&] {
        CHECK(std::this_thread::get_id() != main_thread);
        ++batches_read;
      });
    REQUIRE(parsed);
    CHECK(expected_line == rows + 1);
    CHECK(batches_read == (rows + 1023) / 1024);
    REQUIRE(parsed->problems.size() == 1); // the parse's own result comes back
    CHECK(parsed->problems.front().line == rows + 1);
    CHECK(parsed->rows.empty());
  }
}

TEST_CASE("import::parse_ahead returns the parse's error") {
  std::atomic<std::int64_t> produced = 0;
  std::int64_t consumed = 0;
  auto parsed = import::parse_ahead(counting_parse(5000, produced, "7: close: bad"),
                                    [&](import::ParsedRow&&, const import::ParsedFile&) { ++consumed; });
  REQUIRE_FALSE(parsed);
  CHECK(parsed.error().message == "7: close: bad");
  // The whole batches before the error were handed over; the last, partial one is not (the
  // import is refused whole).
  CHECK(consumed == 4 * 1024);
}

TEST_CASE("import::parse_ahead stops the parse when the consumer throws, within a few batches") {
  std::atomic<std::int64_t> produced = 0;
  std::int64_t consumed = 0;
  CHECK_THROWS_WITH_AS(import::parse_ahead(counting_parse(10'000'000, produced),
                                           [&](import::ParsedRow&&, const import::ParsedFile&) {
                                             if (++consumed == 3000) {
                                               throw std::runtime_error("disk full");
                                             }
                                           }),
                       "disk full", std::runtime_error);
  CHECK(consumed == 3000);
  // The queue holds a few batches: the parser ran at most that far ahead, so memory stays
  // bounded whatever the file's size (P3's cap), and it stopped instead of reading on.
  CHECK(produced.load() < 3000 + 8 * 1024);
}

TEST_CASE("import::parse_ahead rethrows what the parse throws") {
  std::int64_t consumed = 0;
  CHECK_THROWS_WITH_AS(import::parse_ahead(
                         [](import::RowSink sink) -> Result<import::ParsedFile> {
                           import::ParsedFile file;
                           file.sink = std::move(sink);
                           for (int line = 1; line <= 2048; ++line) {
                             import::ParsedRow row;
                             row.line = line;
                             file.add_row(std::move(row));
                           }
                           throw std::length_error("line too long");
                         },
                         [&](import::ParsedRow&&, const import::ParsedFile&) { ++consumed; }),
                       "line too long", std::length_error);
  CHECK(consumed <= 2048);
}
