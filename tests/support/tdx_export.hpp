// TDX's text exports in the tests (D20, issue 44): their rows read by hand, and a fund's `.day`
// file built from them, since the shared data holds no real fund `.day`.
#pragma once

#include <string>
#include <vector>

namespace ashare::test {

// The rows of TDX text export `text` (tests/data/vendor/tdx_text_*.txt, D20), each its fields as
// written (date YYYY/MM/DD, open, high, low, close, volume, amount), split by hand: the title,
// the header and the footer left out.
std::vector<std::vector<std::string>> tdx_export_rows(const std::string& text);

// Return a TDX `.day` file of a fund built from `rows` of a fund's TDX text export, there being
// no real fund `.day` in the shared data: prices in 0.001 CNY (the export's 3 decimals, digits
// kept), amount the export's value as a float32, volume in shares, the last word 0. Rows whose
// volume does not fit 32 bits are removed from `rows` first.
std::string fund_day_from_export_rows(std::vector<std::vector<std::string>>& rows);

} // namespace ashare::test
