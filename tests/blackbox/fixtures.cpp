#include "fixtures.hpp"

#include <chrono>

#include "raw_http.hpp"

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <doctest/doctest.h>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

namespace bb {
namespace {

std::vector<std::string> split_commas(const std::string& line) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = line.find(',', start);
    out.push_back(
        line.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) {
      return out;
    }
    start = comma + 1;
  }
}

std::chrono::sys_days parse_day(const std::string& iso) {
  const int year = std::stoi(iso.substr(0, 4));
  const unsigned month = static_cast<unsigned>(std::stoi(iso.substr(5, 2)));
  const unsigned day = static_cast<unsigned>(std::stoi(iso.substr(8, 2)));
  const std::chrono::year_month_day ymd{std::chrono::year{year}, std::chrono::month{month},
                                        std::chrono::day{day}};
  if (!ymd.ok() || iso.size() != 10) {
    throw std::invalid_argument("not a date: " + iso);
  }
  return std::chrono::sys_days{ymd};
}

std::string format_day(std::chrono::sys_days days) {
  const std::chrono::year_month_day ymd{days};
  char text[16];
  std::snprintf(text, sizeof text, "%04d-%02u-%02u", static_cast<int>(ymd.year()),
                static_cast<unsigned>(ymd.month()), static_cast<unsigned>(ymd.day()));
  return text;
}

void write_synthetic(const std::filesystem::path& path) {
  std::ofstream out(path);
  out << "symbol,trade_date,open,high,low,close,volume,turnover,change_pct,factor\n";
  for (std::string day = "2023-10-23"; day <= k_fixture_as_of; day = plus_days(day, 1)) {
    out << "609001.SH," << day << ",10,12,9,11,100,1100,0,1\n";
  }
}

} // namespace

void write_synthetic_bars(const std::filesystem::path& path,
                          const std::vector<std::string>& symbols,
                          int days,
                          const std::string& last) {
  std::ofstream out(path);
  out << "symbol,trade_date,open,high,low,close,volume,turnover\n";
  const auto cents = [](long value) {
    char text[32];
    std::snprintf(text, sizeof text, "%ld.%02ld", value / 100, value % 100);
    return std::string(text);
  };
  for (std::size_t s = 0; s < symbols.size(); ++s) {
    const auto first = parse_day(last) - std::chrono::days{days - 1};
    for (int i = 0; i < days; ++i) {
      // Prices in cents: an open between 10.00 and 59.99, a close within 1.00 of it.
      const long open =
          1000 + static_cast<long>((i * 7919L + static_cast<long>(s) * 104729L) % 5000);
      const long close = open - 100 + (i * 31L + static_cast<long>(s) * 17L) % 201;
      const long volume = 1000 + (i * 613L + static_cast<long>(s)) % 100000;
      out << symbols[s] << ',' << format_day(first + std::chrono::days{i}) << ',' << cents(open)
          << ',' << cents(std::max(open, close) + 50) << ',' << cents(std::min(open, close) - 50)
          << ',' << cents(close) << ',' << volume << ',' << cents(volume * close) << '\n';
    }
  }
}

namespace {

std::vector<CsvBar> read_csv_stream(std::istream& in) {
  std::string line;
  std::getline(in, line);
  std::map<std::string, std::size_t> column;
  const auto header = split_commas(line);
  for (std::size_t i = 0; i < header.size(); ++i) {
    column[header[i]] = i;
  }
  std::vector<CsvBar> rows;
  while (std::getline(in, line)) {
    if (line.empty()) {
      continue;
    }
    const auto cells = split_commas(line);
    const auto cell = [&](const char* name) { return cells.at(column.at(name)); };
    const auto number = [&](const char* name) { return std::strtod(cell(name).c_str(), nullptr); };
    CsvBar bar;
    bar.symbol = cell("symbol");
    bar.date = cell("trade_date");
    bar.open = number("open");
    bar.high = number("high");
    bar.low = number("low");
    bar.close = number("close");
    bar.volume = std::stoll(cell("volume"));
    bar.turnover = number("turnover");
    if (column.count("change_pct") > 0) {
      bar.change_pct = number("change_pct");
    }
    if (column.count("factor") > 0) {
      bar.factor = number("factor");
    }
    rows.push_back(std::move(bar));
  }
  return rows;
}

} // namespace

std::vector<CsvBar> read_csv(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) {
    throw std::runtime_error("cannot read " + path.string());
  }
  return read_csv_stream(in);
}

std::vector<CsvBar> read_csv_text(const std::string& text) {
  std::istringstream in(text);
  return read_csv_stream(in);
}

