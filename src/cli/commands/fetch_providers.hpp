// The providers of `ashare fetch` (D18), one file each: commands/fetch_tushare.cpp and
// commands/fetch_tdx.cpp declare their subcommand under `fetch` and set `action` when it is the
// one given; commands/fetch.cpp puts them together.
#pragma once

#include "cli/commands/command.hpp"

namespace ashare::cli {

void add_fetch_tushare(CLI::App& fetch, Action& action);
void add_fetch_tdx(CLI::App& fetch, Action& action);

} // namespace ashare::cli
