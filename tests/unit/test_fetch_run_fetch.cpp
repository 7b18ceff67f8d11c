// The run's rules (D18, D19), once for every provider, against a fake one in each shape: the
// plan, --dry-run, up to date, the lock, D18's 90%, the backward chain, the commits and what a run
// cut short keeps, --repair, --max-lag, the report, warnings said once, progress from one thread.
// The providers' own tests (test_fetch_tushare_run.cpp, test_fetch_tdx_run.cpp) run them against
// their wire formats.
#include "fake_provider.hpp"
#include "testutil.hpp"

#include "core/fetch/gaps.hpp"
#include "core/fetch/run_fetch.hpp"
#include "core/store/fetch_lock.hpp"
#include "core/store/sqlite_bar_store.hpp"

#include <doctest/doctest.h>

using namespace ashare;
using namespace ashare::fetch;
using test::date;

namespace {

// The open days of 2024-01-02..2024-01-12 (1 January is a holiday).
const std::vector<std::string> k_days{"2024-01-02", "2024-01-03", "2024-01-04", "2024-01-05", "2024-01-08",
                                      "2024-01-09", "2024-01-10", "2024-01-11", "2024-01-12"};

FetchOptions from(const std::string& first, const std::string& now = "2024-01-12") {
  FetchOptions options;
  options.from = date(first);
  options.now = test::at(now, 16);
  return options;
}

struct RunRig {
  test::TempDir dir;
  std::string path = (dir / "run.db").string();
  store::SqliteBarStore store{dir / "run.db"};
  test::FakeProvider provider;

  // A market of `symbols`, each with a bar on every open day of k_days, closes 10, 11, 12, ...
  explicit RunRig(UnitShape shape, std::vector<std::string> symbols = {"000001.SZ", "600519.SH"})
      : provider(shape) {
    for (const auto& symbol : symbols) {
      double close = 10;
      for (const auto& day : k_days) {
        provider.closes[symbol][date(day)] = close++;
      }
    }
  }

  FetchReport fetch(const FetchOptions& options, const Progress& progress = {}) {
    provider.asked.clear();
    return run_fetch(path, provider, options, progress);
  }

  std::vector<domain::Bar> bars(const std::string& symbol) {
    return store.load_bars(symbol, date("2000-01-01"), date("2099-12-31"), domain::SortOrder::asc, 1000);
  }

  std::size_t whole_days() {
    const auto ledger = store.market().load_ledger("fake");
    return static_cast<std::size_t>(std::count_if(ledger.begin(), ledger.end(), [](const auto& row) { return row.symbol.empty(); }));
  }
};

const UnitShape k_shapes[] = {UnitShape::market_day, UnitShape::symbol_span};

} // namespace

TEST_CASE("run_fetch: the plan's units are asked, written and recorded, and a rerun is up to date") {
  for (const auto shape : k_shapes) {
    CAPTURE(shape == UnitShape::market_day);
    RunRig rig(shape);
    const auto report = rig.fetch(from("2024-01-02"));
    REQUIRE(report.end == FetchEnd::done);
    CHECK(report.plan->days.size() == 9);
    CHECK(report.days_stored == 9);
    CHECK(report.rows == 18);
    CHECK(report.symbols_stored == (shape == UnitShape::market_day ? 0 : 2));
    CHECK(report.requests == rig.provider.requests());
    CHECK(report.ledger_end == date("2024-01-12"));
    CHECK(report.days_behind == 0);
    CHECK(rig.whole_days() == 9);
    CHECK(rig.store.market().load_ledger("fake").size()
          == 9); // a span's staged rows gave way to whole days
    CHECK(rig.provider.calendars_asked == 1);
    CHECK(rig.provider.references_asked == 1);
    REQUIRE(rig.provider.asked.size() == (shape == UnitShape::market_day ? 9u : 2u));
    CHECK(rig.provider.asked.front().days.front() == date("2024-01-02"));
    CHECK(rig.provider.asked.back().days.back() == date("2024-01-12"));
    CHECK(rig.bars("600519.SH").size() == 9);
    CHECK(rig.store.find_symbol("600519.SH")->source == "fake");
    CHECK(rig.store.load_dataset_info().as_of == date("2024-01-12"));

    const auto again = rig.fetch(from("2024-01-02"));
    CHECK(again.end == FetchEnd::up_to_date);
    CHECK(rig.provider.asked.empty());
    CHECK(rig.provider.references_asked == 1); // nothing to fetch: the references are not asked
  }
}

