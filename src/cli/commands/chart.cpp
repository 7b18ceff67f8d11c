// ashare chart SYMBOL [FROM] [TO]: a candlestick chart with a volume pane and optional moving
// averages, drawn in the terminal or written as SVG. Bars come from the local store or the remote
// exactly as `ashare bars` gets them (D8), with the same errors and exit statuses.
#include "cli/chart/layout.hpp"
#include "cli/chart/overlay.hpp"
#include "cli/chart/svg.hpp"
#include "cli/chart/terminal.hpp"
#include "cli/commands/query_run.hpp"
#include "core/api/bars_request.hpp"
#include "core/api/indicator_request.hpp"
#include "core/api/params.hpp"
#include "core/auth/plan.hpp"
#include "core/domain/number.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <memory>
#include <sys/ioctl.h>
#include <unistd.h>

namespace ashare::cli {
namespace {

using namespace chart;

constexpr TerminalSize k_default_terminal{100, 30};

constexpr const char* k_footer =
    "Up candles (close >= open) are red, down candles green, as on A-share screens; plain when\n"
    "NO_COLOR is set or stdout is not a terminal. When the bars outnumber the columns, "
    "consecutive\n"
    "bars share one candle: the open of the first, the close of the last, the highest high, the\n"
    "lowest low and the summed volume. The SVG draws one candle per bar. In the terminal the "
    "chart\n"
    "leaves one row for the prompt.";

struct ChartArgs {
  std::string symbol;
  std::optional<std::string> from;
  std::optional<std::string> to;
  bool raw = false;
  std::optional<std::string> overlay;
  std::optional<std::string> svg;
  std::optional<int> width;
  std::optional<int> height;
};

// The same day six months earlier; the 31st falls back to the month's last day.
domain::Date six_months_before(domain::Date to) {
  auto ymd = to.ymd() - std::chrono::months{6};
  if (!ymd.ok()) {
    ymd = ymd.year() / ymd.month() / std::chrono::last;
  }
  return domain::Date{std::chrono::sys_days{ymd}};
}

std::optional<int> positive_env(const char* name) {
  const char* text = std::getenv(name);
  int value = 0;
  if (text == nullptr || std::from_chars(text, text + std::strlen(text), value).ec != std::errc{}
      || value <= 0) {
    return std::nullopt;
  }
  return value;
}

// The terminal's size (ioctl, else COLUMNS and LINES, else 100x30), one row left for the prompt,
// under --width and --height, and never below the minimum for `panes` indicator panes.
TerminalSize terminal_size(const ChartArgs& args, std::size_t panes) {
  TerminalSize size = k_default_terminal;
  winsize window{};
  if (::ioctl(STDOUT_FILENO, TIOCGWINSZ, &window) == 0 && window.ws_col > 0 && window.ws_row > 1) {
    size = TerminalSize{window.ws_col, window.ws_row - 1};
  } else {
    size.columns = positive_env("COLUMNS").value_or(size.columns);
    size.rows = positive_env("LINES").has_value() ? *positive_env("LINES") - 1 : size.rows;
  }
  size.columns = std::max(args.width.value_or(size.columns), k_min_terminal_columns);
  size.rows = std::max(args.height.value_or(size.rows), min_terminal_rows(panes));
  return size;
}

// A usage error for what `args` asks that no chart with `panes` indicator panes can do; empty when
// all is well.
std::string usage_problem(const ChartArgs& args, std::size_t panes) {
  if (args.symbol.find(',') != std::string::npos) {
    return "chart draws one symbol, not \"" + args.symbol + "\"";
  }
  const int min_width = args.svg ? k_min_svg_width : k_min_terminal_columns;
  const int min_height = args.svg ? k_min_svg_height : min_terminal_rows(panes);
  if (args.width.value_or(min_width) < min_width || args.height.value_or(min_height) < min_height) {
    return std::string("the chart needs --width ") + std::to_string(min_width) + " and --height "
           + std::to_string(min_height) + " at least"
           + (args.svg ? " (pixels)" : " (terminal cells)");
  }
  return "";
}

// Fetch every bar of the window into `data`, following next_url; return the exit status, having
// said what went wrong as `ashare bars` says it.
int fetch_bars(Backend& backend, const ChartArgs& args, const Window& window, ChartData& data) {
  return run_query(
    backend, api::parse_bars_form({args.symbol, window.from, window.to, !args.raw, "asc", {}, false}),
    {.whole_window = true,
     .print =
       [&data](const api::BarsResponse& response) {
         const auto& item = response.items.front();
         data.symbol = item.symbol;
         data.adjusted = response.adjusted;
         data.bars.assign(item.bars().begin(), item.bars().end());
       },
     .more_note = [](const api::BarsResponse&, std::size_t) { return std::string(); }});
}

// Return the request of `spec`'s values over the window, every value in pages that every plan
// takes, or the API's error.
Result<api::IndicatorRequest> overlay_request(const ChartArgs& args,
                                              const std::optional<std::string>& convention,
                                              const Window& window,
                                              const OverlaySpec& spec) {
  const auto& own = spec.query;
  return api::parse_indicator_form({.indicator = own.indicator,
                                    .symbols = args.symbol,
                                    .window = own.window,
                                    .fast = own.fast,
                                    .slow = own.slow,
                                    .signal = own.signal,
                                    .k = domain::format_number(own.k),
                                    .n = own.n,
                                    .m1 = own.m1,
                                    .m2 = own.m2,
                                    .convention = convention,
                                    .adjusted = !args.raw,
                                    .order = "asc",
                                    .limit = auth::limit_every_plan_allows(),
                                    .from = window.from,
                                    .to = window.to});
}

// Put `values`, those of `spec`, over the candles (SMA, EMA, BOLL) or into a pane of their own.
void add_overlay(const OverlaySpec& spec,
                 const std::vector<query::IndicatorValue>& values,
                 ChartData& data) {
  using query::IndicatorValue;
  const auto labels = line_labels(spec);
  const std::array picks{&IndicatorValue::value, &IndicatorValue::second, &IndicatorValue::third};
  if (spec.query.indicator == query::Indicator::bbands) {
    data.overlays.push_back({overlay_label(spec), align_values(data.bars, values),
                             {align_values(data.bars, values, &IndicatorValue::second),
                              align_values(data.bars, values, &IndicatorValue::third)}});
  } else if (!has_own_pane(spec)) {
    data.overlays.push_back({overlay_label(spec), align_values(data.bars, values)});
  } else {
    IndicatorPane pane{overlay_label(spec), {}};
    for (std::size_t j = 0; j < labels.size(); ++j) {
      pane.lines.push_back({labels[j], align_values(data.bars, values, picks[j])});
    }
    if (spec.query.indicator == query::Indicator::macd) {
      pane.histogram = align_values(data.bars, values, &IndicatorValue::third);
    }
    data.panes.push_back(std::move(pane));
  }
}

// D9 computes an indicator over the symbol's whole stored history before any filter. Asking the
// indicator endpoint for the window gives exactly those values (of the unrounded prices, as
// `ashare sma` prints them) in both modes, without fetching the history before the window, which
// a Free plan's history limit could refuse.
int fetch_overlay(Backend& backend,
                  const ChartArgs& args,
                  const std::optional<std::string>& convention,
                  const Window& window,
                  const OverlaySpec& spec,
                  ChartData& data) {
  const auto request = overlay_request(args, convention, window, spec);
  return run_query(backend, request,
                   {.whole_window = true,
                    .print =
                      [&](const api::IndicatorResponse& response) {
                        add_overlay(spec, response.items.front().values, data);
                      },
                    .more_note = [](const api::IndicatorResponse&,
                                    std::size_t) { return std::string(); }});
}

int write_svg(const std::string& path, const ChartData& data, const ChartArgs& args) {
  const SvgSize size{args.width.value_or(SvgSize{}.width), args.height.value_or(SvgSize{}.height)};
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << render_svg(data, size);
  out.flush();
  if (!out) {
    return fail("cannot write \"" + path + "\": " + std::strerror(errno));
  }
  return k_exit_ok;
}

int draw(const ChartData& data, const ChartArgs& args, const Window& window) {
  if (data.bars.empty()) {
    // As `ashare bars` prints no rows for such a window and exits 0.
    note(data.symbol + " has no bars from " + window.from + " to " + window.to
         + (args.svg ? ": the SVG says so" : ": nothing to draw"));
  }
  if (args.svg) {
    return write_svg(*args.svg, data, args);
  }
  if (!data.bars.empty()) {
    std::cout << render_terminal(data, layout_terminal(data, terminal_size(args, data.panes.size())),
                                 use_color());
  }
  return k_exit_ok;
}

int run_chart(const ChartArgs& args, const Config& config) {
  std::vector<OverlaySpec> overlays;
  if (args.overlay) {
    auto parsed = parse_overlays(*args.overlay);
    if (!parsed) {
      return fail(parsed.error().message, k_exit_usage);
    }
    overlays = *parsed;
  }
  const auto panes = static_cast<std::size_t>(
    std::count_if(overlays.begin(), overlays.end(), [](const auto& spec) { return has_own_pane(spec); }));
  if (const auto problem = usage_problem(args, panes); !problem.empty()) {
    return fail(problem, k_exit_usage);
  }
  if (!overlays.empty() && !config.convention) {
    return fail(config.convention.error().message, k_exit_usage);
  }
  auto backend = open_backend(config, config.remote);
  // TO defaults to as_of, FROM to six months before TO.
  const auto window = resolve_window(*backend, args.from, args.to, six_months_before);
  if (!window) {
    return fail(window.error().message);
  }
  ChartData data;
  if (const int status = fetch_bars(*backend, args, *window, data); status != k_exit_ok) {
    return status;
  }
  for (const auto& spec : overlays) {
    if (data.bars.empty()) {
      break;
    }
    if (const int status = fetch_overlay(*backend, args, *config.convention, *window, spec, data);
        status != k_exit_ok) {
      return status;
    }
  }
  return draw(data, args, *window);
}

} // namespace

Action setup_chart(CLI::App& command, GlobalFlags& flags) {
  auto args = std::make_shared<ChartArgs>();
  command.footer(k_footer);
  command.add_option("SYMBOL", args->symbol, "One symbol, e.g. 600519.SH")->required();
  command.add_option("FROM,--from", args->from, "First date (default: six months before TO)")
      ->type_name("DATE");
  command.add_option("TO,--to", args->to, "Last date (default: as_of, the latest data)")
      ->type_name("DATE");
  command.add_flag("--raw", args->raw,
                   "Raw prices (adjusted=false); default forward-adjusted (D8)");
  command
      .add_option(
          "--overlay", args->overlay,
          "Indicators, comma-separated: over the candles sma:N, ema:N, bbands[:N[:K]]; in panes "
          "below rsi[:N], macd[:FAST:SLOW:SIGNAL], kdj[:N:M1:M2], atr[:N]; e.g. sma:20,bbands,macd")
      ->type_name("SPEC");
  command.add_option("--convention", flags.convention,
                     "The overlays' formulas: talib (default) or tdx, 通达信's (D13)")
      ->type_name("NAME");
  command.add_option("--svg", args->svg, "Write the chart as a standalone SVG file instead")
      ->type_name("FILE");
  command
      .add_option("--width", args->width,
                  "Terminal columns (default: the terminal's, else COLUMNS, else 100); "
                  "SVG pixels (default 1000)")
      ->type_name("N");
  command
      .add_option("--height", args->height,
                  "Terminal rows (default: the terminal's, else LINES, else 30); "
                  "SVG pixels (default 600)")
      ->type_name("N");
  return [args](const Config& config) { return run_chart(*args, config); };
}

} // namespace ashare::cli
