// D20: `ashare symbols` shows each symbol's kind (its listing's, else its code's) and listed name,
// `--kind` keeps some kinds, and the view symbols_v says the same kinds, on SQLite and (the
// suite's PostgreSQL pass) on PostgreSQL.
#include "fixtures.hpp"
#include "process.hpp"
#include "server_process.hpp"

#include <doctest/doctest.h>

#include <fstream>
#include <map>

using namespace bb;
using json = nlohmann::json;

namespace {

// Write a canonical CSV of the CSI 300 index, its largest ETF and a stock, two days each, into
// `store`'s directory and import it.
void import_three_kinds(const TestStore& store) {
  const auto path = store.dir() / "three_kinds.csv";
  std::ofstream(path) << "symbol,trade_date,open,high,low,close,volume,turnover\n"
                         "000300.SH,2024-01-02,3431.4,3431.4,3385.5,3386.4,11744730000,165000000000\n"
                         "000300.SH,2024-01-03,3380.6,3390.1,3364.2,3370.0,10912050000,158000000000\n"
                         "510300.SH,2024-01-02,3.487,3.487,3.443,3.444,1053550000,3642000000\n"
                         "510300.SH,2024-01-03,3.441,3.452,3.424,3.431,999000000,3430000000\n"
                         "600519.SH,2024-01-02,1715,1718.19,1678.1,1685.01,3215644,5440000000\n"
                         "600519.SH,2024-01-03,1681.11,1695.22,1676.33,1694,2022929,3420000000\n";
  store.import({path});
}

// Run `sql` on `store`'s data store (sqlite3 or psql) and return its rows as CSV.
std::string query_symbols_store(const TestStore& store, const std::string& sql) {
  if (store.data_on_server()) {
    return store.sql("COPY (" + sql + ") TO STDOUT WITH (FORMAT csv)");
  }
  const auto run = run_process({"/usr/bin/sqlite3", "-readonly", "-csv", store.db().string(), sql});
  REQUIRE_MESSAGE(run.status == 0, run.err);
  return run.out;
}

// Write `sql` into `store`'s data store, as an older ashare or a fetch would have.
void write_symbols_store(const TestStore& store, const std::string& sql) {
  if (store.data_on_server()) {
    store.sql(sql);
    return;
  }
  const auto run = run_process({"/usr/bin/sqlite3", store.db().string(), sql});
  REQUIRE_MESSAGE(run.status == 0, run.err);
}

// The (symbol, kind, name) columns of `symbols --format csv` output, by its header.
std::vector<std::vector<std::string>> kind_columns(const std::string& csv) {
  const auto lines = split_lines(csv);
  REQUIRE(!lines.empty());
  const auto header = csv_fields(lines.front());
  std::map<std::string, std::size_t> at;
  for (std::size_t i = 0; i < header.size(); ++i) {
    at[header[i]] = i;
  }
  // D20: kind and name come after the columns before D20, in that order.
  CHECK(header.size() == 10);
  CHECK(at.at("kind") == 8);
  CHECK(at.at("name") == 9);
  std::vector<std::vector<std::string>> out;
  for (std::size_t row = 1; row < lines.size(); ++row) {
    const auto fields = csv_fields(lines[row]);
    REQUIRE(fields.size() == header.size());
    out.push_back({fields[0], fields[at.at("kind")], fields[at.at("name")]});
  }
  return out;
}

using Rows = std::vector<std::vector<std::string>>;

} // namespace

TEST_CASE("D20: symbols shows kind and name, --kind keeps some kinds, symbols_v agrees") {
  TestStore store;
  import_three_kinds(store);
  write_symbols_store(store, "INSERT INTO listings(symbol, name, list_date, delist_date, status) "
                             "VALUES ('600519.SH', '贵州茅台', 20010827, NULL, 'L')");

  SUBCASE("csv: every symbol, its kind by its code, the listed name") {
    const auto run = store.cli({"symbols", "--format", "csv"});
    REQUIRE_MESSAGE(run.status == 0, run.err);
    CHECK(kind_columns(run.out)
          == Rows{{"000300.SH", "index", ""}, {"510300.SH", "fund", ""}, {"600519.SH", "stock", "贵州茅台"}});
    CHECK(query_symbols_store(store, "SELECT symbol, kind FROM symbols_v ORDER BY symbol")
          == "000300.SH,index\n510300.SH,fund\n600519.SH,stock\n");
  }
  SUBCASE("--kind index,fund; --kind stock") {
    const auto run = store.cli({"symbols", "--format", "csv", "--kind", "index,fund"});
    REQUIRE_MESSAGE(run.status == 0, run.err);
    CHECK(kind_columns(run.out) == Rows{{"000300.SH", "index", ""}, {"510300.SH", "fund", ""}});
    const auto stocks = store.cli({"symbols", "--format", "csv", "--kind", " stock "});
    REQUIRE_MESSAGE(stocks.status == 0, stocks.err);
    CHECK(kind_columns(stocks.out) == Rows{{"600519.SH", "stock", "贵州茅台"}});
  }
  SUBCASE("table: KIND after SYMBOL") {
    const auto run = store.cli({"symbols", "--format", "table", "--kind", "fund"});
    REQUIRE_MESSAGE(run.status == 0, run.err);
    const auto lines = split_lines(run.out);
    REQUIRE(lines.size() == 2);
    CHECK(lines[0].rfind("SYMBOL     KIND  FIRST       LAST", 0) == 0);
    CHECK(lines[1].rfind("510300.SH  fund  2024-01-02  2024-01-03", 0) == 0);
  }
  SUBCASE("json: kind and name after alias") {
    const auto run = store.cli({"symbols", "--format", "json", "--kind", "stock,index"});
    REQUIRE_MESSAGE(run.status == 0, run.err);
    const auto all = json::parse(run.out);
    REQUIRE(all.size() == 2);
    CHECK(all[0]["symbol"] == "000300.SH");
    CHECK(all[0]["kind"] == "index");
    CHECK(all[0]["name"] == "");
    CHECK(all[1]["kind"] == "stock");
    CHECK(all[1]["name"] == "贵州茅台");
    std::vector<std::string> keys;
    for (const auto& [key, value] : all[1].items()) {
      keys.push_back(key);
    }
    CHECK(keys.size() == 10);
  }
  SUBCASE("a listing of another kind is the symbol's kind, in symbols and in symbols_v") {
    // Made up: no list calls 600519.SH a fund; a list's kind beats the code's (D20).
    write_symbols_store(store, "UPDATE listings SET kind = 'fund' WHERE symbol = '600519.SH'");
    const auto run = store.cli({"symbols", "--format", "csv", "--kind", "fund"});
    REQUIRE_MESSAGE(run.status == 0, run.err);
    CHECK(kind_columns(run.out) == Rows{{"510300.SH", "fund", ""}, {"600519.SH", "fund", "贵州茅台"}});
    CHECK(query_symbols_store(store, "SELECT kind FROM symbols_v WHERE symbol = '600519.SH'")
          == "fund\n");
  }
  SUBCASE("--kind with anything but kinds is a usage error") {
    for (const auto& list : {"bad", "stock,etf", ""}) {
      CAPTURE(list);
      const auto run = store.cli({"symbols", "--kind", list});
      CHECK(run.status == 2);
      CHECK(run.out.empty());
    }
    CHECK(store.cli({"symbols", "--kind", "bad"}).err
          == "ashare: error: invalid kind \"bad\": expected stock, index or fund\n");
  }
}
