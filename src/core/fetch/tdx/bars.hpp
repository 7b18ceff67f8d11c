// TDX's bars as the rows the importers' writer takes (D18, D20): prices from whole 1/1000 CNY for
// every kind (the double nearest the decimal, as reading "18.10" gives), category 4's float32
// volume to the nearest whole share (a stock's and a fund's are shares; an index's are lots:
// round(float32(lots)) x 100) and its float32 amount to the nearest 0.01 CNY (about 7 significant
// digits: not D12-exact, D18 says so), the pre_close from the ex-rights events between two bars
// (a stock's category 1 to 0.01 CNY, a fund's categories 1 and 11 to 0.001; an index has none),
// else the bar before's close. Every bar passes D16 and the OHLC invariants (import::check_bar)
// and has a volume that is finite, not negative and, in shares, whole: what fails is a problem
// naming its day, never a row (TDX servers send garbage bars, such as a volume of 5.9e-39).
#pragma once

#include "core/domain/date.hpp"
#include "core/domain/kind.hpp"
#include "core/fetch/tdx/wire.hpp"
#include "core/import/parsed_file.hpp"

#include <optional>
#include <span>
#include <string>

namespace ashare::fetch::tdx {

// Return the rows of `symbol` (canonical), of `kind`, from `bars` (category 4, oldest first),
// each with its pre_close from `previous` (the bar before the first, when known) or the bar before
// it and the `events` between them that apply to the kind; a bar that fails a check is a problem
// (its line: its index from 1) and no row. `latest` bounds trade_date (D16: today at UTC+8).
// Factors are left at 1 and change_pct to the store: the fetch sets the one (fetch::FactorChain),
// the store derives the other.
import::ParsedFile rows_of_bars(const std::string& symbol,
                               domain::Kind kind,
                               std::span<const RawBar> bars,
                               std::span<const XdxrEvent> events,
                               const std::optional<RawBar>& previous,
                               domain::Date latest);

} // namespace ashare::fetch::tdx
