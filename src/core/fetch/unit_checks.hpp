// The checks a fetch run makes of a unit's answer before anything of it is written (D18): bars
// dated outside the unit, bars on closed days, D18's rule for bars that fail a check (the first
// stops the run, or --skip-invalid leaves each out), and D18's 90% for a day not yet published.
#pragma once

#include "core/domain/date.hpp"
#include "core/fetch/provider.hpp"
#include "core/import/parsed_file.hpp"

#include <cstdint>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ashare::fetch {

// Take out of `rows` (a market day's answer for `day`) the rows dated another day, and return
// them as problems: "a bar of DATE in the answer for DAY", or "a bar on the closed day DATE ..."
// when `open_days` lacks it.
std::vector<BarProblem> take_rows_of_other_days(std::vector<import::ParsedRow>& rows,
                                                domain::Date day,
                                                const std::set<domain::Date>& open_days);

// Return the first of `rows` dated within [`first`, `last`] on a day `open_days` lacks, if any.
const import::ParsedRow* find_bar_on_closed_day(std::span<const import::ParsedRow> rows,
                                                domain::Date first,
                                                domain::Date last,
                                                const std::set<domain::Date>& open_days);

// What D18 makes of a unit's bars that fail a check.
struct Verdict {
  std::vector<std::string> warnings; // --skip-invalid: each bar left out, in answer order
  std::optional<std::string> refusal; // else the first: the run stops, nothing of the unit written
};

// Judge `problems` of a unit (a "day" or a "symbol", `unit_noun`) answered at `where`.
Verdict judge_problems(std::vector<BarProblem> problems,
                       std::string_view where,
                       std::string_view unit_noun,
                       bool skip_invalid);

// Return why `day` is not yet published in full at `source` (D18: its `bars` are under 90% of the
// previous open day's, `previous`), or nullopt when it is (or nothing says otherwise).
std::optional<std::string> not_yet_published(domain::Date day,
                                             std::int64_t bars,
                                             std::optional<std::int64_t> previous,
                                             std::string_view source);

} // namespace ashare::fetch
