// ashare bbands SYMBOL[,SYMBOL...]: Bollinger bands (BOLL), the middle band and the bands `k`
// standard deviations above and below it (D13), as `/v1/indicators/bbands` gives them.
#include "cli/commands/indicator_run.hpp"

#include <CLI/CLI.hpp>
#include <memory>

namespace ashare::cli {

Action setup_bbands(CLI::App& command, GlobalFlags& flags) {
  auto args = std::make_shared<IndicatorArgs>();
  args->indicator = query::Indicator::bbands;
  add_period_option(command, "--window", args->window, 2, 20, "Window length");
  // Passed on as text and checked as the API checks it (D13: 0 < K <= 10, no exponent).
  command.add_option("--k", args->k, "Band width in standard deviations, 0 < K <= 10")
    ->default_str("2")
    ->type_name("K");
  add_indicator_options(command, flags, *args);
  return [args](const Config& config) { return run_indicator(*args, config); };
}

} // namespace ashare::cli
