#include "fake_tushare.hpp"
#include "fetch_fakes.hpp"
#include "testutil.hpp"

#include "core/fetch/run_fetch.hpp"
#include "core/fetch/tushare/provider.hpp"
#include "core/import/factors.hpp"
#include "core/import/importer.hpp"
#include "core/store/sqlite_bar_store.hpp"

#include <doctest/doctest.h>

#include <cstring>
#include <fstream>

using namespace ashare;
using namespace ashare::fetch;
using namespace ashare::fetch::tushare;
using namespace std::chrono_literals;
using test::date;

namespace {

const std::filesystem::path k_sample = test::data_dir() / ".." / ".." / "data" / "sample" / "tushare";

struct TushareRunRig {
  test::TempDir dir;
  store::SqliteBarStore store{dir / "fetched.db"};
  test::FakeTushare source{{k_sample / "600276.SH.csv", k_sample / "000001.SZ.csv"}};
  test::FakeClock clock;
  Pacer pacer{clock, 0, 60s};
  Client client{source, pacer, clock, ClientSettings{"token", 1, 10ms, 6000}};

  // A run as `ashare fetch tushare` makes one: a provider of its own over the client.
  FetchReport fetch(FetchOptions options) {
    TushareProvider provider(client);
    return run_fetch((dir / "fetched.db").string(), provider, options);
  }
};

// The stocks' run these cases are about (D20's funds and indices: test_fetch_tushare_kinds.cpp).
FetchOptions at_now(std::chrono::system_clock::time_point now) {
  FetchOptions options;
  options.now = now;
  options.kinds = {domain::Kind::stock};
  return options;
}

FetchOptions window(const std::string& from, std::chrono::system_clock::time_point now) {
  auto options = at_now(now);
  options.from = date(from);
  return options;
}

// Write the rows of the sample files dated in [from, to] as one Tushare daily file.
std::filesystem::path daily_file(const test::TempDir& dir, const std::string& from, const std::string& to) {
  const auto path = dir / ("daily-" + from + "-" + to + ".csv");
  std::ofstream out(path);
  bool header = true;
  for (const char* name : {"600276.SH.csv", "000001.SZ.csv"}) {
    std::ifstream in(k_sample / name);
    std::string line;
    std::getline(in, line);
    if (header) {
      out << line << "\n";
      header = false;
    }
    while (std::getline(in, line)) {
      const auto day = line.substr(10, 8);
      if (day >= from && day <= to) {
        out << line << "\n";
      }
    }
  }
  return path;
}

std::vector<domain::Bar> bars_of(store::BarStore& store, const std::string& symbol) {
  return store.load_bars(symbol, date("1990-01-01"), date("2099-12-31"), domain::SortOrder::asc, 100000);
}

void check_same_bars(store::BarStore& a, store::BarStore& b, const std::string& symbol) {
  const auto left = bars_of(a, symbol);
  const auto right = bars_of(b, symbol);
  REQUIRE(left.size() == right.size());
  for (std::size_t i = 0; i < left.size(); ++i) {
    INFO(symbol << " " << left[i].trade_date.iso());
    CHECK(left[i].trade_date == right[i].trade_date);
    CHECK(std::memcmp(&left[i], &right[i], sizeof(domain::Bar)) == 0);
  }
}

} // namespace

TEST_CASE("fetch tushare: a first run stores exactly what import --format tushare stores") {
  TushareRunRig rig;
  rig.source.refused_apis = {"adj_factor", "trade_cal"};
  rig.source.page_rows_cap = 1; // every day paged in two
  const auto report = rig.fetch(window("2021-05-06", test::at("2021-07-01", 16)));
  CHECK(report.end == FetchEnd::done);
  CHECK(report.days_stored == 40);
  CHECK(report.rows == 80);
  CHECK(report.requests == rig.client.requests());
  CHECK(report.requests > 80); // daily (two pages) and suspend_d a day, and more
  CHECK(report.ledger_end == date("2021-07-01"));
  CHECK(report.warnings.size() == 2); // trade_cal and adj_factor refused: said once each
  CHECK(rig.store.load_dataset_info().as_of == date("2021-07-01"));

  test::TempDir other;
  store::SqliteBarStore imported(other / "imported.db");
  import::ImportOptions options;
  options.format = import::SourceFormat::tushare;
  REQUIRE(import::import_file(imported, daily_file(other, "20210506", "20210701"), options));
  check_same_bars(rig.store, imported, "600276.SH");
  check_same_bars(rig.store, imported, "000001.SZ");
  CHECK(rig.store.find_symbol("600276.SH")->source == "tushare-pro");
  CHECK(rig.store.find_symbol("600276.SH")->factor_origin == "pre_close_chain");

  SUBCASE("a rerun asks for nothing but the calendar") {
    const auto calls = rig.source.calls.size();
    const auto again = rig.fetch(at_now(test::at("2021-07-01", 18)));
    CHECK(again.end == FetchEnd::up_to_date);
    CHECK(rig.source.calls.size() == calls + 1);
  }
  SUBCASE("before 15:30 the day is not complete; after it, it is") {
    const auto morning = rig.fetch(at_now(test::at("2021-07-02", 15, 29)));
    CHECK(morning.end == FetchEnd::up_to_date);
    const auto evening = rig.fetch(at_now(test::at("2021-07-02", 15, 30)));
    CHECK(evening.end == FetchEnd::done);
    CHECK(evening.days_stored == 1);
  }
}

