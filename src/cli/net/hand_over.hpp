// Where the network code runs (cli/net/module.hpp): `ashare` hands a command that needs the
// network over to `ashare-net`, the same command line with the network code linked in.
#pragma once

namespace ashare::cli::net {

// In `ashare`: replace this process by `ashare-net` with the same arguments, environment and
// open files (exec), so the command runs there from its start; returns only by throwing
// std::runtime_error, naming the paths tried, when `ashare-net` cannot be run. Call it before the
// command has printed or taken anything (a lock, standard input). In `ashare-net`: does nothing.
void hand_over();

} // namespace ashare::cli::net
