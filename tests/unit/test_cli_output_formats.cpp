// The query commands' tables (issue 12): a title line with the symbols, the window and the
// adjustment (and the indicator with its parameters and convention), a units row, prices padded
// per column without dropping a digit, readable change, factor and indicator values, and a width
// fitted by compact volume and turnover, then by leaving columns out; CSV stays exact (D12).
#include "cli/output/formats.hpp"

#include <doctest/doctest.h>

#include <limits>
#include <sstream>
#include <string>

using namespace ashare;
using namespace ashare::cli;

namespace {

domain::Date date(unsigned month, unsigned day) {
  return *domain::Date::from_ymd(2024, month, day);
}

// Two raw bars: 1650 beside 1650.92 (issue 12), a derived change of 17 digits, a factor of 17.
query::SymbolBars raw_window() {
  query::SymbolBars item;
  item.symbol = "600519.SH";
  item.known = true;
  item.bars = {
    {date(6, 18), 1650, 1660.5, 1640.123, 1650.92, 2561234, 4210000000, 0.6964, 8.305},
    {date(6, 19), 1652.3, 1655, 1630.01, 1650, 45367539, 950000000, -0.05563530047873, 8.305},
  };
  return item;
}

api::BarsResponse raw_bars() {
  api::BarsResponse response;
  response.adjusted = false;
  response.from = date(6, 18);
  response.to = date(6, 19);
  response.items.emplace_back(raw_window());
  return response;
}

std::string table_of(const api::BarsResponse& response, std::optional<std::size_t> width) {
  std::ostringstream out;
  print_bars(out, response, {.format = Format::table, .width = width});
  return out.str();
}

api::IndicatorResponse macd_values(const query::IndicatorQuery& query) {
  api::IndicatorResponse response;
  response.indicator = query::Indicator::macd;
  response.series_type = "close";
  for (const auto& symbol : query.symbols) {
    query::SymbolValues item;
    item.symbol = symbol.str();
    item.known = true;
    item.values = {
      {date(12, 31).t_ms(), 4.0834573914378325, 3.6430628566453187, 0.4403945347925138},
      {date(12, 30).t_ms(), 4.529618972874232, 3.5329642229471903, 0.9966547499270417},
    };
    response.items.push_back(item);
    response.next_urls.push_back(std::nullopt);
  }
  return response;
}

query::IndicatorQuery macd_query(std::initializer_list<const char*> symbols) {
  query::IndicatorQuery query;
  query.indicator = query::Indicator::macd;
  for (const auto* symbol : symbols) {
    query.symbols.push_back(*domain::parse_symbol(symbol));
  }
  return query;
}

// The words of `line`, one space apart.
std::string words(const std::string& line) {
  std::istringstream in(line);
  std::string out;
  for (std::string word; in >> word;) {
    out += (out.empty() ? "" : " ") + word;
  }
  return out;
}

std::string table_of(const api::IndicatorResponse& response,
                     const query::IndicatorQuery& query,
                     bool underlying = false) {
  std::ostringstream out;
  print_indicators(out, response, query,
                   {.format = Format::table, .underlying = underlying, .width = std::nullopt});
  return out.str();
}

} // namespace

TEST_CASE("cli::print_bars table") {
  SUBCASE("the full table: title, units, every digit, points aligned") {
    CHECK(table_of(raw_bars(), std::nullopt)
          == "600519.SH  2024-06-18 .. 2024-06-19  raw prices\n"
             "DATE          OPEN    HIGH       LOW    CLOSE  CHANGE%      VOLUME       TURNOVER  FACTOR\n"
             "               CNY     CNY       CNY      CNY               shares            CNY\n"
             "2024-06-18  1650.0  1660.5  1640.123  1650.92  +0.6964   2,561,234  4,210,000,000   8.305\n"
             "2024-06-19  1652.3  1655.0  1630.010  1650.00  -0.0556  45,367,539    950,000,000   8.305\n");
  }
  SUBCASE("narrow: compact volume and turnover, then FACTOR left out") {
    CHECK(table_of(raw_bars(), 80)
          == "600519.SH  2024-06-18 .. 2024-06-19  raw prices\n"
             "DATE          OPEN    HIGH       LOW    CLOSE  CHANGE%  VOLUME  TURNOVER  FACTOR\n"
             "               CNY     CNY       CNY      CNY           shares       CNY\n"
             "2024-06-18  1650.0  1660.5  1640.123  1650.92  +0.6964   2.56M     4.21B   8.305\n"
             "2024-06-19  1652.3  1655.0  1630.010  1650.00  -0.0556  45.37M     0.95B   8.305\n");
    const auto narrower = table_of(raw_bars(), 79);
    CHECK(narrower.find("FACTOR") == std::string::npos);
    CHECK(narrower.find("45.37M     0.95B\n") != std::string::npos);
    const auto narrowest = table_of(raw_bars(), 37); // DATE, LOW, CLOSE, CHANGE%: 38
    CHECK(narrowest
          == "600519.SH  2024-06-18 .. 2024-06-19  raw prices\n"
             "DATE          CLOSE  CHANGE%\n"
             "                CNY\n"
             "2024-06-18  1650.92  +0.6964\n"
             "2024-06-19  1650.00  -0.0556\n");
  }
  SUBCASE("several symbols: a SYMBOL column, all listed in the title while they fit") {
    auto response = raw_bars();
    response.adjusted = true;
    auto other = raw_window();
    other.symbol = "600036.SH";
    other.bars.resize(1);
    other.bars[0].trade_date = date(6, 17);
    response.items.emplace_back(std::move(other));
    const auto wide = table_of(response, std::nullopt);
    CHECK(wide.substr(0, wide.find('\n'))
          == "600519.SH, 600036.SH  2024-06-17 .. 2024-06-19  forward-adjusted");
    CHECK(wide.find("\nSYMBOL     DATE ") != std::string::npos);
    const auto narrow = table_of(response, 60);
    CHECK(narrow.substr(0, narrow.find('\n')) == "2 symbols  2024-06-17 .. 2024-06-19  forward-adjusted");
  }
  SUBCASE("no bars: a title without a window, the header") {
    auto response = raw_bars();
    auto empty = raw_window();
    empty.bars.clear();
    response.items[0] = api::BarsItem(std::move(empty));
    CHECK(table_of(response, 80)
          == "600519.SH  raw prices\n"
             "DATE  OPEN  HIGH  LOW  CLOSE  CHANGE%  VOLUME  TURNOVER  FACTOR\n"
             "       CNY   CNY  CNY    CNY           shares       CNY\n");
  }
  SUBCASE("colours: red up, green down") {
    std::ostringstream out;
    print_bars(out, raw_bars(), {.format = Format::table, .color = true});
    CHECK(out.str().find("\n\x1b[31m2024-06-18  1650.0") != std::string::npos);
    CHECK(out.str().find("\n\x1b[32m2024-06-19  1652.3") != std::string::npos);
  }
  SUBCASE("csv keeps every digit (D12), whatever the width") {
    std::ostringstream out;
    print_bars(out, raw_bars(), {.format = Format::csv, .width = 20});
    CHECK(out.str()
          == "symbol,trade_date,t,open,high,low,close,volume,turnover,change_pct,factor\n"
             "600519.SH,2024-06-18,1718640000000,1650,1660.5,1640.123,1650.92,2561234,4210000000,"
             "0.6964,8.305\n"
             "600519.SH,2024-06-19,1718726400000,1652.3,1655,1630.01,1650,45367539,950000000,"
             "-0.05563530047873,8.305\n");
  }
}

