// ashare atr SYMBOL[,SYMBOL...]: the average true range (D13) of high, low and close, as
// `/v1/indicators/atr` gives it, in either convention.
#include "cli/commands/indicator_run.hpp"

#include <CLI/CLI.hpp>
#include <memory>

namespace ashare::cli {

Action setup_atr(CLI::App& command, GlobalFlags& flags) {
  auto args = std::make_shared<IndicatorArgs>();
  args->indicator = query::Indicator::atr;
  add_period_option(command, "--window", args->window, 1, 14, "Window length");
  add_indicator_options(command, flags, *args);
  return [args](const Config& config) { return run_indicator(*args, config); };
}

} // namespace ashare::cli
