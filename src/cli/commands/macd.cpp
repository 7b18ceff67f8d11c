// ashare macd SYMBOL[,SYMBOL...]: the MACD line (DIF), its signal line (DEA) and the histogram
// (D13), as `/v1/indicators/macd` gives them, in either convention.
#include "cli/commands/indicator_run.hpp"

#include <CLI/CLI.hpp>
#include <memory>

namespace ashare::cli {

Action setup_macd(CLI::App& command, GlobalFlags& flags) {
  auto args = std::make_shared<IndicatorArgs>();
  args->indicator = query::Indicator::macd;
  // The server checks fast < slow, with the message that names `fast` (D13).
  add_period_option(command, "--fast", args->fast, 2, 12, "Fast EMA period, less than --slow");
  add_period_option(command, "--slow", args->slow, 2, 26, "Slow EMA period");
  add_period_option(command, "--signal", args->signal, 1, 9, "Signal line's EMA period");
  add_indicator_options(command, flags, *args);
  return [args](const Config& config) { return run_indicator(*args, config); };
}

} // namespace ashare::cli
