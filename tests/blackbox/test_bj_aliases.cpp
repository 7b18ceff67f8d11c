// D19 (issue 33): a Beijing code that changed answers one series under either code, over HTTP and
// on the command line, on whichever backend the suite runs (SQLite, and PostgreSQL in the
// suite's PostgreSQL pass). The bars are synthetic: no real 920xxx bars are in the repository.
// 837023.BJ became 920123.BJ (one of the 26 codes whose last three digits changed) on 2025-10-09.
#include "fixtures.hpp"
#include "http.hpp"
#include "server_process.hpp"

#include <doctest/doctest.h>

#include <fstream>

using namespace bb;
using json = nlohmann::json;

namespace {

const std::string k_old = "837023.BJ";
const std::string k_new = "920123.BJ";

// The old code's open days of 2025-09-22..09-30 and the new code's of 2025-10-09..10-15.
const std::vector<std::pair<std::string, double>> k_old_closes{
    {"2025-09-22", 20.00}, {"2025-09-23", 20.10}, {"2025-09-24", 20.20}, {"2025-09-25", 20.30},
    {"2025-09-26", 20.40}, {"2025-09-29", 20.50}, {"2025-09-30", 20.60}};
const std::vector<std::pair<std::string, double>> k_new_closes{
    {"2025-10-09", 20.70}, {"2025-10-10", 20.80}, {"2025-10-13", 20.90}, {"2025-10-14", 21.00},
    {"2025-10-15", 21.10}};

std::filesystem::path write_bars(const TestStore& store, const std::string& symbol,
                                 const std::vector<std::pair<std::string, double>>& closes) {
  const auto path = store.dir() / (symbol + ".csv");
  std::ofstream out(path);
  out << "trade_date,symbol,open,high,low,close,volume,turnover\n";
  for (const auto& [day, close] : closes) {
    out << day << ',' << symbol << ',' << close << ',' << close << ',' << close << ',' << close << ",1000,"
        << close * 1000 << "\n";
  }
  return path;
}

std::vector<std::string> dates_in(const json& ohlc) {
  std::vector<std::string> out;
  for (const auto& bar : ohlc) {
    out.push_back(bar["trade_date"].get<std::string>());
  }
  return out;
}

} // namespace

TEST_CASE("D19: either code of a changed Beijing code answers one continuous series") {
  TestStore store;
  store.import({write_bars(store, k_old, k_old_closes), write_bars(store, k_new, k_new_closes)});
  const auto key = store.create_key("pro");
  ServerProcess server(store);

  const auto as_new = request(server.port(), bars_target("2025-09-25", "2025-10-14", "symbol=" + k_new), key.plaintext);
  REQUIRE(as_new.status == 200);
  const auto body = as_new.json();
  CHECK(body["symbol"] == k_new);
  CHECK(dates_in(body["ohlc"]) == std::vector<std::string>{"2025-09-25", "2025-09-26", "2025-09-29", "2025-09-30",
                                                            "2025-10-09", "2025-10-10", "2025-10-13", "2025-10-14"});
  CHECK(body["ohlc"][3]["close"] == 20.6);
  CHECK(body["ohlc"][4]["close"] == 20.7);

  const auto as_old = request(server.port(), bars_target("2025-09-25", "2025-10-14", "symbol=" + k_old), key.plaintext);
  REQUIRE(as_old.status == 200);
  CHECK(as_old.json()["symbol"] == k_old); // the code asked
  CHECK(as_old.json()["ohlc"] == body["ohlc"]);

  // An indicator over it uses the old code's bars: SMA(5) on 2025-10-10 needs three of them.
  const auto sma = request(server.port(), indicator_tests::target("sma", "symbol=" + k_new + "&window=5&timestamp=2025-10-10"),
                           key.plaintext);
  REQUIRE(sma.status == 200);
  const auto values = sma.json()["results"]["values"];
  REQUIRE(values.size() == 1);
  const double value = values[0]["value"];
  CHECK(value == doctest::Approx((20.4 + 20.5 + 20.6 + 20.7 + 20.8) / 5).epsilon(1e-9));

  // Naming both codes is a parameter error (D19); with another symbol each is an item.
  const auto both = request(server.port(), bars_target("2025-09-25", "2025-10-14", "symbol=" + k_new + "," + k_old),
                            key.plaintext);
  check_error(both, 400, "INVALID_PARAMETER");
  const auto mixed = request(server.port(), bars_target("2025-09-25", "2025-10-14", "symbol=" + k_old + ",600519.SH"),
                             key.plaintext);
  REQUIRE(mixed.status == 200);
  CHECK(mixed.json()["results"][0]["symbol"] == k_old);
  CHECK(mixed.json()["results"][0]["resultsCount"] == 8);

  // D6 and D7 count the codes asked: one credit for either code (600519.SH, not stored, is free).
  const auto metered = store.create_key("pro", 10);
  const auto one = request(server.port(), bars_target("2025-09-25", "2025-10-14", "symbol=" + k_old), metered.plaintext);
  REQUIRE(one.status == 200);
  CHECK(one.header("X-Credits-Remaining") == "9");
  const auto two = request(server.port(), bars_target("2025-09-25", "2025-10-14", "symbol=" + k_new + ",600519.SH"),
                           metered.plaintext);
  REQUIRE(two.status == 200);
  CHECK(two.header("X-Credits-Remaining") == "8");

  // The command line answers the same, as a one-shot reader.
  const auto cli = store.cli({"bars", k_old, "2025-09-29", "2025-10-10", "--format", "csv"});
  REQUIRE_MESSAGE(cli.status == 0, cli.err);
  const auto rows = read_csv_text(cli.out);
  REQUIRE(rows.size() == 4);
  CHECK(rows.front().date == "2025-09-29");
  CHECK(rows.back().date == "2025-10-10");
}

