// D20: the qlib export's instrument files of index membership (qlib/index_instruments.hpp): their
// names, their lines, and which spans they are written from.
#include "store_backend.hpp"
#include "testutil.hpp"

#include "core/qlib/index_instruments.hpp"

#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

using namespace ashare;
using store::MemberSource;
using test::date;

namespace {

domain::Symbol index_symbol(const char* text) { return *domain::parse_symbol(text); }

std::string file_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

} // namespace

TEST_CASE("D20: qlib::instruments_name: qlib's names, ours, else the lower-case code") {
  CHECK(qlib::instruments_name(index_symbol("000300.SH")) == "csi300");
  CHECK(qlib::instruments_name(index_symbol("000905.SH")) == "csi500");
  CHECK(qlib::instruments_name(index_symbol("000903.SH")) == "csi100");
  CHECK(qlib::instruments_name(index_symbol("000852.SH")) == "csi1000");
  CHECK(qlib::instruments_name(index_symbol("000016.SH")) == "sse50");
  CHECK(qlib::instruments_name(index_symbol("000001.SH")) == "sh000001");
  CHECK(qlib::instruments_name(index_symbol("399006.SZ")) == "sz399006");
}

TEST_CASE("D20: qlib::instruments_text: a line a span, inclusive, open spans to the last day") {
  const std::vector<store::MemberSpan> spans{
    {"000300.SH", "600004.SH", date("2018-12-17"), date("2021-06-10"), MemberSource::import},
    {"000300.SH", "600004.SH", date("2005-04-08"), date("2011-12-30"), MemberSource::import},
    {"000300.SH", "000001.SZ", date("2005-04-08"), std::nullopt, MemberSource::import},
    {"000300.SH", "600519.SH", date("2025-01-02"), std::nullopt, MemberSource::import},
  };
  CHECK(qlib::instruments_text(spans, date("2024-12-31"))
        == "SH600004\t2005-04-08\t2011-12-30\n"
           "SH600004\t2018-12-17\t2021-06-10\n"
           "SZ000001\t2005-04-08\t2024-12-31\n");
}

TEST_CASE("D20: qlib::write_index_instruments writes each index's answering spans") {
  test::StoreBackend backend;
  const auto store = backend.open_bars();
  auto& market = store->market();
  {
    store::WriteTransaction transaction(*store);
    market.save_member_spans("000300.SH", MemberSource::tushare,
                             {{"000300.SH", "600519.SH", date("2024-01-31"), std::nullopt,
                               MemberSource::tushare}});
    market.save_member_spans("000300.SH", MemberSource::import,
                             {{"000300.SH", "000001.SZ", date("2005-04-08"), std::nullopt,
                               MemberSource::import}});
    market.save_member_spans("000001.SH", MemberSource::tushare,
                             {{"000001.SH", "600000.SH", date("2024-01-31"), std::nullopt,
                               MemberSource::tushare}});
    transaction.commit();
  }
  test::TempDir dir;
  std::filesystem::create_directories(dir.path() / "instruments");
  std::ofstream(dir.path() / "instruments" / "sse50.txt") << "an earlier export's\n";
  std::ofstream(dir.path() / "instruments" / "all.txt") << "kept\n";
  const auto written = qlib::write_index_instruments(market, dir.path(), date("2024-12-31"));
  CHECK(written == std::vector<std::string>{"sh000001.txt", "csi300.txt"});
  CHECK(file_text(dir.path() / "instruments" / "csi300.txt")
        == "SZ000001\t2005-04-08\t2024-12-31\n"); // the imported spans answer
  CHECK(file_text(dir.path() / "instruments" / "sh000001.txt")
        == "SH600000\t2024-01-31\t2024-12-31\n");
  CHECK(!std::filesystem::exists(dir.path() / "instruments" / "sse50.txt"));
  CHECK(file_text(dir.path() / "instruments" / "all.txt") == "kept\n");
}
