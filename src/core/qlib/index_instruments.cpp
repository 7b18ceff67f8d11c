#include "core/qlib/index_instruments.hpp"

#include "core/qlib/layout.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <fstream>
#include <string_view>
#include <tuple>

namespace ashare::qlib {
namespace {

namespace fs = std::filesystem;
using domain::Date;

struct KnownName {
  std::string_view index;
  std::string_view name;
};

// D20: qlib's names (its csi300, csi500, csi100 workflows), then ours.
constexpr std::array k_known_names{
    KnownName{"000300.SH", "csi300"}, KnownName{"000905.SH", "csi500"},
    KnownName{"000903.SH", "csi100"}, KnownName{"000852.SH", "csi1000"},
    KnownName{"000016.SH", "sse50"},
};

// The spans that answer for `index`: the imported ones when there are any, else the snapshots'.
std::vector<store::MemberSpan> answering_spans_of(store::MarketRecord& market,
                                                  const std::string& index) {
  auto spans = market.load_member_spans(index, store::MemberSource::import);
  return spans.empty() ? market.load_member_spans(index, store::MemberSource::tushare) : spans;
}

void write_instruments_file(const fs::path& path, const std::string& text) {
  const auto temporary = path.string() + ".tmp";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out << text;
    if (!out.flush()) {
      throw std::runtime_error("cannot write " + temporary);
    }
  }
  fs::rename(temporary, path);
}

} // namespace

std::string instruments_name(const domain::Symbol& index) {
  for (const auto& known : k_known_names) {
    if (known.index == index.str()) {
      return std::string(known.name);
    }
  }
  auto code = instrument_code(index);
  std::transform(code.begin(), code.end(), code.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return code;
}

std::string instruments_text(std::span<const store::MemberSpan> spans, Date last_day) {
  struct Line {
    std::string code;
    Date first;
    Date last;
  };
  std::vector<Line> lines;
  for (const auto& span : spans) {
    const auto symbol = domain::parse_symbol(span.symbol);
    if (!symbol || span.first_date > last_day) {
      continue;
    }
    lines.push_back({instrument_code(*symbol), span.first_date,
                     std::min(span.last_date.value_or(last_day), last_day)});
  }
  std::sort(lines.begin(), lines.end(), [](const Line& a, const Line& b) {
    return std::tie(a.code, a.first) < std::tie(b.code, b.first);
  });
  std::string text;
  for (const auto& line : lines) {
    text += line.code + "\t" + line.first.iso() + "\t" + line.last.iso() + "\n";
  }
  return text;
}

std::vector<std::string>
write_index_instruments(store::MarketRecord& market, const fs::path& root, Date last_day) {
  const auto dir = root / "instruments";
  fs::create_directories(dir);
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() == ".txt" && entry.path().filename() != "all.txt") {
      fs::remove(entry.path()); // an earlier export's: written again below when still an index's
    }
  }
  std::vector<std::string> written;
  for (const auto& index : market.load_member_indices()) {
    const auto symbol = domain::parse_symbol(index);
    const auto spans = answering_spans_of(market, index);
    if (!symbol || spans.empty()) {
      continue;
    }
    const auto name = instruments_name(*symbol) + ".txt";
    write_instruments_file(dir / name, instruments_text(spans, last_day));
    written.push_back(name);
  }
  return written;
}

} // namespace ashare::qlib
