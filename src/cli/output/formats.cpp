#include "cli/output/formats.hpp"

#include "core/domain/number.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdlib>
#include <unistd.h>

namespace ashare::cli {
namespace {

// Display width of UTF-8 text, counting each code point as one column.
std::size_t display_width(const std::string& text) {
  return static_cast<std::size_t>(std::count_if(text.begin(), text.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xc0) != 0x80;
  }));
}

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

void print_bars_table(std::ostream& out, const api::BarsResponse& response, const OutputOptions& options) {
  const bool multi = response.items.size() > 1;
  std::vector<TableColumn> columns;
  if (multi) {
    columns.push_back({"SYMBOL"});
  }
  for (const auto& [name, align] : std::initializer_list<std::pair<const char*, Align>>{
         {"DATE", Align::left},
         {"OPEN", Align::right},
         {"HIGH", Align::right},
         {"LOW", Align::right},
         {"CLOSE", Align::right},
         {"CHANGE%", Align::right},
         {"VOLUME", Align::right},
         {"TURNOVER", Align::right},
         {"FACTOR", Align::right}}) {
    columns.push_back({name, align});
  }
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> colors;
  for (const auto& item : response.items) {
    for (const auto& bar : item.bars) {
      std::vector<std::string> row;
      if (multi) {
        row.push_back(item.symbol);
      }
      for (auto cell : {bar.trade_date.iso(), number(bar.open), number(bar.high), number(bar.low),
                        number(bar.close), number(bar.change_pct),
                        with_thousands(std::to_string(bar.volume)),
                        with_thousands(number(bar.turnover)), number(bar.factor)}) {
        row.push_back(std::move(cell));
      }
      rows.push_back(std::move(row));
      colors.push_back(!options.color         ? ""
                       : bar.change_pct > 0   ? k_red
                       : bar.change_pct < 0   ? k_green
                                              : "");
    }
  }
  print_table(out, columns, rows, colors);
  if (!options.summary) {
    return;
  }
  for (const auto& item : response.items) {
    if (!item.summary) {
      continue;
    }
    const auto& summary = *item.summary;
    out << "\n"
        << item.symbol << "  " << summary.from.iso() << " .. " << summary.to.iso() << "  "
        << summary.bars_count << " bars  open_first " << optional_number(summary.open_first)
        << "  close_last " << optional_number(summary.close_last) << "  return_pct "
        << optional_number(summary.return_pct) << "\n";
  }
}

void print_bars_csv(std::ostream& out, const api::BarsResponse& response, const OutputOptions& options) {
  if (options.header) {
    out << "symbol,trade_date,t,open,high,low,close,volume,turnover,change_pct,factor\n";
  }
  for (const auto& item : response.items) {
    for (const auto& bar : item.bars) {
      out << item.symbol << ',' << bar.trade_date.iso() << ',' << bar.trade_date.t_ms() << ','
          << number(bar.open) << ',' << number(bar.high) << ',' << number(bar.low) << ','
          << number(bar.close) << ',' << bar.volume << ',' << number(bar.turnover) << ','
          << number(bar.change_pct) << ',' << number(bar.factor) << '\n';
    }
  }
}