std::vector<CsvBar>
in_range(const std::vector<CsvBar>& rows, const std::string& from, const std::string& to) {
  std::vector<CsvBar> out;
  for (const auto& row : rows) {
    if (row.date >= from && row.date <= to) {
      out.push_back(row);
    }
  }
  return out;
}

std::int64_t t_ms(const std::string& iso) {
  const auto days = parse_day(iso).time_since_epoch().count();
  return static_cast<std::int64_t>(days) * 86'400'000 - 8 * 3'600'000;
}

std::string plus_days(const std::string& iso, int days) {
  return format_day(parse_day(iso) + std::chrono::days{days});
}

double round4(double x) {
  return std::round(x * 10000) / 10000;
}

double adjust(double raw, double factor, double latest) {
  return round4(raw * factor / latest);
}

void check_error(const Reply& reply, int status, const std::string& code) {
  INFO("body: " << reply.body);
  CHECK(reply.status == status);
  CHECK(reply.header("Content-Type").rfind("application/json", 0) == 0);
  CHECK(reply.header("X-Request-Id").size() == 36);
  const auto body = nlohmann::json::parse(reply.body, nullptr, false);
  REQUIRE(body.is_object());
  CHECK(body.size() == 1);
  REQUIRE(body.contains("error"));
  const auto& error = body["error"];
  REQUIRE(error.is_object());
  CHECK(error.size() == 2);
  CHECK(error.value("code", "") == code);
  REQUIRE(error.contains("message"));
  REQUIRE(error["message"].is_string());
  CHECK_FALSE(error["message"].get<std::string>().empty());
}

std::string error_code(const Reply& reply) {
  const auto body = nlohmann::json::parse(reply.body, nullptr, false);
  if (!body.is_object() || !body.contains("error") || !body["error"].is_object()) {
    return "";
  }
  return body["error"].value("code", "");
}

std::string without_request_id(std::string body) {
  const std::string field = "\"request_id\":\"";
  const auto at = body.find(field);
  REQUIRE(at != std::string::npos);
  return body.replace(at + field.size(), 36, std::string(36, '-'));
}

bool has_no_exponent(const std::string& text) {
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '-' || (c >= '0' && c <= '9')) {
      std::size_t end = i;
      while (end < text.size()
             && std::string_view("0123456789.eE+-").find(text[end]) != std::string_view::npos) {
        ++end;
      }
      const std::string token = text.substr(i, end - i);
      if (token.find_first_of("eE") != std::string::npos) {
        return false;
      }
      i = end - 1;
    }
  }
  return true;
}

namespace {

// Whether `text` has `shape`: '9' a digit, 'x' a lower-case hex digit, anything else itself.
bool has_shape(const std::string& text, std::string_view shape) {
  if (text.size() != shape.size()) {
    return false;
  }
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    const bool digit = c >= '0' && c <= '9';
    const bool ok = shape[i] == '9'   ? digit
                    : shape[i] == 'x' ? digit || (c >= 'a' && c <= 'f')
                                      : c == shape[i];
    if (!ok) {
      return false;
    }
  }
  return true;
}

} // namespace

bool is_request_id(const std::string& id) {
  return has_shape(id, "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx");
}

bool is_utc_time(const std::string& text) {
  return has_shape(text, "9999-99-99T99:99:99Z");
}

std::vector<std::string> csv_fields(const std::string& line) {
  std::vector<std::string> fields;
  std::stringstream in(line);
  std::string field;
  while (std::getline(in, field, ',')) {
    fields.push_back(field);
  }
  if (!line.empty() && line.back() == ',') {
    fields.emplace_back(); // an empty last field
  }
  return fields;
}

std::vector<std::string> words(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> out;
  for (std::string word; in >> word;) {
    out.push_back(word);
  }
  return out;
}

std::vector<std::string> dates_of(const nlohmann::json& ohlc) {
  std::vector<std::string> out;
  for (const auto& bar : ohlc) {
    out.push_back(bar.at("trade_date").get<std::string>());
  }
  return out;
}

SharedServer& shared() {
  static SharedServer* instance = [] {
    static SharedServer server;
    std::vector<std::filesystem::path> files;
    for (const auto& name : k_fixture_files) {
      files.push_back(fixture(name));
    }
    const auto synthetic = server.store.dir() / "synthetic_609001.SH.csv";
    write_synthetic(synthetic);
    files.push_back(synthetic);
    server.store.import(files, {"--source", "bb-fixtures"});
    server.pro = server.store.create_key("pro");
    server.basic = server.store.create_key("basic");
    server.free = server.store.create_key("free");
    server.server.emplace(server.store);
    return &server;
  }();
  return *instance;
}

