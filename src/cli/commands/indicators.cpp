// ashare ema|rsi|sma SYMBOL[,SYMBOL...]: moving averages and RSI from the local store or the
// remote (D9), in either convention (D13). One file for the three: they differ only in the
// indicator and its default window.
#include "cli/commands/indicator_run.hpp"
#include "core/api/indicator_request.hpp"

#include <CLI/CLI.hpp>
#include <memory>

namespace ashare::cli {
namespace {

Action setup_windowed(CLI::App& command, GlobalFlags& flags, query::Indicator indicator) {
  auto args = std::make_shared<IndicatorArgs>();
  args->indicator = indicator;
  add_period_option(command, "--window", args->window, 1, api::default_window(indicator),
                    "Window length");
  add_indicator_options(command, flags, *args);
  return [args](const Config& config) { return run_indicator(*args, config); };
}

} // namespace

Action setup_ema(CLI::App& command, GlobalFlags& flags) {
  return setup_windowed(command, flags, query::Indicator::ema);
}

Action setup_rsi(CLI::App& command, GlobalFlags& flags) {
  return setup_windowed(command, flags, query::Indicator::rsi);
}

Action setup_sma(CLI::App& command, GlobalFlags& flags) {
  return setup_windowed(command, flags, query::Indicator::sma);
}

} // namespace ashare::cli