TEST_CASE("D19: remove deletes only the code named; an import of hidden old-code rows warns") {
  TestStore store;
  store.import({write_bars(store, k_old, k_old_closes), write_bars(store, k_new, k_new_closes)});
  // Old-code rows on and after the new code's first bar are hidden behind the new code's.
  const auto late = write_bars(store, k_old, {{"2025-10-09", 99.0}, {"2025-10-10", 99.0}});
  const auto warned = store.cli({"import", late.string()});
  CHECK_MESSAGE(warned.status == 0, warned.err);
  CHECK(warned.err.find("2 rows of 837023.BJ dated on or after 2025-10-09, the first bar of 920123.BJ") != std::string::npos);
  const auto hidden = store.cli({"bars", k_new, "2025-10-09", "2025-10-10", "--format", "csv"});
  CHECK(read_csv_text(hidden.out).front().close == 20.7);

  REQUIRE(store.cli({"remove", k_old}).status == 0);
  const auto after = store.cli({"bars", k_new, "2025-09-01", "2025-10-31", "--format", "csv"});
  REQUIRE_MESSAGE(after.status == 0, after.err);
  CHECK(read_csv_text(after.out).size() == k_new_closes.size());
  const auto symbols = store.cli({"symbols", "--format", "csv"});
  CHECK(symbols.out.find(k_new) != std::string::npos);
}

TEST_CASE("D19: symbols and info show the alias; the qlib export writes the series once, under the new code") {
  TestStore store;
  store.import({write_bars(store, k_old, k_old_closes), write_bars(store, k_new, k_new_closes)});
  const auto symbols = store.cli({"symbols", "--format", "json"});
  REQUIRE_MESSAGE(symbols.status == 0, symbols.err);
  const auto listed = json::parse(symbols.out);
  bool seen_old = false;
  for (const auto& item : listed) {
    if (item["symbol"] == k_old) {
      seen_old = true;
      CHECK(item["alias"] == k_new);
    }
    if (item["symbol"] == k_new) {
      CHECK(item["alias"] == k_old);
    }
  }
  CHECK(seen_old);
  const auto info = store.cli({"info"});
  CHECK(info.out.find("aliases: 248 (1 with bars under both codes)") != std::string::npos);

  const auto out = store.dir() / "qlib";
  const auto exported = store.cli({"export", "--format", "qlib", out.string()});
  REQUIRE_MESSAGE(exported.status == 0, exported.err);
  CHECK(std::filesystem::exists(out / "features" / "bj920123"));
  CHECK_FALSE(std::filesystem::exists(out / "features" / "bj837023"));
  std::ifstream instruments(out / "instruments" / "all.txt");
  std::string text((std::istreambuf_iterator<char>(instruments)), std::istreambuf_iterator<char>());
  CHECK(text == "BJ920123\t2025-09-22\t2025-10-15\n");
  CHECK(text.find("837023") == std::string::npos);
}