TEST_CASE("run_fetch: --dry-run plans with the provider's estimate, asks and writes nothing") {
  for (const auto shape : k_shapes) {
    RunRig rig(shape);
    auto options = from("2024-01-08");
    options.dry_run = true;
    auto report = rig.fetch(options);
    CHECK(report.end == FetchEnd::planned);
    CHECK(exit_status(report.end) == 0);
    CHECK(report.plan->days.size() == 5);
    CHECK(report.estimated_requests == 500); // 5 days, the store's 0 symbols
    options.symbols = {"600519.SH"};
    report = rig.fetch(options);
    CHECK(report.estimated_requests == -501); // 5 days, 1 symbol named
    CHECK(rig.provider.calendars_asked == 0);
    CHECK(rig.provider.asked.empty());
    CHECK(rig.store.load_symbols().empty());
  }
}

TEST_CASE("run_fetch: a second run on a store whose fetch lock is held says so and does nothing") {
  RunRig rig(UnitShape::market_day);
  const auto held = store::FetchLock::try_take(rig.path);
  REQUIRE(held);
  const auto report = rig.fetch(from("2024-01-02"));
  CHECK(report.end == FetchEnd::another_running);
  CHECK(exit_status(report.end) == 0);
  CHECK(report.message == "another fetch is running on this store (" + rig.path + "); nothing done");
  CHECK(rig.provider.calendars_asked == 0);
  CHECK(rig.store.load_symbols().empty());
}

TEST_CASE("run_fetch: the last completed day under 90% of the day before is not yet published") {
  for (const auto shape : k_shapes) {
    CAPTURE(shape == UnitShape::market_day);
    std::vector<std::string> symbols;
    for (int i = 1; i <= 10; ++i) {
      symbols.push_back("60000" + std::to_string(i % 10) + ".SH");
    }
    RunRig rig(shape, symbols);
    rig.provider.closes["600001.SH"].erase(date("2024-01-12")); // 9 of 10: 90%, published
    REQUIRE(rig.fetch(from("2024-01-02", "2024-01-11")).end == FetchEnd::done);
    const auto report = rig.fetch(from("2024-01-02"));
    CHECK(report.end == FetchEnd::done);
    CHECK(report.ledger_end == date("2024-01-12"));

    RunRig early(shape, symbols);
    early.provider.closes["600001.SH"].erase(date("2024-01-12"));
    early.provider.closes["600002.SH"].erase(date("2024-01-12")); // 8 of 10
    const auto cut = early.fetch(from("2024-01-02"));
    CHECK(cut.end == FetchEnd::not_yet_published);
    CHECK(exit_status(cut.end) == 0);
    CHECK(cut.message == "2024-01-12 is not yet published in full at Fake (8 bars, the day before had 10): it "
                         "will be asked for again next run");
    CHECK(cut.ledger_end == date("2024-01-11"));
    CHECK(early.store.market().load_ledger("fake").size()
          == 8); // nothing staged of 2024-01-12: asked again
    early.provider.closes["600001.SH"][date("2024-01-12")] = 20;
    early.provider.closes["600002.SH"][date("2024-01-12")] = 20;
    const auto later = early.fetch(from("2024-01-02"));
    CHECK(later.end == FetchEnd::done);
    CHECK(later.ledger_end == date("2024-01-12"));
  }
}