TEST_CASE("fetch tushare: with adj_factor, factors are the source's, as import --adj-factor joins them") {
  TushareRunRig rig;
  rig.source.refused_apis = {"trade_cal"};
  const auto report = rig.fetch(window("2021-05-06", test::at("2021-07-01", 16)));
  REQUIRE(report.end == FetchEnd::done);

  import::AdjFactorTable table;
  for (const auto& [key, text] : rig.source.adj) {
    table.factors[{key.first, std::stoll(key.second)}] = std::stod(text);
  }
  test::TempDir other;
  store::SqliteBarStore imported(other / "imported.db");
  import::ImportOptions options;
  options.format = import::SourceFormat::tushare;
  options.adj_factors = &table;
  REQUIRE(import::import_file(imported, daily_file(other, "20210506", "20210701"), options));
  check_same_bars(rig.store, imported, "600276.SH");
  check_same_bars(rig.store, imported, "000001.SZ");
  CHECK(rig.store.find_symbol("600276.SH")->factor_origin == "adj_factor");
}

TEST_CASE("fetch tushare: a stored chain continues forwards and backwards without a step") {
  TushareRunRig rig;
  rig.source.refused_apis = {"adj_factor", "trade_cal"};
  import::ImportOptions options;
  options.format = import::SourceFormat::tushare;
  // The store holds 2021-06-15..2021-06-30; the fetch adds the days on both sides, and the
  // bonus issue of 600276.SH on 2021-06-10 lies in the backward part.
  REQUIRE(import::import_file(rig.store, daily_file(rig.dir, "20210615", "20210630"), options));
  const auto anchor = bars_of(rig.store, "600276.SH").front();
  const auto report = rig.fetch(window("2021-05-06", test::at("2021-07-09", 16)));
  REQUIRE(report.end == FetchEnd::done);
  CHECK(report.days_stored == 46);

  test::TempDir other;
  store::SqliteBarStore whole(other / "whole.db");
  REQUIRE(import::import_file(whole, daily_file(other, "20210506", "20210709"), options));
  for (const char* symbol : {"600276.SH", "000001.SZ"}) {
    const auto fetched = bars_of(rig.store, symbol);
    const auto imported = bars_of(whole, symbol);
    REQUIRE(fetched.size() == imported.size());
    const auto fetched_anchor = std::find_if(fetched.begin(), fetched.end(), [&](const auto& bar) {
      return bar.trade_date == anchor.trade_date;
    });
    const auto index = static_cast<std::size_t>(fetched_anchor - fetched.begin());
    for (std::size_t i = 0; i < fetched.size(); ++i) {
      INFO(symbol << " " << fetched[i].trade_date.iso());
      // The same steps as one chain over the whole window, on the stored chain's scale.
      CHECK(fetched[i].factor / fetched[index].factor
            == doctest::Approx(imported[i].factor / imported[index].factor).epsilon(1e-12));
    }
  }
  const auto after = bars_of(rig.store, "600276.SH");
  const auto kept = std::find_if(after.begin(), after.end(), [&](const auto& bar) {
    return bar.trade_date == anchor.trade_date;
  });
  REQUIRE(kept != after.end());
  CHECK(kept->factor == anchor.factor); // the stored chain's scale never changes
}