void print_bars_ndjson(std::ostream& out, const api::BarsResponse& response, const OutputOptions& options) {
  for (const auto& item : response.items) {
    for (const auto& bar : item.bars) {
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
                      const std::vector<std::string>& symbols) {
  if (!response.items[i].symbol.empty()) {
    return response.items[i].symbol;
  }
  return i < symbols.size() ? symbols[i] : "";
}

} // namespace

void print_table(std::ostream& out,
                 const std::vector<TableColumn>& columns,
                 const std::vector<std::vector<std::string>>& rows,
                 const std::vector<std::string>& row_colors) {
  std::vector<std::size_t> widths;
  for (const auto& column : columns) {
    widths.push_back(display_width(column.header));
  }
  for (const auto& row : rows) {
    for (std::size_t i = 0; i < row.size() && i < widths.size(); ++i) {
      widths[i] = std::max(widths[i], display_width(row[i]));
    }
  }
  const auto print_row = [&](const std::vector<std::string>& cells, const std::string& color) {
    std::string line;
    for (std::size_t i = 0; i < columns.size(); ++i) {
      const std::string& cell = i < cells.size() ? cells[i] : std::string();
      const std::string padding(widths[i] - display_width(cell), ' ');
      if (i > 0) {
        line += "  ";
      }
      line += columns[i].align == Align::right ? padding + cell : cell + padding;
    }
    while (!line.empty() && line.back() == ' ') {
      line.pop_back();
    }
    if (!color.empty()) {
      line = "\x1b[" + color + "m" + line + "\x1b[0m";
    }
    out << line << "\n";
  };
  std::vector<std::string> headers;
  for (const auto& column : columns) {
    headers.push_back(column.header);
  }
  print_row(headers, "");
  for (std::size_t i = 0; i < rows.size(); ++i) {
    print_row(rows[i], i < row_colors.size() ? row_colors[i] : "");
  }
}

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

std::string with_thousands(const std::string& number) {
  const auto start = number.find_first_of("0123456789");
  if (start == std::string::npos) {
    return number;
  }
  auto end = number.find('.', start);
  if (end == std::string::npos) {
    end = number.size();
  }
  std::string out = number.substr(0, start);
  for (std::size_t i = start; i < end; ++i) {
    if (i > start && (end - i) % 3 == 0) {
      out += ',';
    }
    out += number[i];
  }
  out += number.substr(end);
  return out;
}

void print_bars(std::ostream& out,
                const api::BarsResponse& response,
                const std::string& body,
                const OutputOptions& options) {
  switch (options.format) {
  case Format::table:
    print_bars_table(out, response, options);
    return;
  case Format::csv:
    print_bars_csv(out, response, options);
    return;
  case Format::json:
    out << body << '\n';
    return;
  case Format::ndjson:
    print_bars_ndjson(out, response, options);
    return;
  }
}

void print_indicators(std::ostream& out,
                      const api::IndicatorResponse& response,
                      const std::vector<std::string>& symbols,
                      const std::string& body,
                      const OutputOptions& options) {
  const api::IndicatorResponse* underlying = options.underlying ? &response : nullptr;
  if (options.format == Format::json) {
    out << body << '\n';
    return;
  }
  if (options.format == Format::ndjson) {
    for (std::size_t i = 0; i < response.items.size(); ++i) {
      for (const auto& value : response.items[i].values) {
        out << api::value_to_ndjson(symbol_of(response, i, symbols), response.indicator, value,
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
        out << symbol_of(response, i, symbols) << ','
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
  std::vector<TableColumn> columns{{"SYMBOL"}, {"DATE"}, {"VALUE", Align::right}};
  for (const auto name : extras) {
    columns.push_back({upper_case(name), Align::right});
  }
  if (underlying) {
    if (has_series) {
      columns.push_back({"SERIES"});
    }
    columns.push_back({"ADJUSTED"});
  }
  std::vector<std::vector<std::string>> rows;
  for (std::size_t i = 0; i < response.items.size(); ++i) {
    for (const auto& value : response.items[i].values) {
      std::vector<std::string> row{symbol_of(response, i, symbols),
                                   domain::Date::containing_instant(value.timestamp).iso(),
                                   number(value.value)};
      for (std::size_t e = 0; e < extras.size(); ++e) {
        row.push_back(number(extra_values(value)[e]));
      }
      if (underlying) {
        if (has_series) {
          row.push_back(response.series_type);
        }
        row.push_back(adjusted);
      }
      rows.push_back(std::move(row));
    }
  }
  print_table(out, columns, rows);
}

} // namespace ashare::cli
