#include "index_weight.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <stdexcept>

namespace standin {

const std::vector<Column> k_index_weight_columns{
    {"index_code", true}, {"con_code", true}, {"trade_date", true}, {"weight", false}};

namespace {

struct Span {
  std::string code; // 000001.SZ
  std::string in;   // YYYYMMDD, the first day a member
  std::string out;  // YYYYMMDD, the first day no longer one; "" while a member
};

std::vector<std::string> cells_of(std::string line) {
  if (!line.empty() && line.back() == '\r') {
    line.pop_back();
  }
  std::vector<std::string> cells;
  std::size_t start = 0;
  for (auto comma = line.find(','); ; comma = line.find(',', start)) {
    cells.push_back(line.substr(start, comma - start));
    if (comma == std::string::npos) {
      return cells;
    }
    start = comma + 1;
  }
}

// "SZ000001" -> "000001.SZ"; a D1 code stays.
std::string ts_code(const std::string& symbol) {
  return symbol.size() == 8 && symbol[0] >= 'A' ? symbol.substr(2) + "." + symbol.substr(0, 2) : symbol;
}

std::string yyyymmdd(const std::string& iso) {
  return iso.size() == 10 ? iso.substr(0, 4) + iso.substr(5, 2) + iso.substr(8, 2) : iso;
}

std::vector<Span> read_spans(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::string line;
  if (!in || !std::getline(in, line)) {
    throw std::runtime_error("cannot read " + path.string());
  }
  if (line.rfind("\xEF\xBB\xBF", 0) == 0) {
    line.erase(0, 3); // the BOM
  }
  const auto header = cells_of(line);
  const auto column = [&](const std::string& name) {
    for (std::size_t i = 0; i < header.size(); ++i) {
      if (header[i] == name) {
        return i;
      }
    }
    throw std::runtime_error(path.string() + ": no column " + name);
  };
  const auto symbol = column("symbol"), opt_in = column("opt-in"), opt_out = column("opt-out");
  std::vector<Span> spans;
  while (std::getline(in, line)) {
    auto cells = cells_of(line);
    cells.resize(header.size());
    if (!cells[opt_in].empty()) {
      spans.push_back({ts_code(cells[symbol]), yyyymmdd(cells[opt_in]), yyyymmdd(cells[opt_out])});
    }
  }
  return spans;
}

} // namespace

RowsByDay monthly_snapshots(const std::filesystem::path& path,
                            const std::string& index_code,
                            const std::vector<Row>& trade_cal) {
  const auto spans = read_spans(path);
  std::vector<std::string> month_ends; // each month's last open day
  for (const auto& row : trade_cal) {
    if (row[2] != "1") {
      continue;
    }
    if (!month_ends.empty() && month_ends.back().substr(0, 6) == row[1].substr(0, 6)) {
      month_ends.back() = row[1];
    } else {
      month_ends.push_back(row[1]);
    }
  }
  RowsByDay out;
  for (const auto& day : month_ends) {
    std::vector<Row> rows;
    for (const auto& span : spans) {
      if (span.in <= day && (span.out.empty() || day < span.out)) {
        rows.push_back({index_code, span.code, day, ""});
      }
    }
    char weight[32];
    std::snprintf(weight, sizeof weight, "%.4f", rows.empty() ? 0.0 : 100.0 / static_cast<double>(rows.size()));
    for (auto& row : rows) {
      row[3] = weight;
    }
    std::sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) { return a[1] < b[1]; });
    if (!rows.empty()) {
      out[day] = std::move(rows);
    }
  }
  return out;
}

} // namespace standin
