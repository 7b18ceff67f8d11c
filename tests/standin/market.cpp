#include "market.hpp"

#include "index_weight.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <set>
#include <stdexcept>
#include <tuple>
#include <utility>

namespace standin {

const std::vector<Column> k_daily_columns{
    {"ts_code", true}, {"trade_date", true}, {"open", false},    {"high", false},
    {"low", false},    {"close", false},     {"pre_close", false}, {"change", false},
    {"pct_chg", false}, {"vol", false},      {"amount", false}};
const std::vector<Column> k_adj_factor_columns{
    {"ts_code", true}, {"trade_date", true}, {"adj_factor", false}};
const std::vector<Column> k_trade_cal_columns{
    {"exchange", true}, {"cal_date", true}, {"is_open", false}, {"pretrade_date", true}};
const std::vector<Column> k_stock_basic_columns{{"ts_code", true},     {"symbol", true},
                                                {"name", true},        {"list_status", true},
                                                {"list_date", true},   {"delist_date", true}};
const std::vector<Column> k_suspend_d_columns{
    {"ts_code", true}, {"trade_date", true}, {"suspend_timing", true}, {"suspend_type", true}};
const std::vector<Column> k_bse_mapping_columns{
    {"name", true}, {"o_code", true}, {"n_code", true}, {"list_date", true}};
const std::vector<Column> k_fund_basic_columns{
    {"ts_code", true},   {"name", true},        {"management", true}, {"fund_type", true}, {"found_date", true},
    {"list_date", true}, {"delist_date", true}, {"status", true},     {"market", true}};
const std::vector<Column> k_index_basic_columns{
    {"ts_code", true},   {"name", true},       {"market", true},    {"publisher", true}, {"category", true},
    {"base_date", true}, {"base_point", false}, {"list_date", true}, {"exp_date", true}};

namespace {

std::vector<std::string> split_csv_line(std::string line) {
  if (!line.empty() && line.back() == '\r') {
    line.pop_back();
  }
  std::vector<std::string> cells;
  std::size_t start = 0;
  while (true) {
    const auto comma = line.find(',', start);
    cells.push_back(line.substr(start, comma - start));
    if (comma == std::string::npos) {
      return cells;
    }
    start = comma + 1;
  }
}

// Read `path` (no quoting: the stand-in's files have none) into rows of `columns`, by header name.
std::vector<Row> load_csv(const std::filesystem::path& path, const std::vector<Column>& columns) {
  std::ifstream in(path);
  if (!in) {
    throw std::runtime_error("cannot read " + path.string());
  }
  std::string line;
  std::getline(in, line);
  const auto header = split_csv_line(line);
  std::vector<std::size_t> index;
  for (const auto& column : columns) {
    const auto found = std::find(header.begin(), header.end(), column.name);
    if (found == header.end()) {
      throw std::runtime_error(path.string() + ": no column " + column.name);
    }
    index.push_back(static_cast<std::size_t>(found - header.begin()));
  }
  std::vector<Row> rows;
  while (std::getline(in, line)) {
    if (line.empty() || line == "\r") {
      continue;
    }
    const auto cells = split_csv_line(line);
    if (cells.size() != header.size()) {
      throw std::runtime_error(path.string() + ": a row with " + std::to_string(cells.size())
                               + " cells: " + line);
    }
    Row row;
    for (const auto i : index) {
      row.push_back(cells[i]);
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

// Group `rows` by column 1 (trade_date), each day sorted by column 0 (ts_code).
RowsByDay by_day(std::vector<Row> rows) {
  RowsByDay out;
  for (auto& row : rows) {
    out[row[1]].push_back(std::move(row));
  }
  for (auto& [day, day_rows] : out) {
    std::sort(day_rows.begin(), day_rows.end(),
              [](const Row& a, const Row& b) { return a[0] < b[0]; });
  }
  return out;
}

std::vector<Row> load_daily(const std::filesystem::path& dir) {
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir / "daily")) {
    if (entry.path().extension() == ".csv") {
      files.push_back(entry.path());
    }
  }
  std::sort(files.begin(), files.end());
  if (std::filesystem::exists(dir / "daily_synthetic.csv")) {
    files.push_back(dir / "daily_synthetic.csv");
  }
  std::vector<Row> rows;
  for (const auto& file : files) {
    auto more = load_csv(file, k_daily_columns);
    rows.insert(rows.end(), std::make_move_iterator(more.begin()),
                std::make_move_iterator(more.end()));
  }
  return rows;
}

// The splitmix64 generator: the same numbers on every platform (std distributions are not).
class Random {
public:
  explicit Random(std::uint64_t seed) : m_state(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (m_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  // A whole number in [lo, hi].
  std::int64_t between(std::int64_t lo, std::int64_t hi) {
    return lo + static_cast<std::int64_t>(next() % static_cast<std::uint64_t>(hi - lo + 1));
  }

private:
  std::uint64_t m_state;
};

// `numerator / denominator` rounded half away from zero.
std::int64_t divide_rounded(std::int64_t numerator, std::int64_t denominator) {
  const std::int64_t half = denominator / 2;
  return numerator >= 0 ? (numerator + half) / denominator : -((-numerator + half) / denominator);
}

std::string generated_code(int index) {
  char buffer[16];
  if (index % 2 == 0) {
    std::snprintf(buffer, sizeof buffer, "%06d.SZ", 1 + index / 2);
  } else {
    std::snprintf(buffer, sizeof buffer, "%06d.SH", 600000 + index / 2);
  }
  return buffer;
}

// Where a synthetic symbol's rows go and how its prices are written: a stock's in `daily` and
// `adj_factor` in cents, a fund's in `fund_daily` and `fund_adj` in tenths of a cent, an index's in
// `index_daily` (no factors) in cents.
struct SymbolTables {
  RowsByDay* bars = nullptr;
  RowsByDay* factors = nullptr; // none for an index
  int places = 2;               // of a price
  std::int64_t first_close_low = 300;
  std::int64_t first_close_high = 20000;
};

// One synthetic symbol's bars (prices in units of 10^-places CNY) and factors over `days`,
// appended to `tables`.
void generate_symbol(const SymbolTables& tables, const std::string& code,
                     const std::vector<std::string>& days, Random& random) {
  const int places = tables.places;
  std::int64_t close = random.between(tables.first_close_low, tables.first_close_high);
  double factor = 1.0;
  for (std::size_t i = 0; i < days.size(); ++i) {
    const bool ex_date = i > 0 && random.between(0, 299) == 0;
    const std::int64_t pre_close = ex_date ? std::max<std::int64_t>(1, close * 97 / 100) : close;
    if (i > 0) {
      factor *= static_cast<double>(close) / static_cast<double>(pre_close);
    }
    const std::int64_t next_close =
        std::max<std::int64_t>(10, pre_close + divide_rounded(pre_close * random.between(-400, 400), 10000));
    const std::int64_t open =
        std::max<std::int64_t>(10, pre_close + divide_rounded(pre_close * random.between(-100, 100), 10000));
    const std::int64_t high =
        std::max(open, next_close) + divide_rounded(pre_close * random.between(0, 150), 10000);
    const std::int64_t low = std::max<std::int64_t>(
        1, std::min(open, next_close) - divide_rounded(pre_close * random.between(0, 150), 10000));
    const std::int64_t vol_centilots = random.between(100000, 50000000);
    const std::int64_t vwap = (open + high + low + next_close) / 4;
    // lots x 100 shares x price: centilots x price(10^-places) x 10^(places - 2)... in mills of
    // CNY, so that amount (thousand CNY) keeps 3 decimals.
    const std::int64_t amount_cny = places == 2 ? divide_rounded(vol_centilots * vwap, 100)
                                                : divide_rounded(vol_centilots * vwap, 1000);
    const std::int64_t change = next_close - pre_close;
    close = next_close;
    (*tables.bars)[days[i]].push_back(
        {code, days[i], format_fixed(open, places), format_fixed(high, places),
         format_fixed(low, places), format_fixed(close, places), format_fixed(pre_close, places),
         format_fixed(change, places), format_fixed(divide_rounded(change * 1000000, pre_close), 4),
         format_fixed(vol_centilots, 2), format_fixed(amount_cny, 3)});
    if (tables.factors != nullptr) {
      (*tables.factors)[days[i]].push_back(
          {code, days[i], format_fixed(std::llround(factor * 1000.0), 3)});
    }
  }
}

} // namespace

std::string format_fixed(std::int64_t value, int places) {
  std::string sign = value < 0 ? "-" : "";
  std::uint64_t magnitude = value < 0 ? static_cast<std::uint64_t>(-value) : static_cast<std::uint64_t>(value);
  std::uint64_t scale = 1;
  for (int i = 0; i < places; ++i) {
    scale *= 10;
  }
  std::string fraction = std::to_string(magnitude % scale);
  fraction.insert(0, static_cast<std::size_t>(places) - fraction.size(), '0');
  while (fraction.size() > 1 && fraction.back() == '0') {
    fraction.pop_back();
  }
  if (fraction.empty()) {
    fraction = "0";
  }
  return sign + std::to_string(magnitude / scale) + "." + fraction;
}

Market load_market(const std::filesystem::path& dir) {
  Market market;
  market.trade_cal = load_csv(dir / "trade_cal.csv", k_trade_cal_columns);
  std::sort(market.trade_cal.begin(), market.trade_cal.end(),
            [](const Row& a, const Row& b) { return a[1] < b[1]; });
  market.stock_basic = load_csv(dir / "stock_basic.csv", k_stock_basic_columns);
  std::sort(market.stock_basic.begin(), market.stock_basic.end());
  market.suspend_d = load_csv(dir / "suspend_d.csv", k_suspend_d_columns);
  market.bse_mapping = load_csv(dir / "bse_mapping.csv", k_bse_mapping_columns);
  std::sort(market.suspend_d.begin(), market.suspend_d.end(), [](const Row& a, const Row& b) {
    return std::tie(a[1], a[0]) < std::tie(b[1], b[0]);
  });
  market.adj_factor = by_day(load_csv(dir / "adj_factor.csv", k_adj_factor_columns));

  // A suspended symbol has no bar that day (its factor stays: Tushare publishes one daily).
  std::set<std::pair<std::string, std::string>> suspended;
  for (const auto& row : market.suspend_d) {
    if (row[3] == "S") {
      suspended.emplace(row[0], row[1]);
    }
  }
  // D20's funds and indices, when the data has them.
  if (std::filesystem::exists(dir / "fund_daily.csv")) {
    market.fund_daily = by_day(load_csv(dir / "fund_daily.csv", k_daily_columns));
    market.fund_adj = by_day(load_csv(dir / "fund_adj.csv", k_adj_factor_columns));
    market.fund_basic = load_csv(dir / "fund_basic.csv", k_fund_basic_columns);
  }
  if (std::filesystem::exists(dir / "index_daily.csv")) {
    market.index_daily = by_day(load_csv(dir / "index_daily.csv", k_daily_columns));
    market.index_basic = load_csv(dir / "index_basic.csv", k_index_basic_columns);
  }
  if (std::filesystem::is_directory(dir / "index_weight")) {
    for (const auto& entry : std::filesystem::directory_iterator(dir / "index_weight")) {
      const auto code = entry.path().stem().string();
      market.index_weight[code] = monthly_snapshots(entry.path(), code, market.trade_cal);
    }
  }
  auto daily = load_daily(dir);
  std::erase_if(daily, [&](const Row& row) { return suspended.count({row[0], row[1]}) > 0; });
  market.daily = by_day(std::move(daily));
  return market;
}

namespace {

// D20's eight default indices, which `fetch tushare` asks when none are named.
const std::vector<std::string> k_generated_indices{"000001.SH", "000016.SH", "000300.SH",
                                                   "000688.SH", "000852.SH", "000905.SH",
                                                   "399001.SZ", "399006.SZ"};

// Replace `market`'s funds (`spec.funds` ETFs, 510000.SH, 159000.SZ, 510001.SH, ...: fund_daily,
// fund_adj and fund_basic) and, when `spec.indices`, its indices (the eight above: index_daily
// and index_basic) with synthetic ones on `days`, as generate_market makes its stocks.
void generate_funds_and_indices(Market& market, const GenerateSpec& spec,
                                const std::vector<std::string>& days) {
  market.fund_daily.clear();
  market.fund_adj.clear();
  market.fund_basic.clear();
  market.index_daily.clear();
  market.index_basic.clear();
  for (int i = 0; i < spec.funds; ++i) {
    char code[16];
    std::snprintf(code, sizeof code, i % 2 == 0 ? "%06d.SH" : "%06d.SZ",
                  (i % 2 == 0 ? 510000 : 159000) + i / 2);
    Random random(spec.seed * 0x9e3779b97f4a7c15ULL + static_cast<std::uint64_t>(i));
    generate_symbol({&market.fund_daily, &market.fund_adj, 3, 500, 5000}, code, days, random);
    market.fund_basic.push_back({code, std::string("合成") + code, "合成基金", "股票型",
                                 "20000104", "20000104", "", "L", "E"});
  }
  if (spec.indices) {
    for (std::size_t i = 0; i < k_generated_indices.size(); ++i) {
      const auto& code = k_generated_indices[i];
      Random random(spec.seed * 0xbf58476d1ce4e5b9ULL + i);
      generate_symbol({&market.index_daily, nullptr, 2, 100000, 500000}, code, days, random);
      market.index_basic.push_back({code, "合成" + code, "SSE", "合成", "规模指数", "20041231",
                                    "1000.0", "20050408", ""});
    }
  }
  std::sort(market.fund_basic.begin(), market.fund_basic.end());
}

} // namespace

void generate_market(Market& market, const GenerateSpec& spec) {
  std::vector<std::string> days;
  for (const auto& row : market.trade_cal) {
    if (row[2] == "1" && row[1] >= spec.from && row[1] <= spec.to) {
      days.push_back(row[1]);
    }
  }
  market.daily.clear();
  market.adj_factor.clear();
  market.stock_basic.clear();
  market.suspend_d.clear();
  for (int i = 0; i < spec.symbols; ++i) {
    const auto code = generated_code(i);
    Random random(spec.seed * 0x100000001b3ULL + static_cast<std::uint64_t>(i));
    generate_symbol({&market.daily, &market.adj_factor}, code, days, random);
    market.stock_basic.push_back({code, code.substr(0, 6), "合成" + code.substr(0, 6), "L",
                                  "20000104", ""});
  }
  if (spec.funds > 0 || spec.indices) {
    generate_funds_and_indices(market, spec, days);
  }
  std::sort(market.stock_basic.begin(), market.stock_basic.end());
  for (auto* table : {&market.daily, &market.adj_factor, &market.fund_daily, &market.fund_adj,
                      &market.index_daily}) {
    for (auto& [day, rows] : *table) {
      std::sort(rows.begin(), rows.end(),
                [](const Row& a, const Row& b) { return a[0] < b[0]; });
    }
  }
}

} // namespace standin
