#include "fake_tdx.hpp"
#include "testutil.hpp"

#include "core/fetch/gaps.hpp"
#include "core/fetch/run_fetch.hpp"
#include "core/fetch/tdx/provider.hpp"
#include "core/import/importer.hpp"
#include "core/store/sqlite_bar_store.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <functional>
#include <sstream>

using namespace ashare;
using namespace ashare::fetch;
using namespace ashare::fetch::tdx;
using test::date;

namespace {

const std::filesystem::path k_sample =
    test::data_dir() / ".." / ".." / "data" / "sample" / "tushare";

std::int64_t mils(const std::string& text) { return std::llround(std::stod(text) * 1000); }

// A sample file's rows (Tushare daily: raw prices, pre_close, vol in lots, amount in 1000 CNY) as
// TDX sends them: category-4 bars, and a category-1 event with the cash dividend that gives the
// row's pre_close wherever it is not the previous close.
struct Served {
  std::vector<RawBar> bars; // oldest first
  std::vector<XdxrEvent> events;
};

Served served_from(const std::string& file, const std::string& code, Market market) {
  std::ifstream in(k_sample / file);
  std::string line;
  std::getline(in, line);
  std::vector<std::vector<std::string>> rows;
  while (std::getline(in, line)) {
    std::vector<std::string> fields;
    std::stringstream split(line);
    for (std::string field; std::getline(split, field, ',');) {
      fields.push_back(field);
    }
    rows.push_back(fields);
  }
  std::reverse(rows.begin(), rows.end()); // the files are newest first
  Served out;
  for (const auto& row : rows) {
    RawBar bar;
    bar.day = *domain::Date::from_yyyymmdd(std::stoll(row[1]));
    bar.open_mils = mils(row[2]);
    bar.high_mils = mils(row[3]);
    bar.low_mils = mils(row[4]);
    bar.close_mils = mils(row[5]);
    bar.volume = static_cast<float>(std::llround(std::stod(row[9]) * 100));
    bar.amount = static_cast<float>(std::stod(row[10]) * 1000);
    const auto pre_close_mils = mils(row[6]);
    if (!out.bars.empty() && out.bars.back().close_mils != pre_close_mils) {
      XdxrEvent event{market, code, bar.day, 1, 0, 0, 0, 0};
      event.cash = static_cast<float>(static_cast<double>(out.bars.back().close_mils - pre_close_mils) / 100.0);
      out.events.push_back(event);
    }
    out.bars.push_back(bar);
  }
  return out;
}

// A month of SZSE's list that is never reached (the shipped calendar covers the days asked).
http::Outcome offline(domain::Date) { return http::Failure{"no network in the tests"}; }

// SZSE's monthList as a test answers it: `answer` gets the month each GET asks ("?month=YYYY-MM").
struct MonthList final : http::Gateway {
  std::function<http::Outcome(domain::Date month)> answer = offline;

  http::Outcome send(const http::Call& call) override {
    REQUIRE(call.target.starts_with("?month="));
    return answer(date(call.target.substr(7) + "-01"));
  }
};

struct TdxRunRig {
  test::TempDir dir;
  store::SqliteBarStore store{dir / "fetched.db"};
  test::FakeTdx tdx;
  Client client{tdx, ClientSettings{{"h1:7709", "h2:7709"}, 1}};
  MonthList months;

  TdxRunRig() {
    const auto heng = served_from("600276.SH.csv", "600276", Market::sh);
    const auto ping = served_from("000001.SZ.csv", "000001", Market::sz);
    tdx.bars["600276"] = heng.bars;
    tdx.events["600276"] = heng.events;
    tdx.bars["000001"] = ping.bars;
    tdx.events["000001"] = ping.events;
    // D20: the funds are taken (these have no bars here), the indices only when named (none is).
    tdx.listed[0] = {"000001", "399001", "159915"};
    tdx.listed[1] = {"600276", "000001", "510300"}; // 000001.SH is an index
  }

