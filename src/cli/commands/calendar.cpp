// ashare calendar [--from DATE] [--to DATE] [--all]: the store's trading calendar (D19) over a
// range, by default the 30 days up to today at UTC+8 (ASHARE_NOW sets "now" for tests). A range
// reaching past the calendar's span is refused: a day past its end is unknown, not closed.
#include "cli/commands/query_run.hpp"
#include "core/domain/clock.hpp"
#include "core/store/bar_store.hpp"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ashare::cli {
namespace {

using domain::Date;

struct CalendarArgs {
  std::optional<std::string> from;
  std::optional<std::string> to;
  bool all = false; // closed days too
  QueryOutputArgs output;
};

// The default range: 30 calendar days, ending today at UTC+8 (or 29 days after --from).
constexpr int k_default_days = 30;

struct CalendarDay {
  Date date;
  bool open = false;
};

// Return the range that `args` asks for, or an error message with its exit status.
Result<std::pair<Date, Date>> calendar_range(const CalendarArgs& args) {
  auto parsed_from = domain::parse_optional_iso_date(args.from, "--from");
  auto parsed_to = domain::parse_optional_iso_date(args.to, "--to");
  if (!parsed_from || !parsed_to) {
    return parsed_from ? parsed_to.error() : parsed_from.error();
  }
  auto from = *parsed_from;
  auto to = *parsed_to;
  if (!to) {
    const auto now = domain::current_instant();
    if (!now) {
      return now.error();
    }
    to = from ? from->plus_days(k_default_days - 1) : domain::date_utc8(*now);
  }
  if (!from) {
    from = to->plus_days(1 - k_default_days);
  }
  if (*from > *to) {
    return make_error(ErrorCode::invalid_parameter,
                      "--from " + from->iso() + " is after --to " + to->iso());
  }
  return std::pair{*from, *to};
}

// Return the days of [`from`, `to`]: the open ones, or every one with whether it is open.
std::vector<CalendarDay> days_of(store::BarStore& store, Date from, Date to, bool all) {
  const auto open = store.market().load_open_days(from, to);
  std::vector<CalendarDay> out;
  if (!all) {
    for (const auto& day : open) {
      out.push_back({day, true});
    }
    return out;
  }
  auto next_open = open.begin();
  for (auto day = from; day <= to; day = day.plus_days(1)) {
    const bool is_open = next_open != open.end() && *next_open == day;
    next_open += is_open ? 1 : 0;
    out.push_back({day, is_open});
  }
  return out;
}

void print_days(const std::vector<CalendarDay>& days,
                Format format,
                bool header,
                std::pair<Date, Date> span) {
  if (format == Format::table) {
    std::vector<std::vector<std::string>> rows;
    for (const auto& day : days) {
      rows.push_back({day.date.iso(), day.open ? "yes" : "no"});
    }
    print_table(std::cout, {{"DATE"}, {"OPEN"}}, rows);
  } else if (format == Format::csv) {
    std::cout << (header ? "date,open\n" : "");
    for (const auto& day : days) {
      std::cout << day.date.iso() << ',' << (day.open ? "true" : "false") << "\n";
    }
  } else {
    nlohmann::json all = nlohmann::json::array();
    for (const auto& day : days) {
      nlohmann::json item{{"date", day.date.iso()}, {"open", day.open}};
      if (format == Format::ndjson) {
        std::cout << item.dump() << "\n";
      }
      all.push_back(std::move(item));
    }
    if (format == Format::json) {
      const nlohmann::json body{
        {"calendar", {{"first", span.first.iso()}, {"last", span.second.iso()}}}, {"days", all}};
      std::cout << body.dump() << "\n";
      return;
    }
  }
  // The covered span, apart from the rows so that pipes read only days.
  note("the calendar covers " + span.first.iso() + " .. " + span.second.iso());
}

int run_calendar(const CalendarArgs& args, const Config& config) {
  if (config.base_url) {
    // D18: the calendar is the local store's; remote mode has none to show.
    return fail("calendar reads the local store's calendar; remote mode has none (unset "
                "--base-url / ASHARE_BASE_URL)",
                k_exit_usage);
  }
  auto format = choose_format(config.output_format);
  if (!format) {
    return fail(format.error().message, k_exit_usage);
  }
  const auto range = calendar_range(args);
  if (!range) {
    return fail(range.error().message, k_exit_usage);
  }
  const auto store = store::open_bar_store(config.db.string());
  const auto span = store->market().load_calendar_span();
  if (!span) {
    return fail("the store holds no calendar: import a Tushare trade_cal CSV");
  }
  const auto [from, to] = *range;
  // D19: a day outside the calendar's span is unknown, not closed.
  if (to > span->second || from < span->first) {
    const auto& day = to > span->second ? to : from;
    return fail(day.iso() + " is outside the calendar (" + span->first.iso() + " .. "
                + span->second.iso() + "): whether it is a trading day is unknown; import a "
                + "newer Tushare trade_cal CSV to extend it");
  }
  print_days(days_of(*store, from, to, args.all), *format, !args.output.no_header, *span);
  return k_exit_ok;
}

} // namespace

Action setup_calendar(CLI::App& command, GlobalFlags& flags) {
  auto args = std::make_shared<CalendarArgs>();
  command.add_option("--from", args->from, "First day (default: 29 days before --to)")
    ->type_name("DATE");
  command.add_option("--to", args->to, "Last day (default: today at UTC+8, or 29 days after --from)")
    ->type_name("DATE");
  command.add_flag("--all", args->all, "List closed days too, with OPEN no");
  add_output_options(command, flags, args->output);
  return [args](const Config& config) { return run_calendar(*args, config); };
}

} // namespace ashare::cli
