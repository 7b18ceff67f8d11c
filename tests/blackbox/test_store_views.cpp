// Issue 34: the store's reading views (docs/store.md) answer, through the tools users already have,
// the values `ashare bars --raw` prints, bit for bit after parsing: the sqlite3 CLI and Debian's
// pandas on a SQLite store (a new one and one migrated from schema 2), psql on a PostgreSQL one
// (the suite's PostgreSQL pass). tests/data/store_v2/edge_values.csv holds values that need all
// 17 significant digits, a volume beyond 32 bits and the extremes of a price and a factor.
#include "fixtures.hpp"
#include "process.hpp"
#include "server_process.hpp"

#include <doctest/doctest.h>

#include <bit>
#include <cstdint>
#include <map>
#include <sstream>

using namespace bb;
using json = nlohmann::json;

namespace {

// Debian's interpreter, where python3-pandas is installed (scripts/install-deps.sh): the `python3`
// first on a PATH may be another one without pandas.
constexpr const char* k_debian_python = "/usr/bin/python3";
constexpr const char* k_sqlite3 = "/usr/bin/sqlite3";

const std::vector<std::string> k_number_columns{"open",     "high",       "low",   "close",
                                                "turnover", "change_pct", "factor"};

// One bar as a reader sees it: the numbers kept as their bits, so that == is bit for bit.
struct ViewBar {
  std::string symbol;
  std::string trade_date;
  std::vector<std::uint64_t> number_bits; // k_number_columns, in order
  std::int64_t volume = 0;
  bool operator==(const ViewBar&) const = default;
};

std::uint64_t bits_of(const std::string& text) {
  std::size_t used = 0;
  const double value = std::stod(text, &used);
  REQUIRE_MESSAGE(used == text.size(), text);
  return std::bit_cast<std::uint64_t>(value);
}

// Read CSV `text` with a header naming at least the bar columns (any order, others ignored).
std::vector<ViewBar> bars_from_csv(const std::string& text) {
  const auto lines = split_lines(text);
  REQUIRE(!lines.empty());
  std::map<std::string, std::size_t> column;
  const auto header = csv_fields(lines.front());
  for (std::size_t i = 0; i < header.size(); ++i) {
    column[header[i]] = i;
  }
  std::vector<ViewBar> bars;
  for (std::size_t row = 1; row < lines.size(); ++row) {
    const auto fields = csv_fields(lines[row]);
    REQUIRE(fields.size() == header.size());
    ViewBar bar{fields.at(column.at("symbol")), fields.at(column.at("trade_date")), {},
                std::stoll(fields.at(column.at("volume")))};
    for (const auto& name : k_number_columns) {
      bar.number_bits.push_back(bits_of(fields.at(column.at(name))));
    }
    bars.push_back(std::move(bar));
  }
  return bars;
}

// Read the sqlite3 CLI's -json rows (it prints a REAL with 20 significant digits, enough to parse
// back to the same double; its CSV mode prints 15).
std::vector<ViewBar> bars_from_sqlite3_json(const std::string& text) {
  std::vector<ViewBar> bars;
  for (const auto& row : json::parse(text)) {
    ViewBar bar{row["symbol"], row["trade_date"], {}, row["volume"].get<std::int64_t>()};
    for (const auto& name : k_number_columns) {
      REQUIRE_MESSAGE(row[name].is_number_float(), name, " ", row.dump());
      bar.number_bits.push_back(std::bit_cast<std::uint64_t>(row[name].get<double>()));
    }
    bars.push_back(std::move(bar));
  }
  return bars;
}

// What `ashare bars --raw --format csv` prints for `symbols`, in symbol then date order.
std::vector<ViewBar> bars_from_cli(const TestStore& store, const std::vector<std::string>& symbols) {
  std::vector<ViewBar> bars;
  for (const auto& symbol : symbols) {
    const auto run =
        store.cli({"bars", symbol, "1990-01-01", "2030-12-31", "--raw", "--format", "csv"});
    REQUIRE_MESSAGE(run.status == 0, run.err);
    const auto some = bars_from_csv(run.out);
    bars.insert(bars.end(), some.begin(), some.end());
  }
  return bars;
}

const std::string k_select_bars = "SELECT * FROM bars_v ORDER BY symbol, trade_date";

std::vector<ViewBar> bars_from_sqlite3(const std::filesystem::path& db) {
  const auto run = run_process({k_sqlite3, "-readonly", "-json", db.string(), k_select_bars});
  REQUIRE_MESSAGE(run.status == 0, run.err);
  return bars_from_sqlite3_json(run.out);
}

// Read bars_v with pandas.read_sql; fails the test when pandas gives a column another dtype than
// a reader expects (object for text, float64 for the numbers, int64 for volume).
std::vector<ViewBar> bars_from_pandas(const std::filesystem::path& db) {
  const std::string script = R"py(
import sqlite3, sys
import pandas as pd
frame = pd.read_sql(sys.argv[2], sqlite3.connect(sys.argv[1]))
sys.stderr.write(" ".join(f"{name}:{dtype}" for name, dtype in frame.dtypes.items()))
sys.stdout.write(frame.to_csv(index=False, float_format="%.17g"))
)py";
  const auto run = run_process({k_debian_python, "-c", script, db.string(), k_select_bars});
  REQUIRE_MESSAGE(run.status == 0, run.err);
  CHECK(run.err
        == "symbol:object trade_date:object open:float64 high:float64 low:float64 close:float64 "
           "volume:int64 turnover:float64 change_pct:float64 factor:float64");
  return bars_from_csv(run.out);
}

