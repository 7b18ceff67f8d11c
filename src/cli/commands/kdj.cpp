// ashare kdj SYMBOL[,SYMBOL...]: the stochastic K, D and J lines (D13) of high, low and close,
// as `/v1/indicators/kdj` gives them, in either convention.
#include "cli/commands/indicator_run.hpp"

#include <CLI/CLI.hpp>
#include <memory>

namespace ashare::cli {

Action setup_kdj(CLI::App& command, GlobalFlags& flags) {
  auto args = std::make_shared<IndicatorArgs>();
  args->indicator = query::Indicator::kdj;
  add_period_option(command, "--n", args->n, 1, 9, "Bars of the highest high and lowest low (RSV)");
  add_period_option(command, "--m1", args->m1, 1, 3, "Smoothing of K");
  add_period_option(command, "--m2", args->m2, 1, 3, "Smoothing of D");
  add_indicator_options(command, flags, *args);
  return [args](const Config& config) { return run_indicator(*args, config); };
}

} // namespace ashare::cli