  // A run as `ashare fetch tdx` makes one: a provider of its own over the client.
  FetchReport fetch(FetchOptions options) {
    TdxProvider provider(client, months);
    return run_fetch((dir / "fetched.db").string(), provider, options);
  }
};

FetchOptions window(const std::string& from, std::chrono::system_clock::time_point now) {
  FetchOptions options;
  options.from = date(from);
  options.now = now;
  return options;
}

std::vector<domain::Bar> bars_of(store::BarStore& store, const std::string& symbol) {
  return store.load_bars(symbol, date("1990-01-01"), date("2099-12-31"), domain::SortOrder::asc, 100000);
}

// The rows of the sample file `name` dated in [from, to] (YYYYMMDD), as a Tushare daily file.
std::filesystem::path daily_file(const test::TempDir& dir, const char* name, const std::string& from,
                                 const std::string& to) {
  const auto path = dir / (std::string(name) + "-" + from + "-" + to + ".csv");
  std::ofstream out(path);
  std::ifstream in(k_sample / name);
  std::string line;
  std::getline(in, line);
  out << line << "\n";
  while (std::getline(in, line)) {
    const auto day = line.substr(10, 8);
    if (day >= from && day <= to) {
      out << line << "\n";
    }
  }
  return path;
}

std::size_t symbol_rows(const std::vector<store::LedgerDay>& ledger) {
  return static_cast<std::size_t>(
      std::count_if(ledger.begin(), ledger.end(), [](const auto& row) { return !row.symbol.empty(); }));
}

// D20: the ledger's rows of `kind` (a day is whole per kind).
std::vector<store::LedgerDay> rows_of(std::vector<store::LedgerDay> ledger, domain::Kind kind) {
  std::erase_if(ledger, [kind](const store::LedgerDay& row) { return row.kind != kind; });
  return ledger;
}

} // namespace

TEST_CASE("fetch tdx: a first run stores the A-shares listed, prices and factors as import's pre_close chain") {
  TdxRunRig rig;
  const auto report = rig.fetch(window("2021-05-06", test::at("2021-07-01", 16)));
  INFO(report.message);
  REQUIRE(report.end == FetchEnd::done);
  CHECK(report.days_stored == 40);
  CHECK(report.symbols_stored == 4); // the two stocks, and the two funds (D20) without bars
  auto asked = rig.tdx.asked_codes;
  std::sort(asked.begin(), asked.end());
  CHECK(asked == std::vector<std::string>{"000001", "159915", "510300", "600276"}); // not 399001, nor 000001.SH
  CHECK(report.rows == 80);
  CHECK(report.ledger_end == date("2021-07-01"));
  const auto all = rig.store.market().load_ledger(k_provider);
  const auto ledger = rows_of(all, domain::Kind::stock);
  CHECK(ledger.size() == 40); // whole-market rows only: the staged ones are gone
  CHECK(symbol_rows(all) == 0);
  CHECK(ledger.back().rows == 2);
  CHECK(rows_of(all, domain::Kind::fund).size() == 40); // D20: the funds' days, whole too
  CHECK(rig.store.load_symbols().size() == 2); // no index, fund or 000001.SH
  CHECK(rig.store.find_symbol("600276.SH")->source == "tdx");
  CHECK(rig.store.load_dataset_info().as_of == date("2021-07-01"));

  // The same rows imported from Tushare's daily file: the prices and the pre_close chain's
  // factors to the last bit; volume and turnover to float32's 7 digits (D18).
  test::TempDir other;
  for (const char* name : {"600276.SH.csv", "000001.SZ.csv"}) {
    store::SqliteBarStore imported(other / (std::string(name) + ".db"));
    import::ImportOptions options;
    options.format = import::SourceFormat::tushare;
    REQUIRE(import::import_file(imported, daily_file(other, name, "20210506", "20210701"), options));
    const std::string symbol = std::string(name).substr(0, 9);
    const auto fetched = bars_of(rig.store, symbol);
    const auto expected = bars_of(imported, symbol);
    REQUIRE(fetched.size() == expected.size());
    for (std::size_t i = 0; i < fetched.size(); ++i) {
      INFO(symbol << " " << fetched[i].trade_date.iso());
      CHECK(fetched[i].trade_date == expected[i].trade_date);
      CHECK(fetched[i].open == expected[i].open);
      CHECK(fetched[i].high == expected[i].high);
      CHECK(fetched[i].low == expected[i].low);
      CHECK(fetched[i].close == expected[i].close);
      CHECK(fetched[i].factor == expected[i].factor);
      CHECK(std::abs(static_cast<double>(fetched[i].volume - expected[i].volume))
            <= static_cast<double>(expected[i].volume) * 1e-7 + 0.5);
      CHECK(std::abs(fetched[i].turnover - expected[i].turnover) <= expected[i].turnover * 1e-7 + 0.005);
    }
  }
  // 000001.SZ paid a dividend in the window: the chain has a step.
  const auto ping = bars_of(rig.store, "000001.SZ");
  CHECK(ping.front().factor != ping.back().factor);

  SUBCASE("a rerun asks for nothing") {
    const auto requests = rig.client.requests();
    const auto again = rig.fetch(window("2021-05-06", test::at("2021-07-01", 18)));
    CHECK(again.end == FetchEnd::up_to_date);
    CHECK(rig.client.requests() == requests);
  }
  SUBCASE("before 15:30 the day's bar is not stored; after it, it is") {
    const auto morning = rig.fetch(window("2021-05-06", test::at("2021-07-02", 15, 29)));
    CHECK(morning.end == FetchEnd::up_to_date);
    CHECK(bars_of(rig.store, "600276.SH").back().trade_date == date("2021-07-01"));
    const auto evening = rig.fetch(window("2021-05-06", test::at("2021-07-02", 15, 30)));
    CHECK(evening.end == FetchEnd::done);
    CHECK(evening.days_stored == 1);
    CHECK(bars_of(rig.store, "600276.SH").back().trade_date == date("2021-07-02"));
    // The chain continues: the new bar's factor is the stored chain's times its step.
    CHECK(bars_of(rig.store, "000001.SZ").back().factor == ping.back().factor);
  }
}