TEST_CASE("fetch tushare: a bar that fails D16 stops the fetch before its day, --skip-invalid writes the rest") {
  TushareRunRig rig;
  rig.source.refused_apis = {"adj_factor", "trade_cal"};
  for (auto& row : rig.source.by_day["20210520"]) {
    if (row[0] == "000001.SZ") {
      row[3] = "1.0"; // high below open and close
    }
  }
  const auto report = rig.fetch(window("2021-05-17", test::at("2021-05-24", 16)));
  CHECK(report.end == FetchEnd::refused_row);
  CHECK(exit_status(report.end) == 1);
  CHECK(report.message.find("000001.SZ on 2021-05-20: high") != std::string::npos);
  CHECK(report.days_stored == 3);
  CHECK(rig.store.load_bars("600276.SH", date("2021-05-20"), date("2021-05-20"), domain::SortOrder::asc, 9).empty());
  CHECK(rig.store.market().load_ledger(k_provider).back().trade_date == date("2021-05-19"));

  auto skipping = window("2021-05-17", test::at("2021-05-24", 16));
  skipping.skip_invalid = true;
  const auto again = rig.fetch(skipping);
  CHECK(again.end == FetchEnd::done);
  CHECK(again.days_stored == 3);
  CHECK(again.rows == 5);
  CHECK(again.warnings.back().find("000001.SZ on 2021-05-20") != std::string::npos);
  CHECK(rig.store.load_bars("000001.SZ", date("2021-05-20"), date("2021-05-20"), domain::SortOrder::asc, 9).empty());
  CHECK(rig.store.load_bars("600276.SH", date("2021-05-20"), date("2021-05-20"), domain::SortOrder::asc, 9).size() == 1);
}

TEST_CASE("fetch tushare: a number past a double's range is read, and D16 refuses its bar") {
  TushareRunRig rig;
  rig.source.refused_apis = {"adj_factor", "trade_cal"};
  for (auto& row : rig.source.by_day["20210520"]) {
    if (row[0] == "000001.SZ") {
      row[5] = "8.488e464"; // close, sent as a JSON number
    }
  }
  const auto report = rig.fetch(window("2021-05-17", test::at("2021-05-24", 16)));
  CHECK(report.end == FetchEnd::refused_row);
  CHECK(exit_status(report.end) == 1);
  CHECK(report.message
        == "tushare-pro: 000001.SZ on 2021-05-20: close: \"8.488e464\" is out of range; nothing of that day "
           "was written (--skip-invalid writes the rest)");
  CHECK(report.days_stored == 3);
}

TEST_CASE("fetch tushare: a second bar of a symbol in a day's answer stops the fetch before its day") {
  TushareRunRig rig;
  rig.source.refused_apis = {"adj_factor", "trade_cal"};
  auto& day = rig.source.by_day["20210520"];
  day.push_back(day.front()); // the first symbol's bar, again
  const auto twice = day.front()[0];
  const auto report = rig.fetch(window("2021-05-17", test::at("2021-05-24", 16)));
  CHECK(report.end == FetchEnd::refused_row);
  CHECK(report.message.find(twice + " on 2021-05-20: ts_code: a second bar of " + twice)
        != std::string::npos);
  CHECK(report.days_stored == 3);
  CHECK(rig.store.market().load_ledger(k_provider).back().trade_date == date("2021-05-19"));

  auto skipping = window("2021-05-17", test::at("2021-05-24", 16));
  skipping.skip_invalid = true;
  const auto again = rig.fetch(skipping);
  CHECK(again.end == FetchEnd::done);
  CHECK(again.rows == 6); // both symbols' bars of 2021-05-20 to 2021-05-24, the first kept
  CHECK(again.warnings.back().find("(left out, the first is written)") != std::string::npos);
  CHECK(rig.store.load_bars(twice, date("2021-05-20"), date("2021-05-20"), domain::SortOrder::asc, 9).size() == 1);
}

TEST_CASE("fetch tushare: the last day with under 90 percent of the day before rows is not yet published") {
  TushareRunRig rig;
  rig.source.refused_apis = {"adj_factor", "trade_cal"};
  rig.source.by_day["20210524"].pop_back();
  const auto report = rig.fetch(window("2021-05-17", test::at("2021-05-24", 16)));
  CHECK(report.end == FetchEnd::not_yet_published);
  CHECK(exit_status(report.end) == 0);
  CHECK(report.days_stored == 5);
  CHECK(rig.store.market().load_ledger(k_provider).back().trade_date == date("2021-05-21"));
  CHECK(rig.store.load_dataset_info().as_of == date("2021-05-21"));
}

TEST_CASE("fetch tushare: --dry-run plans and touches nothing") {
  TushareRunRig rig;
  auto options = window("2021-05-17", test::at("2021-05-24", 16));
  options.dry_run = true;
  const auto report = rig.fetch(options);
  CHECK(report.end == FetchEnd::planned);
  CHECK(report.plan->days.size() == 6);
  CHECK(report.estimated_requests == 23);
  CHECK(rig.source.calls.empty());
  CHECK(rig.store.load_symbols().empty());
}