TEST_CASE("cli::print_indicators table") {
  SUBCASE("the title names the indicator, its parameters and convention; 4 decimals") {
    const auto query = macd_query({"600519.SH"});
    CHECK(table_of(macd_values(query), query)
          == "600519.SH  MACD(12,26,9) talib  2024-12-30 .. 2024-12-31  forward-adjusted\n"
             "DATE          MACD  SIGNAL  HISTOGRAM\n"
             "               CNY     CNY        CNY\n"
             "2024-12-31  4.0835  3.6431     0.4404\n"
             "2024-12-30  4.5296  3.5330     0.9967\n");
  }
  SUBCASE("labels of every indicator") {
    const struct {
      query::Indicator indicator;
      const char* label;
      const char* header;
    } cases[] = {
      {query::Indicator::ema, "EMA(50,open) tdx", "DATE EMA"},
      {query::Indicator::rsi, "RSI(50,open) tdx", "DATE RSI"},
      {query::Indicator::sma, "SMA(50,open) tdx", "DATE SMA"},
      {query::Indicator::macd, "MACD(12,26,9,open) tdx", "DATE MACD SIGNAL HISTOGRAM"},
      {query::Indicator::bbands, "BBANDS(50,2.5,open) tdx", "DATE MIDDLE UPPER LOWER"},
      {query::Indicator::atr, "ATR(50) tdx", "DATE ATR"},
      {query::Indicator::kdj, "KDJ(9,3,3) tdx", "DATE K D J"},
    };
    for (const auto& c : cases) {
      CAPTURE(c.label);
      auto query = macd_query({"600519.SH"});
      query.indicator = c.indicator;
      query.convention = query::Convention::tdx;
      query.series_type = store::PriceField::open;
      query.k = 2.5;
      query.adjusted = false;
      auto response = macd_values(query);
      // As indicators_from_json() tells it: SMA for a body without named values.
      const auto names = query::extra_value_names(c.indicator);
      response.indicator = names.empty() ? query::Indicator::sma : c.indicator;
      response.adjusted = false;
      const auto table = table_of(response, query);
      CHECK(table.substr(0, table.find('\n'))
            == std::string("600519.SH  ") + c.label + "  2024-12-30 .. 2024-12-31  raw prices");
      const auto header = table.substr(table.find('\n') + 1);
      CHECK(words(header.substr(0, header.find('\n'))) == c.header);
      // RSI and KDJ run from 0 to 100: no units row; the others are in CNY.
      const bool oscillator =
        c.indicator == query::Indicator::rsi || c.indicator == query::Indicator::kdj;
      CHECK((table.find("CNY") == std::string::npos) == oscillator);
    }
  }
  SUBCASE("several symbols and --underlying: SYMBOL, SERIES and ADJUSTED columns") {
    const auto query = macd_query({"600519.SH", "600036.SH"});
    const auto table = table_of(macd_values(query), query, true);
    CHECK(table.find("\nSYMBOL     DATE          MACD  SIGNAL  HISTOGRAM  SERIES  ADJUSTED\n")
          != std::string::npos);
    CHECK(table.find("\n600036.SH  2024-12-30  4.5296  3.5330     0.9967  close   true\n")
          != std::string::npos);
  }
}