TEST_CASE("fetch tdx: today's bar sent before 15:30 is never stored") {
  TdxRunRig rig;
  // The servers already answer a bar for 2021-07-02 at 10:00 UTC+8: not final, left out.
  const auto report = rig.fetch(window("2021-06-01", test::at("2021-07-02", 10)));
  REQUIRE(report.end == FetchEnd::done);
  CHECK(report.ledger_end == date("2021-07-01"));
  CHECK(bars_of(rig.store, "600276.SH").back().trade_date == date("2021-07-01"));
}

TEST_CASE("fetch tdx: cut short, it keeps whole symbols and resumes with the next") {
  TdxRunRig rig;
  rig.tdx.failing_codes = {"600276"};
  const auto cut = rig.fetch(window("2021-06-01", test::at("2021-07-01", 16)));
  CHECK(cut.end == FetchEnd::source_failing);
  CHECK(exit_status(cut.end) == 3);
  CHECK(cut.message.find("600276.SH") != std::string::npos);
  CHECK(cut.symbols_stored == 3); // 000001.SZ, then the funds 159915.SZ and 510300.SH (D20)
  CHECK(bars_of(rig.store, "000001.SZ").size() == 22);
  CHECK(bars_of(rig.store, "600276.SH").empty());
  auto ledger = rig.store.market().load_ledger(k_provider);
  CHECK(ledger.size() == 3 * 22); // the three symbols' staged days, no whole-market day
  CHECK(symbol_rows(ledger) == 3 * 22);
  CHECK_FALSE(cut.ledger_end.has_value());

  rig.tdx.failing_codes.clear();
  rig.tdx.asked_codes.clear();
  const auto resumed = rig.fetch(window("2021-06-01", test::at("2021-07-01", 16)));
  REQUIRE(resumed.end == FetchEnd::done);
  CHECK(resumed.symbols_stored == 1);
  CHECK(rig.tdx.asked_codes == std::vector<std::string>{"600276"}); // 000001 is not asked again
  CHECK(resumed.days_stored == 22);
  ledger = rows_of(rig.store.market().load_ledger(k_provider), domain::Kind::stock);
  CHECK(ledger.size() == 22);
  CHECK(symbol_rows(ledger) == 0);
  CHECK(ledger.back().rows == 2);
}

