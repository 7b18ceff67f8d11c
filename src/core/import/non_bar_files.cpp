#include "core/import/non_bar_files.hpp"

#include "core/import/calendar_csv.hpp"
#include "core/import/csv_reader.hpp"

#include <array>
#include <fstream>

namespace ashare::import {
namespace {

// D19: the calendar over the file's span, replaced in one transaction.
Result<std::string> load_trade_cal(store::BarStore& store, const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return make_error(ErrorCode::invalid_input, path.string() + ": cannot open the file");
  }
  auto file = parse_trade_cal_csv(in, path.string());
  if (!file) {
    return file.error();
  }
  store::WriteTransaction transaction(store);
  store.market().save_calendar(file->first, file->last, file->open_days);
  transaction.commit();
  const auto days = (file->last.days() - file->first.days()).count() + 1;
  return "trade_cal, calendar " + file->first.iso() + " .. " + file->last.iso() + ": "
         + std::to_string(days) + " days, " + std::to_string(file->open_days.size()) + " open";
}

constexpr std::array k_kinds{
  NonBarKind{"trade_cal", is_trade_cal_header, load_trade_cal},
};

} // namespace

const NonBarKind* find_non_bar_kind(std::string_view name) {
  for (const auto& kind : k_kinds) {
    if (kind.name == name) {
      return &kind;
    }
  }
  return nullptr;
}

const NonBarKind* detect_non_bar_kind(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  CsvReader reader(in);
  CsvRecord header;
  if (!in || !reader.next(header)) {
    return nullptr;
  }
  for (const auto& kind : k_kinds) {
    if (kind.matches(header.fields)) {
      return &kind;
    }
  }
  return nullptr;
}

} // namespace ashare::import
