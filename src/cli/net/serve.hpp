// `ashare serve` inside the network module (cli/net/module.hpp: serve): from plain settings to a
// running server, the API's services built here, beside the server that uses them.
#pragma once

#include "cli/net/module.hpp"

namespace ashare::cli::net {

// Serve as `settings` say (Module::serve); exceptions of the stores propagate to the entry.
int serve(const ServeSettings& settings);

} // namespace ashare::cli::net
