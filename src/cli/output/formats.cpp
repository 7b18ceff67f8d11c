#include "cli/output/formats.hpp"

#include "cli/output/report.hpp"
#include "core/api/indicator_request.hpp"
#include "core/domain/number.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdlib>
#include <unistd.h>

namespace ashare::cli {
namespace {

std::string number(double value) {
  return domain::format_number(value);
}

std::string upper_case(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  return out;
}

std::string optional_number(const std::optional<double>& value) {
  return value ? number(*value) : "-";
}

constexpr const char* k_red = "31";
constexpr const char* k_green = "32";

// Readable precision (issue 12; tables only, D12 keeps CSV and JSON exact): prices keep every
// digit; a change in percent has at most 4 decimals (a change the store derived has 17 digits),
// a factor at most 6 (a pre_close chain's has 17), an indicator value at most 4.
constexpr int k_change_decimals = 4;
constexpr int k_factor_decimals = 6;
constexpr int k_indicator_decimals = 4;

// The ranks of the bars table's columns that give way to a narrow terminal, least important first
// (Column::leave_out_rank); SYMBOL, DATE and CLOSE always stay.
struct BarsRank {
  static constexpr int factor = 1, turnover = 2, volume = 3, open = 4, high = 5, low = 6, change = 7;
};

// Return the "first .. last" of `dates` (in any order); empty without any.
std::string window_text(const std::vector<domain::Date>& dates) {
  if (dates.empty()) {
    return "";
  }
  const auto [first, last] = std::minmax_element(dates.begin(), dates.end());
  return first->iso() + " .. " + last->iso();
}

// Return the title line of a table: `symbols` (comma-separated, or "N symbols" when listing them
// would not fit `width`), then the non-empty `parts`, two spaces apart.
std::string title_line(const std::vector<std::string>& symbols,
                       const std::vector<std::string>& parts,
                       std::optional<std::size_t> width) {
  std::string rest;
  for (const auto& part : parts) {
    if (!part.empty()) {
      rest += "  " + part;
    }
  }
  std::string listed;
  for (const auto& symbol : symbols) {
    listed += (listed.empty() ? "" : ", ") + symbol;
  }
  if (symbols.size() > 1 && width && listed.size() + rest.size() > *width) {
    listed = std::to_string(symbols.size()) + " symbols";
  }
  return listed + rest;
}

std::string adjustment_text(bool adjusted) {
  return adjusted ? "forward-adjusted" : "raw prices";
}

// Return `texts` of `values` with a '+' before each rise: "+0.6964" beside "-0.8682".
std::vector<std::string> signed_texts(std::vector<std::string> texts,
                                      const std::vector<double>& values) {
  for (std::size_t i = 0; i < texts.size(); ++i) {
    if (values[i] > 0 && texts[i].find_first_of("123456789") != std::string::npos) {
      texts[i].insert(0, "+");
    }
  }
  return texts;
}

// Fit `table` into `width` and print it, with a note on stderr naming any column left out.
// Add the columns that say what each row is: SYMBOL (when `several` symbols share the table) and
// DATE.
void add_row_keys(Table& table,
                  bool several,
                  const std::vector<std::string>& row_symbols,
                  const std::vector<domain::Date>& dates) {
  if (several) {
    table.columns.push_back({{"SYMBOL"}, row_symbols});
  }
  std::vector<std::string> date_cells;
  for (const auto& date : dates) {
    date_cells.push_back(date.iso());
  }
  table.columns.push_back({{"DATE"}, date_cells});
}

void print_fitted(std::ostream& out, Table table, std::optional<std::size_t> width) {
  const auto left_out = fit_table(table, width);
  print_table(out, table);
  if (!left_out.empty()) {
    std::string names;
    for (const auto& name : left_out) {
      names += (names.empty() ? "" : ", ") + name;
    }
    out.flush(); // the note after the table, on a terminal showing both
    // Short, so that it fits the terminal too.
    note(names + " left out to fit " + std::to_string(*width) + " columns");
  }
}

Table bars_table(const api::BarsResponse& response, const OutputOptions& options) {
  std::vector<std::string> symbols, row_symbols, volume_cells, colors;
  std::vector<domain::Date> dates;
  std::vector<double> open, high, low, close, change, volume, turnover, factor;
  for (const auto& item : response.items) {
    symbols.push_back(item.symbol);
    for (const auto& bar : item.bars()) {
      row_symbols.push_back(item.symbol);
      dates.push_back(bar.trade_date);
      open.push_back(bar.open);
      high.push_back(bar.high);
      low.push_back(bar.low);
      close.push_back(bar.close);
      change.push_back(bar.change_pct);
      volume.push_back(static_cast<double>(bar.volume));
      volume_cells.push_back(with_thousands(std::to_string(bar.volume)));
      turnover.push_back(bar.turnover);
      factor.push_back(bar.factor);
      colors.push_back(!options.color        ? ""
                       : bar.change_pct > 0  ? k_red
                       : bar.change_pct < 0  ? k_green
                                             : "");
    }
  }
  Table table;
  table.title =
    title_line(symbols, {window_text(dates), adjustment_text(response.adjusted)}, options.width);
  add_row_keys(table, response.items.size() > 1, row_symbols, dates);
  const auto price = [](const char* header, const std::vector<double>& values, int rank) {
    return Column{{header, Align::right, "CNY"}, fixed_decimals(values), {}, rank};
  };
  table.columns.push_back(price("OPEN", open, BarsRank::open));
  table.columns.push_back(price("HIGH", high, BarsRank::high));
  table.columns.push_back(price("LOW", low, BarsRank::low));
  table.columns.push_back(price("CLOSE", close, 0));
  table.columns.push_back({{"CHANGE%", Align::right},
                           signed_texts(fixed_decimals(change, k_change_decimals), change),
                           {},
                           BarsRank::change});
  table.columns.push_back({{"VOLUME", Align::right, "shares"},
                           volume_cells,
                           compact_numbers(volume),
                           BarsRank::volume});
  std::vector<std::string> turnover_cells;
  for (const auto& text : fixed_decimals(turnover)) {
    turnover_cells.push_back(with_thousands(text));
  }
  table.columns.push_back({{"TURNOVER", Align::right, "CNY"},
                           turnover_cells,
                           compact_numbers(turnover),
                           BarsRank::turnover});
  table.columns.push_back({{"FACTOR", Align::right},
                           fixed_decimals(factor, k_factor_decimals),
                           {},
                           BarsRank::factor});
  table.row_colors = std::move(colors);
  return table;
}

void print_bars_table(std::ostream& out, const api::BarsResponse& response, const OutputOptions& options) {
  print_fitted(out, bars_table(response, options), options.width);
  if (!options.summary) {
    return;
  }
  for (const auto& item : response.items) {
    if (!item.summary) {
      continue;
    }
    const auto& summary = *item.summary;
    const std::string head = item.symbol + "  " + summary.from.iso() + " .. " + summary.to.iso()
                             + "  " + std::to_string(summary.bars_count) + " bars";
    const std::string figures = "open_first " + optional_number(summary.open_first)
                                + "  close_last " + optional_number(summary.close_last)
                                + "  return_pct " + optional_number(summary.return_pct);
    // One line, or two when the terminal is narrower (issue 12: tables do not wrap).
    const bool fits = !options.width || head.size() + 2 + figures.size() <= *options.width;
    out << "\n" << head << (fits ? "  " : "\n  ") << figures << "\n";
  }
}

// The rows are written into a string and handed to the stream 16 KiB at a time: through an
// inserter a field, a one-year answer took more of a one-shot query's instructions than its SQL,
// and a string of the whole answer, grown by doubling, touched twice its size of fresh heap
// pages, which a one-shot process pays for as page faults (issue 43, P2). The numbers' text is
// the same (domain/number, D12).
void print_bars_csv(std::ostream& out, const api::BarsResponse& response, const OutputOptions& options) {
  constexpr std::size_t k_chunk = 16 * 1024;
  constexpr std::size_t k_longest_row = 512; // a row is at most about 250 bytes
  std::string text;
  text.reserve(k_chunk + k_longest_row);
  const auto hand_over = [&] {
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
    text.clear();
  };
  if (options.header) {
    text = "symbol,trade_date,t,open,high,low,close,volume,turnover,change_pct,factor\n";
  }
  for (const auto& item : response.items) {
    for (const auto& bar : item.bars()) {
      char day[24];
      text += item.symbol;
      text += ',';
      bar.trade_date.write_iso(day);
      text.append(day, 10);
      text += ',';
      text.append(day, bar.trade_date.write_t_ms(day));
      for (const double price : {bar.open, bar.high, bar.low, bar.close}) {
        text += ',';
        domain::append_number(text, price);
      }
      text += ',';
      domain::append_integer(text, bar.volume);
      for (const double value : {bar.turnover, bar.change_pct, bar.factor}) {
        text += ',';
        domain::append_number(text, value);
      }
      text += '\n';
      if (text.size() >= k_chunk) {
        hand_over();
      }
    }
  }
  hand_over();
}

void print_bars_ndjson(std::ostream& out, const api::BarsResponse& response, const OutputOptions& options) {
  for (const auto& item : response.items) {
    for (const auto& bar : item.bars()) {
      out << api::bar_to_ndjson(item.symbol, bar) << '\n';
    }
  }
  if (options.summary) {
    for (const auto& item : response.items) {
      if (item.summary) {
        out << api::summary_to_ndjson(item.symbol, *item.summary) << '\n';
      }
    }
  }
}

std::string symbol_of(const api::IndicatorResponse& response,
                      std::size_t i,
                      const query::IndicatorQuery& query) {
  if (!response.items[i].symbol.empty()) {
    return response.items[i].symbol;
  }
  return i < query.symbols.size() ? query.symbols[i].str() : "";
}

// Return the indicator of `query` as a title names it: its parameters, the price series when not
// the close, and the convention (D13), e.g. "MACD(12,26,9) talib", "EMA(20,open) tdx".
std::string indicator_label(const query::IndicatorQuery& query) {
  using query::Indicator;
  const auto n = [](int value) { return std::to_string(value); };
  std::vector<std::string> parameters;
  switch (query.indicator) {
  case Indicator::macd:
    parameters = {n(query.fast), n(query.slow), n(query.signal)};
    break;
  case Indicator::bbands:
    parameters = {n(query.window), number(query.k)};
    break;
  case Indicator::kdj:
    parameters = {n(query.n), n(query.m1), n(query.m2)};
    break;
  case Indicator::ema:
  case Indicator::rsi:
  case Indicator::sma:
  case Indicator::atr:
    parameters = {n(query.window)};
    break;
  }
  if (api::reads_series_type(query.indicator) && query.series_type != store::PriceField::close) {
    parameters.emplace_back(store::price_field_name(query.series_type));
  }
  std::string label = upper_case(api::indicator_name(query.indicator)) + "(";
  for (std::size_t i = 0; i < parameters.size(); ++i) {
    label += (i > 0 ? "," : "") + parameters[i];
  }
  return label + ") " + (query.convention == query::Convention::tdx ? "tdx" : "talib");
}

// The table headers of an indicator's values: its own name for `value` (EMA, MACD, the middle
// band, K), then its other named values (D13).
std::vector<std::string> value_headers(query::Indicator indicator) {
  using query::Indicator;
  std::vector<std::string> headers{indicator == Indicator::bbands ? "MIDDLE"
                                   : indicator == Indicator::kdj  ? "K"
                                       : upper_case(api::indicator_name(indicator))};
  for (const auto name : query::extra_value_names(indicator)) {
    headers.push_back(upper_case(name));
  }
  return headers;
}

Table indicators_table(const api::IndicatorResponse& response,
                       const query::IndicatorQuery& query,
                       const OutputOptions& options) {
  // The query names the indicator: a body without named values could be EMA, RSI, SMA or ATR.
  const auto headers = value_headers(query.indicator);
  // RSI and KDJ are oscillators from 0 to 100; the others are in the prices' unit.
  const bool in_prices =
    query.indicator != query::Indicator::rsi && query.indicator != query::Indicator::kdj;
  std::vector<std::string> symbols, row_symbols;
  std::vector<domain::Date> dates;
  std::vector<std::vector<double>> values(headers.size());
  for (std::size_t i = 0; i < response.items.size(); ++i) {
    symbols.push_back(symbol_of(response, i, query));
    for (const auto& value : response.items[i].values) {
      row_symbols.push_back(symbols.back());
      dates.push_back(domain::Date::containing_instant(value.timestamp));
      const std::array all{value.value, value.second, value.third};
      for (std::size_t v = 0; v < values.size(); ++v) {
        values[v].push_back(all[v]);
      }
    }
  }
  Table table;
  table.title = title_line(
    symbols, {indicator_label(query), window_text(dates), adjustment_text(response.adjusted)},
    options.width);
  add_row_keys(table, response.items.size() > 1, row_symbols, dates);
  for (std::size_t v = 0; v < values.size(); ++v) {
    table.columns.push_back({{headers[v], Align::right, in_prices ? "CNY" : ""},
                             fixed_decimals(values[v], k_indicator_decimals)});
  }
  if (options.underlying) {
    // The title says both already: they give way first.
    if (!response.series_type.empty()) {
      table.columns.push_back(
        {{"SERIES"}, std::vector<std::string>(dates.size(), response.series_type), {}, 2});
    }
    table.columns.push_back(
      {{"ADJUSTED"}, std::vector<std::string>(dates.size(), response.adjusted ? "true" : "false"),
       {}, 1});
  }
  return table;
}

} // namespace

Result<Format> choose_format(const Result<std::optional<Format>>& configured) {
  if (!configured) {
    return configured.error();
  }
  if (*configured) {
    return **configured;
  }
  return ::isatty(STDOUT_FILENO) != 0 ? Format::table : Format::csv;
}

bool use_color() {
  const char* no_color = std::getenv("NO_COLOR");
  return ::isatty(STDOUT_FILENO) != 0 && (no_color == nullptr || *no_color == '\0');
}

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) {
    return text;
  }
  std::string out = "\"";
  for (const char c : text) {
    out += c;
    if (c == '"') {
      out += '"';
    }
  }
  out += '"';
  return out;
}

