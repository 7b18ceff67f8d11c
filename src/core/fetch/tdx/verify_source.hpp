// What the TDX servers answer for a verify (issue 33): each symbol's bars of a window as
// `fetch tdx` reads them (category 4, exact prices, float32 volume and amount), with the factor
// step of each from its pre_close (the category-1 events' on an ex-date), nothing written.
#pragma once

#include "core/fetch/tdx/client.hpp"
#include "core/fetch/verify.hpp"

#include <string>
#include <vector>

namespace ashare::fetch::tdx {

// Ask `client` for the bars of `symbols` (every A-share listed when empty) over [`from`, `to`];
// `latest` bounds trade_date (D16: today at UTC+8).
SourceAnswer verify_source(Client& client, const std::vector<std::string>& symbols, domain::Date from,
                           domain::Date to, domain::Date latest);

} // namespace ashare::fetch::tdx
