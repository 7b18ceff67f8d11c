// D20: "every command treats indices and funds as it treats stocks", for those that judge a
// store's coverage: `gaps` finds an index's and a fund's missing bars, `fetch tdx --repair` asks
// for them again by their kind (the index's 4-byte bars, the fund's 0.001 prices) and stores
// exactly what the first fetch stored, and `info` counts symbols and bars by kind. Against the
// TDX stand-in's real 000300.SH (Tushare's index_daily rows) and 510300.SH (TDX's raw export).
#include "fixtures.hpp"
#include "process.hpp"
#include "tdx_standin.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

namespace bb {
namespace {

const char* const k_kinds_coverage_now = "2022-12-30T16:00:00+08:00";

RunResult kinds_coverage_fetch(const TestStore& store, const std::string& hosts,
                               const std::vector<std::string>& args) {
  std::vector<std::string> argv{"--timeout", "5", "fetch", "tdx", "--pace", "0", "--hosts", hosts};
  argv.insert(argv.end(), args.begin(), args.end());
  return store.cli(argv, k_cli_timeout,
                   {std::string("ASHARE_NOW=") + k_kinds_coverage_now,
                    "ASHARE_SZSE_URL=http://127.0.0.1:1/monthList"});
}

// `bars --raw --format csv` of `symbol` over December 2022, as printed.
std::string kinds_coverage_bars(const TestStore& store, const std::string& symbol) {
  const auto run = store.cli({"bars", symbol, "2022-12-01", "2022-12-30", "--raw", "--format", "csv"});
  REQUIRE_MESSAGE(run.status == 0, describe(run));
  return run.out;
}

TEST_CASE("gaps, fetch --repair and info over an index and a fund (D20)") {
  TdxStandIn tdx;
  TestStore store;
  const auto fetched = kinds_coverage_fetch(store, tdx.host(), {"--from", "2022-12-01", "000300.SH", "510300.SH"});
  REQUIRE_MESSAGE(fetched.status == 0, describe(fetched));
  const auto index_bars = kinds_coverage_bars(store, "000300.SH");
  const auto fund_bars = kinds_coverage_bars(store, "510300.SH");
  REQUIRE(read_csv_text(index_bars).size() == 22); // every open day of December 2022
  REQUIRE(read_csv_text(fund_bars).size() == 22);
  const auto whole = store.cli({"gaps", "--format", "csv"});
  CHECK_MESSAGE(whole.status == 0, describe(whole));

  REQUIRE(store.cli({"remove", "000300.SH", "2022-12-14", "2022-12-14"}).status == 0);
  REQUIRE(store.cli({"remove", "510300.SH", "2022-12-15", "2022-12-16"}).status == 0);
  const auto gaps = store.cli({"gaps", "--format", "csv"});
  CHECK(gaps.status == 1);
  CHECK(gaps.out
        == "symbol,date,reason\n"
           "000300.SH,2022-12-14,missing\n"
           "510300.SH,2022-12-15,missing\n"
           "510300.SH,2022-12-16,missing\n");

  const auto info = store.cli({"info"});
  REQUIRE_MESSAGE(info.status == 0, describe(info));
  CHECK_MESSAGE(info.out.find("\nsymbols: 2\nkinds: stock 0 (0 bars), index 1 (21 bars), fund 1 (20 bars)\n")
                  != std::string::npos,
                info.out);

  const auto repaired = kinds_coverage_fetch(store, tdx.host(), {"--repair"});
  REQUIRE_MESSAGE(repaired.status == 0, describe(repaired));
  CHECK_MESSAGE(repaired.out.find("fetched 3 days (2022-12-14..2022-12-16), 3 bars, 2 symbols,")
                  != std::string::npos,
                repaired.out);
  CHECK(store.cli({"gaps", "--format", "csv"}).out == "symbol,date,reason\n");
  // The index's volume in lots x 100 and the fund's prices in 0.001 again, as the first fetch.
  CHECK(kinds_coverage_bars(store, "000300.SH") == index_bars);
  CHECK(kinds_coverage_bars(store, "510300.SH") == fund_bars);
}

} // namespace
} // namespace bb