TEST_CASE("run_fetch: a run cut short keeps whole units, and the next resumes with the first it lacks") {
  SUBCASE("a market's days") {
    RunRig rig(UnitShape::market_day);
    rig.provider.fails_at = std::pair{std::string(), date("2024-01-08")};
    const auto cut = rig.fetch(from("2024-01-02"));
    CHECK(cut.end == FetchEnd::source_failing);
    CHECK(exit_status(cut.end) == 3);
    CHECK(cut.message == "fake: it broke at  2024-01-08");
    CHECK(cut.days_stored == 4);
    CHECK(cut.ledger_end == date("2024-01-05"));
    CHECK(rig.bars("000001.SZ").size() == 4);
    rig.provider.fails_at.reset();
    const auto resumed = rig.fetch(from("2024-01-02"));
    CHECK(resumed.end == FetchEnd::done);
    CHECK(resumed.days_stored == 5);
    CHECK(rig.provider.asked.front().days.front() == date("2024-01-08"));
  }
  SUBCASE("a symbol's spans") {
    RunRig rig(UnitShape::symbol_span);
    rig.provider.fails_at = std::pair{std::string("600519.SH"), date("2024-01-02")};
    const auto cut = rig.fetch(from("2024-01-02"));
    CHECK(cut.end == FetchEnd::source_failing);
    CHECK(cut.symbols_stored == 1);
    CHECK(rig.bars("000001.SZ").size() == 9);
    CHECK(rig.bars("600519.SH").empty());
    CHECK(rig.store.market().load_ledger("fake").size() == 9); // 000001.SZ's staged days
    CHECK_FALSE(cut.ledger_end.has_value());
    rig.provider.fails_at.reset();
    const auto resumed = rig.fetch(from("2024-01-02"));
    CHECK(resumed.end == FetchEnd::done);
    CHECK(resumed.symbols_stored == 1);
    REQUIRE(rig.provider.asked.size() == 1);
    CHECK(rig.provider.asked.front().symbols == std::vector<std::string>{"600519.SH"});
    CHECK(rig.whole_days() == 9);
  }
}

TEST_CASE("run_fetch: a bar that fails a check stops the run before its unit, --skip-invalid writes the rest") {
  for (const auto shape : k_shapes) {
    CAPTURE(shape == UnitShape::market_day);
    const std::string unit = shape == UnitShape::market_day ? "day" : "symbol";
    RunRig rig(shape);
    rig.provider.bad_bars = {{"600519.SH", date("2024-01-04")}};
    const auto refused = rig.fetch(from("2024-01-02"));
    CHECK(refused.end == FetchEnd::refused_row);
    CHECK(exit_status(refused.end) == 1);
    CHECK(refused.message == "fake: 600519.SH on 2024-01-04: high: high 1 is below low 2; nothing of that " + unit
                                 + " was written (--skip-invalid writes the rest)");
    CHECK(rig.bars("600519.SH").size() == (shape == UnitShape::market_day ? 2u : 0u));

    auto skipping = from("2024-01-02");
    skipping.skip_invalid = true;
    const auto skipped = rig.fetch(skipping);
    CHECK(skipped.end == FetchEnd::done);
    REQUIRE(skipped.warnings.size() == 1);
    CHECK(skipped.warnings[0] == "fake: 600519.SH on 2024-01-04: high: high 1 is below low 2 (left out, the day's "
                                 "bar stays missing)");
    CHECK(rig.bars("600519.SH").size() == 8);
    CHECK(rig.bars("000001.SZ").size() == 9);
  }
}

TEST_CASE("run_fetch: a bar on a closed day within a symbol's span stops the run, whatever --skip-invalid says") {
  RunRig rig(UnitShape::symbol_span);
  rig.provider.closes["600519.SH"][date("2024-01-06")] = 99; // a Saturday
  auto options = from("2024-01-02");
  options.skip_invalid = true;
  const auto report = rig.fetch(options);
  CHECK(report.end == FetchEnd::refused_row);
  CHECK(report.message == "fake: 600519.SH on 2024-01-06: trade_date: a bar on the closed day 2024-01-06; nothing "
                          "of that symbol was written");
  CHECK(rig.bars("600519.SH").empty());
}