TEST_CASE("fetch tushare: the daily quota and a refused token end the fetch with exit 4") {
  TushareRunRig rig;
  rig.source.override_reply = [](const nlohmann::json& request) -> std::optional<std::string> {
    if (request["api_name"] == "daily") {
      return nlohmann::json{{"code", 40203}, {"msg", "抱歉，您每天最多访问该接口50000次"}}.dump();
    }
    return std::nullopt;
  };
  rig.source.refused_apis = {"adj_factor", "trade_cal"};
  const auto quota = rig.fetch(window("2021-05-17", test::at("2021-05-24", 16)));
  CHECK(quota.end == FetchEnd::quota_or_token);
  CHECK(exit_status(quota.end) == 4);
  rig.source.override_reply = [](const nlohmann::json&) -> std::optional<std::string> {
    return nlohmann::json{{"code", 40101}, {"msg", "您的token不对，请确认。"}}.dump();
  };
  const auto token = rig.fetch(window("2021-05-17", test::at("2021-05-24", 16)));
  CHECK(token.end == FetchEnd::quota_or_token);
  CHECK(rig.store.load_symbols().empty());
}

TEST_CASE("fetch tushare: a fetch naming symbols records them in the ledger, not the whole market") {
  TushareRunRig rig;
  rig.source.refused_apis = {"adj_factor", "trade_cal"};
  auto options = window("2021-05-17", test::at("2021-05-24", 16));
  options.symbols = {"600276.SH"};
  const auto report = rig.fetch(options);
  CHECK(report.end == FetchEnd::done);
  CHECK(report.rows == 6);
  CHECK_FALSE(rig.store.find_symbol("000001.SZ"));
  const auto ledger = rig.store.market().load_ledger(k_provider);
  REQUIRE(ledger.size() == 6);
  CHECK(ledger.front().symbol == "600276.SH");
  CHECK_FALSE(report.ledger_end.has_value());
}

TEST_CASE("fetch tushare: bse_mapping refreshes the Beijing code aliases (D19)") {
  TushareRunRig rig;
  rig.source.refused_apis = {"trade_cal"};
  const auto shipped = rig.store.market().load_aliases();
  REQUIRE(shipped.size() == 248);
  SUBCASE("a mapping that changed is written, and the generation moves") {
    rig.source.bse_mapping = {{"838163.BJ", "920163.BJ"}, {"837023.BJ", "920999.BJ"}};
    const auto before = rig.store.load_generation();
    const auto report = rig.fetch(window("2021-06-28", test::at("2021-07-01", 16)));
    REQUIRE(report.end == FetchEnd::done);
    CHECK(rig.source.count_calls("bse_mapping") == 1);
    const auto aliases = rig.store.market().load_aliases();
    CHECK(aliases.size() == 248);
    CHECK(std::find(aliases.begin(), aliases.end(), store::CodeAlias{"837023.BJ", "920999.BJ"}) != aliases.end());
    CHECK(rig.store.load_generation() > before);
    CHECK(std::any_of(report.warnings.begin(), report.warnings.end(), [](const std::string& warning) {
      return warning == "the Beijing code aliases changed for 1 code (Tushare `bse_mapping`)";
    }));
  }
  SUBCASE("the same mapping changes nothing and says nothing") {
    const auto report = rig.fetch(window("2021-06-28", test::at("2021-07-01", 16)));
    REQUIRE(report.end == FetchEnd::done);
    CHECK(rig.store.market().load_aliases() == shipped);
    CHECK(std::none_of(report.warnings.begin(), report.warnings.end(), [](const std::string& warning) {
      return warning.find("alias") != std::string::npos || warning.find("bse_mapping") != std::string::npos;
    }));
  }
  SUBCASE("a token without the points keeps the stored table, said once") {
    rig.source.refused_apis.insert("bse_mapping");
    const auto report = rig.fetch(window("2021-06-28", test::at("2021-07-01", 16)));
    REQUIRE(report.end == FetchEnd::done);
    CHECK(rig.store.market().load_aliases() == shipped);
    CHECK(std::count_if(report.warnings.begin(), report.warnings.end(), [](const std::string& warning) {
            return warning.find("bse_mapping") != std::string::npos;
          }) == 1);
  }
  SUBCASE("a row that maps no Beijing code is refused, the stored table kept") {
    rig.source.bse_mapping = {{"600519.SH", "920519.BJ"}};
    const auto report = rig.fetch(window("2021-06-28", test::at("2021-07-01", 16)));
    REQUIRE(report.end == FetchEnd::done);
    CHECK(rig.store.market().load_aliases() == shipped);
    CHECK(std::any_of(report.warnings.begin(), report.warnings.end(), [](const std::string& warning) {
      return warning.find("the code aliases were not refreshed") != std::string::npos;
    }));
  }
}

