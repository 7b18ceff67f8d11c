#include "core/fetch/unit_checks.hpp"

#include <algorithm>

namespace ashare::fetch {
namespace {

std::string said(std::string_view where, const BarProblem& problem) {
  return std::string(where) + ": " + problem.symbol + " on " + problem.day.iso() + ": " + problem.column
         + ": " + problem.message;
}

} // namespace

std::vector<BarProblem> take_rows_of_other_days(std::vector<import::ParsedRow>& rows,
                                                domain::Date day,
                                                const std::set<domain::Date>& open_days) {
  std::vector<BarProblem> problems;
  std::erase_if(rows, [&](const import::ParsedRow& row) {
    const auto date = row.bar.trade_date;
    if (date == day) {
      return false;
    }
    problems.push_back({row.line, row.symbol, day, "trade_date",
                        (open_days.count(date) != 0 ? "a bar of " : "a bar on the closed day ") + date.iso()
                            + " in the answer for " + day.iso()});
    return true;
  });
  return problems;
}

const import::ParsedRow* find_bar_on_closed_day(std::span<const import::ParsedRow> rows,
                                                domain::Date first,
                                                domain::Date last,
                                                const std::set<domain::Date>& open_days) {
  const auto it = std::find_if(rows.begin(), rows.end(), [&](const import::ParsedRow& row) {
    const auto day = row.bar.trade_date;
    return !(day < first) && !(last < day) && open_days.count(day) == 0;
  });
  return it == rows.end() ? nullptr : &*it;
}

Verdict judge_problems(std::vector<BarProblem> problems,
                       std::string_view where,
                       std::string_view unit_noun,
                       bool skip_invalid) {
  std::stable_sort(problems.begin(), problems.end(),
                   [](const BarProblem& a, const BarProblem& b) { return a.line < b.line; });
  Verdict verdict;
  if (problems.empty()) {
    return verdict;
  }
  if (!skip_invalid) {
    verdict.refusal = said(where, problems.front()) + "; nothing of that " + std::string(unit_noun)
                      + " was written (--skip-invalid writes the rest)";
    return verdict;
  }
  for (const auto& problem : problems) {
    verdict.warnings.push_back(said(where, problem)
                               + (problem.second_bar ? " (left out, the first is written)"
                                                     : " (left out, the day's bar stays missing)"));
  }
  return verdict;
}

std::optional<std::string> not_yet_published(domain::Date day,
                                             std::int64_t bars,
                                             std::optional<std::int64_t> previous,
                                             std::string_view source) {
  if (!previous || bars * 10 >= *previous * 9) {
    return std::nullopt;
  }
  return day.iso() + " is not yet published in full at " + std::string(source) + " (" + std::to_string(bars)
         + " bars, the day before had " + std::to_string(*previous) + "): it will be asked for again next run";
}

} // namespace ashare::fetch