TEST_CASE("run_fetch: a fetch naming symbols records them, not the whole market") {
  for (const auto shape : k_shapes) {
    RunRig rig(shape);
    auto options = from("2024-01-08");
    options.symbols = {"600519.SH"};
    const auto report = rig.fetch(options);
    REQUIRE(report.end == FetchEnd::done);
    CHECK(report.days_stored == 5);
    CHECK(rig.bars("000001.SZ").empty());
    const auto ledger = rig.store.market().load_ledger("fake");
    CHECK(ledger.size() == 5);
    CHECK(std::all_of(ledger.begin(), ledger.end(), [](const auto& row) { return row.symbol == "600519.SH"; }));
    CHECK_FALSE(report.ledger_end.has_value());
    CHECK(rig.fetch(options).end == FetchEnd::up_to_date);
  }
}

TEST_CASE("run_fetch: factors continue the stored chain, forwards and backwards, without a step") {
  for (const auto shape : k_shapes) {
    CAPTURE(shape == UnitShape::market_day);
    RunRig rig(shape, {"600519.SH"});
    // A dividend of 1 on 2024-01-04 (pre_close 10 after a close of 11) and on 2024-01-10
    // (pre_close 14 after 15).
    rig.provider.pre_closes[{"600519.SH", date("2024-01-04")}] = 10;
    rig.provider.pre_closes[{"600519.SH", date("2024-01-10")}] = 14;
    REQUIRE(rig.fetch(from("2024-01-05", "2024-01-08")).end == FetchEnd::done);
    const auto stored_first = rig.bars("600519.SH").front();
    CHECK(stored_first.factor == 1.0);
    const auto report = rig.fetch(from("2024-01-02"));
    REQUIRE(report.end == FetchEnd::done);
    const auto bars = rig.bars("600519.SH");
    REQUIRE(bars.size() == 9);
    CHECK(bars[3].factor == stored_first.factor); // the stored chain's scale never changes
    CHECK(bars[2].factor == 1.0);                 // 2024-01-04: no step into 2024-01-05
    CHECK(bars[1].factor == 10.0 / 11.0);         // the dividend of 2024-01-04, backwards
    CHECK(bars[0].factor == bars[1].factor);
    CHECK(bars[5].factor == bars[4].factor);                // forwards from the stored last bar
    CHECK(bars[6].factor == bars[5].factor * (15.0 / 14.0)); // and the dividend of 2024-01-10
    if (shape == UnitShape::market_day) {
      // The history before the stored one came as a span of its own, up to the stored first bar.
      const auto& span = rig.provider.asked.front();
      CHECK(span.shape == UnitShape::symbol_span);
      CHECK(span.days.front() == date("2024-01-02"));
      CHECK(span.days.back() == date("2024-01-05"));
    }
  }
}