TEST_CASE("D18: a reference table that cannot be refreshed but for quota or token is a warning, the bars are stored") {
  TushareRunRig rig;
  rig.source.refused_apis = {"adj_factor"}; // trade_cal: the fake knows no such API (40101)
  std::string failing_api;
  std::string reply;
  rig.source.override_reply = [&](const nlohmann::json& request) -> std::optional<std::string> {
    if (request["api_name"] == failing_api) {
      return reply;
    }
    return std::nullopt;
  };
  const auto refusal = [](int code, const std::string& msg) {
    return nlohmann::json{{"request_id", "x"}, {"code", code}, {"msg", msg}, {"data", nullptr}}.dump();
  };
  const auto warned = [](const FetchReport& report, const std::string& part) {
    return std::count_if(report.warnings.begin(), report.warnings.end(), [&](const std::string& warning) {
      return warning.find(part) != std::string::npos;
    });
  };
  struct Case {
    const char* api;
    std::string reply;
    std::string warning;       // what the one warning says
    std::size_t suspend_calls; // suspend_d asked (its tries), at most once a run
  };
  const std::vector<Case> cases{
      {"bse_mapping", refusal(40101, "请指定正确的接口名"),
       "the code aliases were not refreshed: Tushare `bse_mapping` refused the call (code 40101): 请指定正确的接口名", 4},
      {"stock_basic", refusal(40001, "请求参数格式错误"),
       "the listings were not refreshed: Tushare `stock_basic` refused the call (code 40001): 请求参数格式错误", 4},
      {"stock_basic", refusal(-2002, "抱歉，您没有权限访问该接口"),
       "the listings were not refreshed: the token may not call Tushare `stock_basic` (code -2002): 抱歉，您没有权限访问该接口", 4},
      {"suspend_d", refusal(40101, "请指定正确的接口名"),
       "the suspensions were not refreshed: Tushare `suspend_d` refused the call (code 40101): 请指定正确的接口名", 1},
      // A reply it cannot read: the client tries again (--retries), then the table is left.
      {"bse_mapping", "<html>502 Bad Gateway</html>", "the code aliases were not refreshed: Tushare `bse_mapping` kept failing (2 tries)", 4},
      {"suspend_d", "{\"code\":0,\"data\":", "the suspensions were not refreshed: Tushare `suspend_d` kept failing (2 tries)", 2},
      {"trade_cal", refusal(40101, "请指定正确的接口名"),
       "the calendar was not refreshed: Tushare `trade_cal` refused the call (code 40101): 请指定正确的接口名", 4},
  };
  for (const auto& c : cases) {
    SUBCASE(c.warning.c_str()) {
      failing_api = c.api;
      reply = c.reply;
      const auto report = rig.fetch(window("2021-06-28", test::at("2021-07-01", 16)));
      CHECK_MESSAGE(report.end == FetchEnd::done, report.message);
      CHECK(report.days_stored == 4);
      CHECK(report.rows == 8);
      CHECK(bars_of(rig.store, "600276.SH").size() == 4);
      CHECK(warned(report, c.warning) == 1);
      CHECK(warned(report, std::string("`") + c.api + "`") == 1); // said once, not once a day
      // Suspensions that failed are asked no more in the run: the same answer every day would
      // be a call (and its tries) a day.
      CHECK(rig.source.count_calls("suspend_d") == c.suspend_calls);
      CHECK(rig.store.market().load_aliases().size() == 248); // the stored (shipped) table kept
    }
  }
  SUBCASE("the daily quota or a refused token on a reference table still ends the fetch (exit 4)") {
    for (const char* api : {"bse_mapping", "stock_basic", "suspend_d", "trade_cal"}) {
      INFO(api);
      failing_api = api;
      reply = refusal(40203, "抱歉，您每天最多访问该接口50000次");
      const auto quota = rig.fetch(window("2021-06-28", test::at("2021-07-01", 16)));
      CHECK(quota.end == FetchEnd::quota_or_token);
      reply = refusal(40101, "您的token不对，请确认。");
      const auto token = rig.fetch(window("2021-06-28", test::at("2021-07-01", 16)));
      CHECK(token.end == FetchEnd::quota_or_token);
      CHECK(exit_status(token.end) == 4);
    }
    CHECK(rig.store.load_symbols().empty());
  }
}
