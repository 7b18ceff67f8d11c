// Every file parser on any bytes, in memory: the CSV reader, the canonical, Tushare, AkShare,
// baostock and TDX importers and the Tushare adj_factor reader. The first byte picks the parser.
// Beyond "no crash": every row a parser hands over is within D16 (check_bar finds nothing), the
// lines it names are within the file, and problems come back as values, never exceptions.
#include "fuzz_check.hpp"

#include "core/domain/date.hpp"
#include "core/import/canonical_csv.hpp"
#include "core/import/csv_reader.hpp"
#include "core/import/factors.hpp"
#include "core/import/vendor_formats.hpp"

#include <algorithm>
#include <sstream>
#include <string>

using namespace ashare;

namespace {

void check_csv_reader(const std::string& text) {
  std::istringstream in(text);
  import::CsvReader reader(in);
  import::CsvRecord record;
  std::int64_t last_line = 0;
  const auto lines = 1 + static_cast<std::int64_t>(std::count(text.begin(), text.end(), '\n'));
  while (reader.next(record)) {
    FUZZ_CHECK(record.line > last_line && record.line <= lines);
    FUZZ_CHECK(!record.fields.empty());
    last_line = record.line;
  }
  FUZZ_CHECK(reader.too_long_line() == 0 || text.size() > import::k_max_line_bytes);
}

void check_file(const Result<import::ParsedFile>& file, std::int64_t max_line) {
  if (!file) {
    FUZZ_CHECK(file.error().code == ErrorCode::invalid_input);
    return;
  }
  const auto latest = domain::today_utc8();
  for (const auto& row : file->rows) {
    FUZZ_CHECK(row.line >= 1 && row.line <= max_line);
    FUZZ_CHECK(import::check_bar(row.bar, row.line, latest).column.empty());
  }
  for (const auto& problem : file->problems) {
    FUZZ_CHECK(problem.line >= 1 && problem.line <= max_line);
    FUZZ_CHECK(!problem.column.empty() && !problem.message.empty());
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) {
    return 0;
  }
  const std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
  const auto lines = 1 + static_cast<std::int64_t>(std::count(text.begin(), text.end(), '\n'));
  std::istringstream in(text);
  switch (data[0] % 8) {
  case 0: check_csv_reader(text); break;
  case 1: check_file(import::parse_canonical_csv(in), lines); break;
  case 2: check_file(import::parse_tushare_daily(in), lines); break;
  case 3: check_file(import::parse_akshare_hist(in, "600519.SH"), lines); break;
  case 4: check_file(import::parse_baostock_k(in, false), lines); break;
  case 5: check_file(import::parse_baostock_k(in, true), lines); break;
  case 6: // TDX problems and rows are numbered by 32-byte record
    check_file(import::parse_tdx_day(in, "600000.SH"),
               static_cast<std::int64_t>(text.size() / 32) + 1);
    break;
  default: {
    const auto table = import::parse_adj_factor_csv(in);
    if (table) {
      for (const auto& [key, factor] : table->factors) {
        FUZZ_CHECK(factor >= import::k_min_factor && factor <= import::k_max_factor);
      }
    }
    break;
  }
  }
  return 0;
}