TEST_CASE("run_fetch: --repair asks again for the missing bars, and marks what the source lacks") {
  for (const auto shape : k_shapes) {
    CAPTURE(shape == UnitShape::market_day);
    RunRig rig(shape);
    const auto full = rig.provider.closes;
    rig.provider.closes["600519.SH"].erase(date("2024-01-04"));
    rig.provider.closes["600519.SH"].erase(date("2024-01-09"));
    REQUIRE(rig.fetch(from("2024-01-02")).end == FetchEnd::done);
    auto gaps = find_gaps(rig.store, {{"600519.SH"}, std::nullopt, std::nullopt});
    REQUIRE(gaps);
    CHECK(gaps->count(GapReason::missing) == 2);

    rig.provider.closes = full;
    rig.provider.closes["600519.SH"].erase(date("2024-01-09")); // still lacking
    auto repair = from("2024-01-02");
    repair.repair = true;
    const auto report = rig.fetch(repair);
    REQUIRE(report.end == FetchEnd::done);
    CHECK(report.rows == 1);
    CHECK(report.absent_marked == 1);
    CHECK(report.days_stored == 2);
    CHECK(report.plan->days == std::vector{date("2024-01-04"), date("2024-01-09")});
    CHECK(report.symbols_stored == (shape == UnitShape::market_day ? 0 : 1));
    if (shape == UnitShape::market_day) {
      REQUIRE(rig.provider.asked.size() == 2);
      CHECK(rig.provider.asked[0].symbols == std::vector<std::string>{"600519.SH"});
    } else {
      REQUIRE(rig.provider.asked.size() == 1);
      CHECK(rig.provider.asked[0].days == std::vector{date("2024-01-04"), date("2024-01-09")});
    }
    gaps = find_gaps(rig.store, {{"600519.SH"}, std::nullopt, std::nullopt});
    REQUIRE(gaps);
    CHECK(gaps->count(GapReason::missing) == 0);
    CHECK(gaps->count(GapReason::absent_at_source) == 1);
    CHECK(rig.store.market().load_ledger("fake").size() == 9); // a repair writes no ledger row
    CHECK(rig.fetch(repair).end == FetchEnd::up_to_date);
  }
}

TEST_CASE("run_fetch: --max-lag ends a run that leaves the store further behind with exit 1") {
  RunRig rig(UnitShape::market_day);
  auto options = from("2024-01-02");
  options.to = date("2024-01-09");
  options.max_lag = 2;
  const auto report = rig.fetch(options);
  CHECK(report.end == FetchEnd::lagging);
  CHECK(exit_status(report.end) == 1);
  CHECK(report.days_behind == 3);
  CHECK(report.message == "the store is 3 open days behind 2024-01-12 (--max-lag 2)");
  options.max_lag = 3;
  CHECK(rig.fetch(options).end == FetchEnd::up_to_date);
}

TEST_CASE("run_fetch: a warning is said once, however many units say it") {
  for (const auto shape : k_shapes) {
    RunRig rig(shape);
    rig.provider.calendar_warnings = {"the calendar was not refreshed: offline"};
    rig.provider.unit_warnings = {"the token may not call `adj`: factors follow the pre_close chain"};
    rig.provider.closes["600519.SH"].clear();
    rig.provider.closes["000001.SZ"].erase(date("2024-01-05"));
    const auto report = rig.fetch(from("2024-01-04"));
    REQUIRE(report.end == FetchEnd::done);
    CHECK(report.warnings == std::vector<std::string>{"the calendar was not refreshed: offline",
                                                      "the token may not call `adj`: factors follow the pre_close chain",
                                                      "Fake answered no bars for 2024-01-05: recorded as an empty day"});
  }
}

TEST_CASE("run_fetch: progress comes from the calling thread, waits for the source's window included") {
  for (const auto shape : k_shapes) {
    RunRig rig(shape);
    rig.provider.waits = std::chrono::milliseconds(60000);
    const auto caller = std::this_thread::get_id();
    bool on_caller = true;
    std::vector<FetchProgress> seen;
    const auto report = rig.fetch(from("2024-01-10"), [&](const FetchProgress& progress) {
      on_caller = on_caller && std::this_thread::get_id() == caller;
      seen.push_back(progress);
    });
    REQUIRE(report.end == FetchEnd::done);
    CHECK(on_caller);
    CHECK(std::none_of(rig.provider.asked_on.begin(), rig.provider.asked_on.end(),
                       [&](const auto& id) { return id == caller; })); // asked ahead, on another thread
    CHECK(std::any_of(seen.begin(), seen.end(), [](const auto& p) { return p.waiting.count() == 60000; }));
    REQUIRE_FALSE(seen.empty());
    CHECK(seen.back().units_done == seen.back().units_total);
    CHECK(seen.back().units_total == (shape == UnitShape::market_day ? 3u : 2u));
    CHECK(seen.back().rows == 6);
    CHECK(seen.back().waiting.count() == 0);
  }
}
