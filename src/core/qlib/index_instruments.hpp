// D20: the qlib export's instrument files of index membership, instruments/NAME.txt beside
// all.txt, as qlib's file storage reads them (`market: csi300` in a workflow): one line a span,
// "SH600000<TAB>first<TAB>last", both days inclusive.
#pragma once

#include "core/domain/date.hpp"
#include "core/domain/symbol.hpp"
#include "core/store/market_record.hpp"

#include <filesystem>
#include <span>
#include <string>
#include <vector>

namespace ashare::qlib {

// Return the name of `index`'s instrument file without ".txt": qlib's own for 000300.SH
// (csi300), 000905.SH (csi500) and 000903.SH (csi100), ours for 000852.SH (csi1000) and
// 000016.SH (sse50), else the lower-case qlib code (sh000001).
std::string instruments_name(const domain::Symbol& index);

// Return the file's text for `spans`, sorted by qlib code then first day: a line a span, an open
// span (and one past `last_day`) ending on `last_day`, the export's last day; a span starting
// after it left out.
std::string instruments_text(std::span<const store::MemberSpan> spans, domain::Date last_day);

// Write instruments/NAME.txt under `root` for each index of `market` with spans (from the source
// that answers for it, D20), removing the files an earlier export wrote for others; return the
// names written ("csi300.txt", ...).
std::vector<std::string> write_index_instruments(store::MarketRecord& market,
                                                 const std::filesystem::path& root,
                                                 domain::Date last_day);

} // namespace ashare::qlib