Reply get(const std::string& target, const std::optional<std::string>& key) {
  return request(shared().port(), target, key);
}

std::string remaining(const Reply& reply) {
  REQUIRE(reply.header_count("X-Credits-Remaining") <= 1);
  return reply.header("X-Credits-Remaining");
}

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE_MESSAGE(in.good(), "cannot read " << path.string());
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

void write_text(const std::filesystem::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  REQUIRE_MESSAGE(out.good(), "cannot write " << path.string());
  out << text;
}

std::vector<std::string> concat(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

namespace indicator_tests {
namespace {

bool close_enough(double got, double want) {
  return got == want || std::abs(got - want) <= 1e-9 * std::abs(want);
}

} // namespace

std::string target(const std::string& indicator, const std::string& query) {
  return "/v1/indicators/" + indicator + (query.empty() ? "" : "?" + query);
}

Reply ind(const std::string& indicator,
          const std::string& query,
          const std::optional<std::string>& key) {
  return get(target(indicator, query), key);
}

nlohmann::json ok_body(const Reply& reply) {
  INFO("body: " << reply.body);
  REQUIRE(reply.status == 200);
  CHECK(reply.header("Content-Type").rfind("application/json", 0) == 0);
  CHECK(is_request_id(reply.header("X-Request-Id")));
  CHECK(has_no_exponent(reply.body));
  const auto body = reply.json();
  CHECK(body["request_id"] == reply.header("X-Request-Id"));
  return body;
}

std::set<std::string> keys_of(const nlohmann::json& object) {
  std::set<std::string> out;
  for (const auto& [key, value] : object.items()) {
    out.insert(key);
  }
  return out;
}

const Reference& reference(const std::string& symbol, bool adjusted, const std::string& indicator) {
  static std::map<std::string, Reference> cache;
  const std::string name =
      symbol + "_" + (adjusted ? "adjusted" : "raw") + "_" + indicator + ".csv";
  const auto found = cache.find(name);
  if (found != cache.end()) {
    return found->second;
  }
  std::ifstream in(fixture("talib") / name);
  REQUIRE_MESSAGE(in.good(), "cannot read talib/" << name);
  std::string line;
  std::getline(in, line);
  const auto header = split_commas(line);
  REQUIRE(header.at(0) == "trade_date");
  Reference ref;
  for (std::size_t i = 1; i < header.size(); ++i) {
    ref.columns[header[i]];
  }
  while (std::getline(in, line)) {
    if (line.empty()) {
      continue;
    }
    const auto cells = split_commas(line);
    REQUIRE(cells.size() == header.size());
    const auto t = t_ms(cells[0]);
    for (std::size_t i = 1; i < cells.size(); ++i) {
      if (!cells[i].empty()) {
        ref.columns[header[i]].push_back(Point{t, std::strtod(cells[i].c_str(), nullptr)});
      }
    }
  }
  return cache.emplace(name, std::move(ref)).first->second;
}

void check_matches(const std::vector<Point>& got, const std::vector<Point>& want) {
  REQUIRE(got.size() == want.size());
  std::size_t bad = 0;
  std::string first_bad;
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (got[i].t != want[i].t || !close_enough(got[i].value, want[i].value)) {
      if (bad++ == 0) {
        std::ostringstream text;
        text.precision(17);
        text << "index " << i << ": got {" << got[i].t << ", " << got[i].value << "}, want {"
             << want[i].t << ", " << want[i].value << "}";
        first_bad = text.str();
      }
    }
  }
  INFO("first mismatch: " << first_bad);
  CHECK(bad == 0);
}

httplib::Headers headers_but_volatile(const Reply& reply) {
  httplib::Headers out = reply.headers;
  for (const char* name : {"Content-Length", "Date", "X-Request-Id"}) {
    out.erase(name);
  }
  return out;
}

void check_raw_head(int port, const std::string& path, const std::string& key,
                    const std::string& remaining) {
  const auto raw = raw_exchange(port, "HEAD " + path
                                        + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
                                        + key + "\r\nConnection: close\r\n\r\n");
  INFO("HEAD " << path << ": " << raw);
  CHECK(raw.rfind("HTTP/1.1 200 ", 0) == 0);
  const auto end = raw.find("\r\n\r\n");
  REQUIRE(end != std::string::npos);
  CHECK(raw.size() == end + 4);
  CHECK(raw.find("X-Credits-Remaining: " + remaining + "\r\n") != std::string::npos);
}

} // namespace indicator_tests

void await_revoked(const TestStore& store, int port, const std::string& target,
                   const std::string& key) {
  if (!store.keys_on_server()) {
    return;
  }
  poll_until([&] { return request(port, target, key).status == 401; });
}

} // namespace bb
