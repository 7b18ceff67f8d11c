// The shared test data of the unit, black-box and fuzz suites (issue 34): where the committed
// fixtures of tests/data are (see its README.md for their provenance), the list of the real
// market-data fixtures, and the small hand-made CSVs more than one test file imports.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace ashare::test {

// Return tests/data: env ASHARE_TEST_DATA_DIR when set, else the source tree's.
std::filesystem::path data_dir();

// Return the path of the committed fixture `name` in data_dir() (e.g. "bancob_600519.SH.csv").
std::filesystem::path fixture(std::string_view name);

// The canonical CSV extracts of real market data in data_dir(), five symbols.
inline const std::vector<std::string> k_fixture_files{
    "bancob_600519.SH.csv", "bancob_600036.SH.csv", "bancob_002594.SZ.csv",
    "jenny_000001.SZ.csv",  "jenny_600276.SH.csv",
};

// A canonical CSV, as_of 2024-01-08. 600519.SH: five sessions 2024-01-02..2024-01-08 (a weekend
// in between), an ex-rights day on 2024-01-05 (factor 1 -> 2). 000001.SZ: two sessions.
inline constexpr const char* k_two_symbols_csv =
    "symbol,trade_date,open,high,low,close,volume,turnover,change_pct,factor\n"
    "600519.SH,2024-01-02,10,11,9,10.5,100,1050,0,1\n"
    "600519.SH,2024-01-03,10.5,12,10,11,100,1100,4.7619,1\n"
    "600519.SH,2024-01-04,11,11.5,10.8,11.2,100,1120,1.8182,1\n"
    "600519.SH,2024-01-05,5.6,6,5.5,5.9,200,1180,5.3571,2\n"
    "600519.SH,2024-01-08,5.9,6.1,5.8,6.05,200,1210,2.5424,2\n"
    "000001.SZ,2024-01-03,9,9.5,8.5,9.2,1000,9200,0,1\n"
    "000001.SZ,2024-01-04,9.2,9.4,9.0,9.3,1000,9300,1.087,1\n";

} // namespace ashare::test