void print_bars(std::ostream& out, const api::BarsResponse& response, const OutputOptions& options) {
  switch (options.format) {
  case Format::table:
    print_bars_table(out, response, options);
    return;
  case Format::csv:
    print_bars_csv(out, response, options);
    return;
  case Format::json:
    out << api::bars_to_json(response, response.credits_charged) << '\n';
    return;
  case Format::ndjson:
    print_bars_ndjson(out, response, options);
    return;
  }
}

void print_indicators(std::ostream& out,
                      const api::IndicatorResponse& response,
                      const query::IndicatorQuery& query,
                      const OutputOptions& options) {
  const api::IndicatorResponse* underlying = options.underlying ? &response : nullptr;
  if (options.format == Format::json) {
    out << api::indicators_to_json(response) << '\n';
    return;
  }
  if (options.format == Format::ndjson) {
    for (std::size_t i = 0; i < response.items.size(); ++i) {
      for (const auto& value : response.items[i].values) {
        out << api::value_to_ndjson(symbol_of(response, i, query), response.indicator, value,
                                       underlying) << '\n';
      }
    }
    return;
  }
  const std::string adjusted = response.adjusted ? "true" : "false";
  // MACD, BBANDS and KDJ carry named values beside `value` (D13); ATR and KDJ read high, low and
  // close, so they have no series type to print.
  const auto extras = query::extra_value_names(response.indicator);
  const bool has_series = !response.series_type.empty();
  const auto extra_values = [](const query::IndicatorValue& value) {
    return std::array{value.second, value.third};
  };
  if (options.format == Format::csv) {
    if (options.header) {
      // The bars' vocabulary (issue 12): trade_date and t, whatever the API calls the instant.
      out << "symbol,trade_date,t,value";
      for (const auto name : extras) {
        out << ',' << name;
      }
      if (underlying) {
        out << (has_series ? ",series_type,adjusted" : ",adjusted");
      }
      out << '\n';
    }
    for (std::size_t i = 0; i < response.items.size(); ++i) {
      for (const auto& value : response.items[i].values) {
        out << symbol_of(response, i, query) << ','
            << domain::Date::containing_instant(value.timestamp).iso() << ',' << value.timestamp
            << ',' << number(value.value);
        for (std::size_t e = 0; e < extras.size(); ++e) {
          out << ',' << number(extra_values(value)[e]);
        }
        if (underlying) {
          out << ',' << (has_series ? response.series_type + "," : "") << adjusted;
        }
        out << '\n';
      }
    }
    return;
  }
  print_fitted(out, indicators_table(response, query, options), options.width);
}

} // namespace ashare::cli
