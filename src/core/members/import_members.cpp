#include "core/members/import_members.hpp"

#include "core/domain/kind.hpp"
#include "core/members/announcements.hpp"
#include "core/members/open_days.hpp"

#include <fstream>
#include <set>

namespace ashare::members {
namespace {

// Return `text` as the canonical symbol of an index, or INVALID_SYMBOL.
Result<std::string> parse_index_symbol(const std::string& text) {
  auto symbol = parse_member_symbol(text);
  if (!symbol) {
    return symbol.error();
  }
  if (domain::classify_code(*symbol).kind != domain::Kind::index) {
    return make_error(ErrorCode::invalid_symbol,
                      "--index \"" + text
                          + "\" is not an index's code (D20: SH 000xxx, SZ 399xxx, "
                            "BJ 899xxx)");
  }
  return symbol;
}

} // namespace

Result<MembersImport> import_members(store::BarStore& store,
                                     const std::string& index,
                                     const std::filesystem::path& path) {
  auto index_symbol = parse_index_symbol(index);
  if (!index_symbol) {
    return index_symbol.error();
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return make_error(ErrorCode::invalid_input, path.string() + ": cannot open the file");
  }
  auto file = parse_announcements(in, path.string());
  if (!file) {
    return file.error();
  }
  MembersImport report{*index_symbol, file->rows.size(), 0, 0, std::move(file->warnings)};
  store::WriteTransaction transaction(store);
  auto& market = store.market();
  std::vector<std::string> skipped;
  const auto spans =
      spans_of_announcements(*index_symbol, file->rows, load_open_days(market), skipped);
  for (const auto& warning : skipped) {
    report.warnings.push_back(path.string() + ":" + warning);
  }
  market.save_member_spans(*index_symbol, store::MemberSource::import, spans);
  store.finish_change(""); // D17: what the members route answers changed
  transaction.commit();
  std::set<std::string_view> symbols;
  for (const auto& span : spans) {
    symbols.insert(span.symbol);
  }
  report.spans = spans.size();
  report.symbols = symbols.size();
  return report;
}

} // namespace ashare::members