TEST_CASE("fetch tdx: the indices asked, in an index's layout and units; a run of one kind leaves no day whole (D20)") {
  TdxRunRig rig;
  // 399001.SZ served as an index is: 000001.SZ's rows, each bar 4 bytes longer, volume in lots.
  auto index = rig.tdx.bars["000001"];
  for (auto& bar : index) {
    bar.volume = bar.volume / 100 + 0.4f; // lots, not all whole
    bar.up_count = 1;
    bar.down_count = 2;
  }
  rig.tdx.bars["399001"] = index;
  rig.tdx.index_codes.insert("399001");
  auto options = window("2021-06-01", test::at("2021-07-01", 16));
  options.indices = {"399001.SZ", "000300.SH"};
  options.kinds = {domain::Kind::index};
  const auto report = rig.fetch(options);
  INFO(report.message);
  REQUIRE(report.end == FetchEnd::done);
  CHECK(report.symbols_stored == 2);
  CHECK(rig.tdx.asked_codes == std::vector<std::string>{"000300", "399001"}); // no stock, no fund
  const auto stored = bars_of(rig.store, "399001.SZ");
  REQUIRE(stored.size() == 22);
  for (const auto& bar : stored) {
    const auto it = std::find_if(index.begin(), index.end(), [&](const RawBar& raw) { return raw.day == bar.trade_date; });
    REQUIRE(it != index.end());
    CHECK(bar.volume == std::llround(static_cast<double>(it->volume)) * 100);
    CHECK(bar.factor == 1.0);
  }
  // Only indices were asked: the indices' days are whole (each index keeps its own rows, so that
  // one added later is planned from them), none of the stocks' (D20's ledger per kind).
  const auto ledger = rig.store.market().load_ledger(k_provider);
  CHECK(rows_of(ledger, domain::Kind::stock).empty());
  CHECK(rows_of(ledger, domain::Kind::index).size() == 22 + 2 * 22);
  CHECK(symbol_rows(ledger) == 2 * 22);
  CHECK_FALSE(report.ledger_end.has_value());
}

TEST_CASE("fetch tdx: a host that times out is left for the next") {
  TdxRunRig rig;
  rig.tdx.faults["h1:7709"] = test::FakeTdx::Fault::times_out;
  const auto report = rig.fetch(window("2021-06-01", test::at("2021-07-01", 16)));
  REQUIRE(report.end == FetchEnd::done);
  CHECK(rig.client.host() == "h2:7709");
  SUBCASE("every host failing ends the fetch with exit 3") {
    rig.tdx.faults["h2:7709"] = test::FakeTdx::Fault::times_out;
    const auto failed = rig.fetch(window("2021-05-06", test::at("2021-07-01", 16)));
    CHECK(exit_status(failed.end) == 3);
    CHECK(failed.message.find("every TDX host failed") != std::string::npos);
  }
}

TEST_CASE("fetch tdx: a garbage bar stops the fetch naming host, code and day") {
  TdxRunRig rig;
  auto& bars = rig.tdx.bars["600276"];
  const auto it = std::find_if(bars.begin(), bars.end(), [](const RawBar& bar) { return bar.day == date("2021-06-15"); });
  REQUIRE(it != bars.end());
  it->volume = 5.9e-39F; // hikyuu #297
  const auto report = rig.fetch(window("2021-06-01", test::at("2021-07-01", 16)));
  CHECK(report.end == FetchEnd::refused_row);
  CHECK(exit_status(report.end) == 1);
  CHECK(report.message.find("h1:7709") != std::string::npos);
  CHECK(report.message.find("600276.SH on 2021-06-15") != std::string::npos);
  CHECK(bars_of(rig.store, "600276.SH").empty()); // nothing of that symbol

  SUBCASE("--skip-invalid writes the rest and leaves that day missing") {
    auto options = window("2021-06-01", test::at("2021-07-01", 16));
    options.skip_invalid = true;
    const auto skipped = rig.fetch(options);
    REQUIRE(skipped.end == FetchEnd::done);
    REQUIRE(skipped.warnings.size() == 2); // the calendar's refresh, offline here, and the bar
    CHECK(skipped.warnings[1] == "tdx (h1:7709): 600276.SH on 2021-06-15: volume: volume 5.9e-39 is not a "
                                 "whole number of shares (left out, the day's bar stays missing)");
    const auto stored = bars_of(rig.store, "600276.SH");
    CHECK(stored.size() == 21);
    CHECK(std::none_of(stored.begin(), stored.end(), [](const auto& bar) { return bar.trade_date == date("2021-06-15"); }));
  }
}