std::vector<ViewBar> bars_from_psql(const TestStore& store) {
  return bars_from_csv(
      store.sql("COPY (" + k_select_bars + ") TO STDOUT WITH (FORMAT csv, HEADER)"));
}

const std::vector<std::string> k_view_symbols{"000001.SZ", "000002.SZ", "600519.SH"};

void import_view_fixtures(const TestStore& store) {
  store.import({data_dir() / "bancob_600519.SH.csv", data_dir() / "jenny_000001.SZ.csv",
                data_dir() / "store_v2/edge_values.csv"});
}

} // namespace

TEST_CASE("store views: bars_v reads as ashare bars --raw prints, bit for bit") {
  TestStore store;
  import_view_fixtures(store);
  const auto expected = bars_from_cli(store, k_view_symbols);
  REQUIRE(expected.size() == 1212 + 5 + 500);
  if (store.data_on_server()) {
    CHECK(bars_from_psql(store) == expected);
    return;
  }
  CHECK(bars_from_sqlite3(store.db()) == expected);
  CHECK(bars_from_pandas(store.db()) == expected);
}

TEST_CASE("store views: a store of schema 2 gains them when it is opened") {
  TestStore store(TestStore::Backend::sqlite);
  std::filesystem::copy_file(data_dir() / "store_v2/store_v2.db", store.db());
  const auto symbols = store.cli({"symbols", "--format", "csv"});
  REQUIRE_MESSAGE(symbols.status == 0, symbols.err);
  const auto expected = bars_from_cli(store, k_view_symbols);
  REQUIRE(expected.size() == 120 + 120 + 5);
  CHECK(bars_from_sqlite3(store.db()) == expected);
}

TEST_CASE("store views: symbols, calendar, listings, suspensions and the ledger") {
  TestStore store;
  import_view_fixtures(store);
  const auto query = [&](const std::string& sql) {
    if (store.data_on_server()) {
      return store.sql("COPY (" + sql + ") TO STDOUT WITH (FORMAT csv)");
    }
    const auto run = run_process({k_sqlite3, "-readonly", "-csv", store.db().string(), sql});
    REQUIRE_MESSAGE(run.status == 0, run.err);
    return run.out;
  };
  SUBCASE("symbols_v: the span, count and latest factor `ashare symbols` prints") {
    const auto listed = store.cli({"symbols", "--format", "csv"});
    REQUIRE_MESSAGE(listed.status == 0, listed.err);
    CHECK(listed.out.find("600519.SH,2023-09-25,2025-10-23,500") != std::string::npos);
    CHECK(query("SELECT symbol, first_date, last_date, bar_count FROM symbols_v "
                "WHERE symbol = '600519.SH'")
          == "600519.SH,2023-09-25,2025-10-23,500\n");
    CHECK(bits_of(split_lines(query("SELECT latest_factor FROM symbols_v "
                                    "WHERE symbol = '000002.SZ'"))
                      .at(0))
          == bits_of("7.768"));
  }
  SUBCASE("calendar_v: the shipped calendar, open and closed days") {
    CHECK(query("SELECT trade_date, is_open FROM calendar_v "
                "WHERE trade_date IN ('2024-02-09', '2024-02-12', '2024-02-19') ORDER BY trade_date")
          == "2024-02-09,0\n2024-02-12,0\n2024-02-19,1\n");
  }
  SUBCASE("listings_v, suspensions_v and ledger_v: ISO dates, NULL where the table has none") {
    const auto write = [&](const std::string& sql) {
      if (store.data_on_server()) {
        store.sql(sql);
        return;
      }
      const auto run = run_process({k_sqlite3, store.db().string(), sql});
      REQUIRE_MESSAGE(run.status == 0, run.err);
    };
    write("INSERT INTO listings(symbol, name, list_date, delist_date, status) VALUES "
          "('600519.SH', 'Moutai', 20010827, NULL, 'L')");
    write("INSERT INTO suspensions(symbol, trade_date) VALUES ('600519.SH', 20240105)");
    write("INSERT INTO fetch_ledger(provider, trade_date, symbol, rows) VALUES "
          "('tushare-pro', 20240105, '', 5301), ('tdx', 20240105, '600519.SH', 1)");
    CHECK(query("SELECT symbol, name, list_date, coalesce(delist_date, 'none'), status "
                "FROM listings_v")
          == "600519.SH,Moutai,2001-08-27,none,L\n");
    CHECK(query("SELECT symbol, trade_date FROM suspensions_v") == "600519.SH,2024-01-05\n");
    CHECK(query("SELECT provider, trade_date, coalesce(symbol, 'market'), rows FROM ledger_v "
                "ORDER BY provider")
          == "tdx,2024-01-05,600519.SH,1\ntushare-pro,2024-01-05,market,5301\n");
    // D20: rows written without a kind are the stocks' (as every row before D20).
    CHECK(query("SELECT kind FROM listings_v") == "stock\n");
    CHECK(query("SELECT kind FROM ledger_v") == "stock\nstock\n");
    write("INSERT INTO fetch_ledger(provider, trade_date, symbol, rows, kind) VALUES "
          "('tushare-pro', 20240105, '', 900, 'fund')");
    CHECK(query("SELECT kind, rows FROM ledger_v WHERE symbol IS NULL ORDER BY kind")
          == "fund,900\nstock,5301\n");
  }
}
