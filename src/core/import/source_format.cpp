#include "core/import/source_format.hpp"

#include "core/domain/symbol.hpp"
#include "core/import/gbk_text.hpp"
#include "core/import/vendor_formats.hpp"

#include <array>

namespace ashare::import {
namespace {

struct FormatName {
  SourceFormat format;
  std::string_view name;
};

constexpr std::array k_formats{
    FormatName{SourceFormat::canonical, "canonical"},
    FormatName{SourceFormat::tushare, "tushare"},
    FormatName{SourceFormat::akshare, "akshare"},
    FormatName{SourceFormat::baostock, "baostock"},
    FormatName{SourceFormat::tdx, "tdx"},
    FormatName{SourceFormat::tdx_text, "tdx-text"},
};

// The header fields that identify a CSV format, all of which must be present.
struct HeaderSignature {
  SourceFormat format;
  std::array<std::string_view, 2> fields; // "" is no field
};

constexpr std::array k_signatures{
    HeaderSignature{SourceFormat::tushare, {"ts_code", "trade_date"}},
    HeaderSignature{SourceFormat::canonical, {"symbol", "trade_date"}},
    HeaderSignature{SourceFormat::akshare, {"日期", ""}},
    HeaderSignature{SourceFormat::baostock, {"date", "code"}},
};

std::string first_line(std::string_view head) {
  if (head.substr(0, 3) == "\xef\xbb\xbf") {
    head.remove_prefix(3);
  }
  return std::string(head.substr(0, head.find_first_of("\r\n")));
}

bool has_field(const std::string& line, std::string_view field) {
  std::size_t start = 0;
  while (start <= line.size()) {
    const auto end = std::min(line.find(',', start), line.size());
    std::string_view candidate(line.data() + start, end - start);
    while (!candidate.empty() && (candidate.front() == ' ' || candidate.front() == '"')) {
      candidate.remove_prefix(1);
    }
    while (!candidate.empty() && (candidate.back() == ' ' || candidate.back() == '"')) {
      candidate.remove_suffix(1);
    }
    if (candidate == field) {
      return true;
    }
    start = end + 1;
  }
  return false;
}

// Return whether `head` starts with a TDX record: a plausible YYYYMMDD date and low <= high.
bool looks_like_tdx(std::string_view head) {
  if (head.size() < 32) {
    return false;
  }
  const auto record = decode_tdx_record(reinterpret_cast<const unsigned char*>(head.data()));
  return record.date >= 19900101 && record.date <= 21001231
         && record.low <= record.high;
}

// Return whether the second line of `head` is the column header of a TDX text export (D20), in
// GBK or UTF-8: 日期 开盘 最高 最低 收盘 成交量 成交额, padded with tabs and spaces.
bool looks_like_tdx_text(std::string_view head) {
  const auto first_end = head.find('\n');
  if (first_end == head.npos) {
    return false;
  }
  const auto second = head.substr(first_end + 1, head.find('\n', first_end + 1) - first_end - 1);
  const auto text = utf8_from_utf8_or_gbk(second);
  if (!text) {
    return false;
  }
  std::string squeezed; // the names without their padding
  for (const char c : *text) {
    if (c != ' ' && c != '\t' && c != '\r') {
      squeezed += c;
    }
  }
  return squeezed == "日期开盘最高最低收盘成交量成交额";
}

} // namespace

std::string_view source_format_name(SourceFormat format) {
  for (const auto& entry : k_formats) {
    if (entry.format == format) {
      return entry.name;
    }
  }
  return "";
}

std::optional<SourceFormat> find_source_format(std::string_view name) {
  for (const auto& entry : k_formats) {
    if (entry.name == name) {
      return entry.format;
    }
  }
  return std::nullopt;
}

Result<SourceFormat> detect_source_format(const std::filesystem::path& path,
                                          std::string_view head) {
  if (path.extension() == ".day" || looks_like_tdx(head)) {
    return SourceFormat::tdx;
  }
  if (looks_like_tdx_text(head)) {
    return SourceFormat::tdx_text;
  }
  const auto line = first_line(head);
  if (line.empty()) {
    return make_error(
        ErrorCode::invalid_input,
        path.string() + ":1: header: the file is empty: expected a header row naming the columns");
  }
  for (const auto& signature : k_signatures) {
    bool all = true;
    for (const auto field : signature.fields) {
      all = all && (field.empty() || has_field(line, field));
    }
    if (all) {
      return signature.format;
    }
  }
  std::string shown = line.substr(0, 80);
  return make_error(ErrorCode::invalid_input,
                    path.string() + ":1: header: cannot tell the format from \"" + shown
                        + "\": pass --format canonical, tushare, akshare, baostock, tdx or tdx-text");
}

Result<std::string> symbol_from_file_name(const std::filesystem::path& path) {
  const std::string stem = path.stem().string();
  if (path.extension() == ".day" && stem.size() == 8) {
    // TDX names its files by market and code: sh600000.day, sz000001.day, bj430047.day.
    std::string text = stem.substr(2) + "." + stem.substr(0, 2);
    if (auto symbol = domain::parse_symbol(text)) {
      return symbol->str();
    }
  }
  if (path.extension() == ".txt" && stem.size() == 9 && stem[2] == '#') {
    // TDX's exports: SH#510300.txt, SZ#159919.txt.
    if (auto symbol = domain::parse_symbol(stem.substr(3) + "." + stem.substr(0, 2))) {
      return symbol->str();
    }
  }
  if (auto symbol = domain::parse_symbol(stem)) {
    return symbol->str();
  }
  return make_error(ErrorCode::invalid_input,
                    path.string()
                        + ": the file name does not say the symbol with its exchange "
                          "(six digits alone do not name one): name the file like "
                          "600519.SH.csv or pass --symbol 600519.SH");
}

} // namespace ashare::import