TEST_CASE("fetch tdx: a bar on a closed day is refused") {
  TdxRunRig rig;
  auto& bars = rig.tdx.bars["000001"];
  auto saturday = bars.back();
  saturday.day = date("2021-06-12"); // a Saturday (and the Dragon Boat holiday's)
  bars.insert(std::find_if(bars.begin(), bars.end(), [](const RawBar& bar) { return date("2021-06-12") < bar.day; }),
              saturday);
  const auto report = rig.fetch(window("2021-06-01", test::at("2021-07-01", 16)));
  CHECK(report.end == FetchEnd::refused_row);
  CHECK(report.message.find("000001.SZ on 2021-06-12") != std::string::npos);
  CHECK(report.message.find("closed day") != std::string::npos);
}

TEST_CASE("fetch tdx: naming symbols fetches those and records them, not the market") {
  TdxRunRig rig;
  auto options = window("2021-06-01", test::at("2021-07-01", 16));
  options.symbols = {"600276.SH"};
  const auto report = rig.fetch(options);
  REQUIRE(report.end == FetchEnd::done);
  CHECK(rig.store.load_symbols().size() == 1);
  const auto ledger = rig.store.market().load_ledger(k_provider);
  CHECK(ledger.size() == 22);
  CHECK(symbol_rows(ledger) == 22);
  CHECK(rig.tdx.asked_codes == std::vector<std::string>{"600276"});
  CHECK_FALSE(report.ledger_end.has_value());
}

TEST_CASE("fetch tdx: a last day the servers hold for under 90% of the market is asked again") {
  TdxRunRig rig;
  REQUIRE(rig.fetch(window("2021-06-01", test::at("2021-06-30", 16))).end == FetchEnd::done);
  auto& bars = rig.tdx.bars["600276"];
  const auto full = bars;
  std::erase_if(bars, [](const RawBar& bar) { return bar.day == date("2021-07-01"); });
  const auto early = rig.fetch(window("2021-06-01", test::at("2021-07-01", 16)));
  CHECK(early.end == FetchEnd::not_yet_published);
  CHECK(exit_status(early.end) == 0);
  CHECK(early.ledger_end == date("2021-06-30"));
  CHECK(symbol_rows(rig.store.market().load_ledger(k_provider))
        == 0); // asked again next run, by every symbol
  bars = full;
  const auto later = rig.fetch(window("2021-06-01", test::at("2021-07-01", 17)));
  CHECK(later.end == FetchEnd::done);
  CHECK(later.ledger_end == date("2021-07-01"));
  CHECK(bars_of(rig.store, "600276.SH").back().trade_date == date("2021-07-01"));
}

