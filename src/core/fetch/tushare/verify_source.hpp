// What Tushare Pro answers for a verify (issue 33): the whole market's (or the named symbols')
// `daily` rows of each open day of a window, as `fetch tushare` reads them, with each bar's factor
// step from `adj_factor` (the day before the window asked too), else from its pre_close; nothing
// written.
#pragma once

#include "core/fetch/tushare/client.hpp"
#include "core/fetch/verify.hpp"

#include <string>
#include <vector>

namespace ashare::fetch::tushare {

// Ask `client` for the bars of `symbols` (the whole market when empty) on `days` (open days,
// ascending; the first is the open day before the window, asked for the steps only).
SourceAnswer verify_source(Client& client, const std::vector<std::string>& symbols,
                           const std::vector<domain::Date>& days);

} // namespace ashare::fetch::tushare
