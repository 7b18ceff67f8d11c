#include "core/import/factors.hpp"

#include "core/domain/symbol.hpp"
#include "core/import/vendor_csv.hpp"

#include <algorithm>
#include <array>

namespace ashare::import {
namespace {

namespace adj_factor_file {
enum Column { ts_code, trade_date, adj_factor };
constexpr std::array<ColumnName, 3> k_columns{{{"ts_code"}, {"trade_date"}, {"adj_factor"}}};
} // namespace adj_factor_file

// Return the factor of the row after `row` given `row`'s, along the chain.
double forward(double factor, const ParsedRow& row, const ParsedRow& next) {
  if (!next.pre_close || *next.pre_close <= 0) {
    return factor;
  }
  // The ratio first: it is exactly 1 on days without an event, so the factor does not drift.
  return factor * (row.bar.close / *next.pre_close);
}

// Return the factor of `row` given the factor of the row after it, along the chain.
double backward(double next_factor, const ParsedRow& row, const ParsedRow& next) {
  if (!next.pre_close || *next.pre_close <= 0) {
    return next_factor;
  }
  return next_factor * (*next.pre_close / row.bar.close);
}

} // namespace

Result<AdjFactorTable> parse_adj_factor_csv(std::istream& in) {
  using namespace adj_factor_file;
  CsvReader reader(in);
  CsvRecord header;
  if (!reader.next(header)) {
    if (reader.too_long_line() != 0) {
      return too_long_line_error(reader.too_long_line());
    }
    return file_error(1, "header", "the file is empty: expected ts_code,trade_date,adj_factor");
  }
  const auto index = find_columns(header, k_columns, "a Tushare adj_factor file");
  if (!index) {
    return index.error();
  }
  AdjFactorTable table;
  CsvRecord record;
  while (reader.next(record)) {
    if (auto problem = field_count_problem(record, header.fields.size())) {
      return file_error(problem->line, problem->column, problem->message);
    }
    RowFields fields(record, k_columns, *index);
    const auto symbol = domain::parse_symbol(fields.text(ts_code));
    if (!symbol) {
      return file_error(record.line, "ts_code", symbol.error().message);
    }
    const auto date = fields.date(trade_date);
    const auto factor = domain::to_double(fields.decimal(adj_factor));
    if (!fields.problem && !(factor >= k_min_factor && factor <= k_max_factor)) {
      fields.fail(adj_factor, quoted(fields.text(adj_factor))
                                + " is not a factor from 0.000001 to 1000000000");
    }
    if (fields.problem) {
      return file_error(record.line, fields.problem->column, fields.problem->message);
    }
    const auto [it, inserted] =
        table.factors.emplace(std::make_pair(symbol->str(), date.yyyymmdd()), factor);
    if (!inserted) {
      return file_error(record.line, "trade_date",
                        "duplicate row for " + symbol->str() + " on " + date.iso());
    }
  }
  if (reader.too_long_line() != 0) {
    return too_long_line_error(reader.too_long_line());
  }
  return table;
}

void sort_by_symbol_and_date(ParsedFile& file) {
  std::stable_sort(file.rows.begin(), file.rows.end(), [](const ParsedRow& a, const ParsedRow& b) {
    return a.symbol != b.symbol ? a.symbol < b.symbol : a.bar.trade_date < b.bar.trade_date;
  });
}

std::int64_t chain_factors(std::span<ParsedRow> rows, double start) {
  std::int64_t events = 0;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    rows[i].bar.factor = i == 0 ? start : forward(rows[i - 1].bar.factor, rows[i - 1], rows[i]);
    events += i > 0 && rows[i].bar.factor != rows[i - 1].bar.factor ? 1 : 0;
  }
  return events;
}

double chain_start(const domain::Bar& previous, const ParsedRow& first) {
  ParsedRow before;
  before.bar = previous;
  return forward(previous.factor, before, first);
}

AdjFactorJoin join_adj_factors(ParsedFile& file, const AdjFactorTable& table) {
  AdjFactorJoin join;
  for (const auto& [symbol, rows] : rows_by_symbol(file)) {
    std::vector<bool> known(rows.size(), false);
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const auto it = table.factors.find({symbol, rows[i].bar.trade_date.yyyymmdd()});
      if (it != table.factors.end()) {
        rows[i].bar.factor = it->second;
        known[i] = true;
      } else {
        ++join.bars_without_factor;
        if (!join.first_bar_without_factor
            || rows[i].bar.trade_date < *join.first_bar_without_factor) {
          join.first_bar_without_factor = rows[i].bar.trade_date;
        }
      }
    }
    const auto first_known = std::find(known.begin(), known.end(), true);
    if (first_known == known.end()) {
      join.symbols_without_factors.push_back(symbol);
      continue;
    }
    const auto first = static_cast<std::size_t>(first_known - known.begin());
    for (std::size_t i = first; i-- > 0;) {
      rows[i].bar.factor = backward(rows[i + 1].bar.factor, rows[i], rows[i + 1]);
    }
    for (std::size_t i = first + 1; i < rows.size(); ++i) {
      if (!known[i]) {
        rows[i].bar.factor = forward(rows[i - 1].bar.factor, rows[i - 1], rows[i]);
      }
    }
    std::int64_t matched = static_cast<std::int64_t>(std::count(known.begin(), known.end(), true));
    const auto lower = table.factors.lower_bound({symbol, 0});
    const auto upper = table.factors.lower_bound({symbol + '\x01', 0});
    join.factors_without_bar += static_cast<std::int64_t>(std::distance(lower, upper)) - matched;
  }
  file.has_factor = true;
  return join;
}

} // namespace ashare::import