TEST_CASE("fetch tdx: the calendar is refreshed from SZSE's monthList, a failure is a warning") {
  TdxRunRig rig;
  std::vector<std::string> asked;
  rig.months.answer = [&](domain::Date month) -> http::Outcome {
    asked.push_back(month.iso());
    if (month == date("2021-07-01")) {
      return http::Reply{503, "busy"};
    }
    // The recorded shape: every day of the month, its weekday (1 = Sunday) and whether it is
    // open; 2021-06-30 closed here (it was open) to see the refresh land.
    std::string body = R"({"data":[)";
    for (auto day = month; day < month.plus_days(31) && day.iso().substr(0, 7) == month.iso().substr(0, 7);
         day = day.plus_days(1)) {
      const auto weekday = std::chrono::weekday(day.days()).c_encoding() + 1;
      const bool open = weekday != 1 && weekday != 7 && day != date("2021-06-14") && day != date("2021-06-30");
      body += std::string(day == month ? "" : ",") + R"({"zrxh":)" + std::to_string(weekday) + R"(,"jybz":")"
              + (open ? "1" : "0") + R"(","jyrq":")" + day.iso() + R"("})";
    }
    return http::Reply{200, body + R"(],"nowdate":"2021-07-01"})"};
  };
  for (auto& [code, bars] : rig.tdx.bars) {
    std::erase_if(bars, [](const RawBar& bar) { return bar.day == date("2021-06-30"); });
  }
  const auto report = rig.fetch(window("2021-06-01", test::at("2021-07-01", 16)));
  REQUIRE(report.end == FetchEnd::done);
  CHECK(asked == std::vector<std::string>{"2021-05-01", "2021-06-01", "2021-07-01"});
  REQUIRE(report.warnings.size() == 1);
  CHECK(report.warnings[0].find("2021-07") != std::string::npos);
  CHECK(report.warnings[0].find("HTTP 503") != std::string::npos);
  CHECK(rig.store.market().load_open_days(date("2021-06-30"), date("2021-06-30")).empty());
  CHECK(report.days_stored == 21); // 2021-06-30 is closed now (a bar there would be refused)
}

TEST_CASE("fetch tdx: --repair asks again for the missing bars, and marks what TDX lacks too") {
  TdxRunRig rig;
  auto& bars = rig.tdx.bars["600276"];
  const auto full = bars;
  // 600276.SH's 2021-06-15 is garbage and 06-16 absent at the first fetch.
  std::find_if(bars.begin(), bars.end(), [](const RawBar& bar) { return bar.day == date("2021-06-15"); })->volume = 5.9e-39F;
  std::erase_if(bars, [](const RawBar& bar) { return bar.day == date("2021-06-16"); });
  auto options = window("2021-06-01", test::at("2021-07-01", 16));
  options.skip_invalid = true;
  REQUIRE(rig.fetch(options).end == FetchEnd::done);
  auto gaps = find_gaps(rig.store, {{"600276.SH"}, std::nullopt, std::nullopt});
  REQUIRE(gaps);
  CHECK(gaps->count(GapReason::missing) == 2);

  // TDX now has 06-15 right, and still no 06-16.
  bars = full;
  std::erase_if(bars, [](const RawBar& bar) { return bar.day == date("2021-06-16"); });
  rig.tdx.asked_codes.clear();
  auto repair = window("2021-06-01", test::at("2021-07-01", 17));
  repair.repair = true;
  const auto report = rig.fetch(repair);
  REQUIRE(report.end == FetchEnd::done);
  CHECK(report.rows == 1);
  CHECK(report.absent_marked == 1);
  CHECK(report.days_stored == 2); // 06-15 and 06-16 asked again
  CHECK(rig.tdx.asked_codes == std::vector<std::string>{"600276"});
  gaps = find_gaps(rig.store, {{"600276.SH"}, std::nullopt, std::nullopt});
  REQUIRE(gaps);
  CHECK(gaps->count(GapReason::missing) == 0);
  CHECK(gaps->count(GapReason::absent_at_source) == 1);
  const auto stored = bars_of(rig.store, "600276.SH");
  CHECK(std::any_of(stored.begin(), stored.end(), [](const auto& bar) { return bar.trade_date == date("2021-06-15"); }));
  // The repaired bar joins the chain: the store is what a fetch of the whole answer stores.
  TdxRunRig clean;
  std::erase_if(clean.tdx.bars["600276"], [](const RawBar& bar) { return bar.day == date("2021-06-16"); });
  REQUIRE(clean.fetch(window("2021-06-01", test::at("2021-07-01", 16))).end == FetchEnd::done);
  const auto expected = bars_of(clean.store, "600276.SH");
  REQUIRE(stored.size() == expected.size());
  for (std::size_t i = 0; i < stored.size(); ++i) {
    CHECK(stored[i].trade_date == expected[i].trade_date);
    CHECK(stored[i].close == expected[i].close);
    CHECK(stored[i].factor == expected[i].factor);
  }

  SUBCASE("a second repair has nothing to do") {
    const auto again = rig.fetch(repair);
    CHECK(again.end == FetchEnd::up_to_date);
  }
}
