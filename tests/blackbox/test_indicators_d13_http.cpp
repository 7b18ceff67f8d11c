// D13's endpoints /v1/indicators/macd, bbands, atr and kdj over HTTP, with D4, D6, D7, D9 and D10:
// TA-Lib's values (tests/data/talib) in the default talib convention, an independent reading of
// D13's tdx recurrences, five bars worked by hand, the named value fields, D9's filters and
// next_url, every parameter error in the documented check order, credits and HEAD. Expected values
// come from the fixture files and the formulas here, never from the server.
#include "fixtures.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

using namespace bb;
using namespace bb::indicator_tests;
using nlohmann::json;

namespace {

const std::vector<std::string> k_d13{"macd", "bbands", "atr", "kdj"};

// D13: each endpoint's value fields beside `timestamp`, `value` first.
const std::map<std::string, std::vector<std::string>> k_fields{
    {"macd", {"value", "signal", "histogram"}},
    {"bbands", {"value", "upper", "lower"}},
    {"atr", {"value"}},
    {"kdj", {"value", "d", "j"}},
};

// One value item: its timestamp and its numbers in k_fields order.
struct Item {
  std::int64_t t = 0;
  std::vector<double> fields;
  bool operator==(const Item&) const = default;
};

// The items of a `values` array of `indicator`; each is exactly {timestamp: integer} and the
// endpoint's named fields, all numbers.
std::vector<Item> items_of(const std::string& indicator, const json& values) {
  const auto& fields = k_fields.at(indicator);
  std::set<std::string> keys{"timestamp"};
  keys.insert(fields.begin(), fields.end());
  REQUIRE(values.is_array());
  std::vector<Item> out;
  for (const auto& value : values) {
    REQUIRE(value.is_object());
    REQUIRE(keys_of(value) == keys);
    REQUIRE(value["timestamp"].is_number_integer());
    Item item{value["timestamp"].get<std::int64_t>(), {}};
    for (const auto& field : fields) {
      REQUIRE(value[field].is_number());
      item.fields.push_back(value[field].get<double>());
    }
    out.push_back(std::move(item));
  }
  return out;
}

// The items of a single-symbol 200 reply of `indicator`.
std::vector<Item> single_items(const std::string& indicator, const Reply& reply) {
  const auto body = ok_body(reply);
  REQUIRE(body["results"].is_object());
  return items_of(indicator, body["results"]["values"]);
}

// Field `field` (index into k_fields) of `items` as points.
std::vector<Point> column(const std::vector<Item>& items, std::size_t field) {
  std::vector<Point> out;
  for (const auto& item : items) {
    out.push_back(Point{item.t, item.fields.at(field)});
  }
  return out;
}

// `got` has exactly the timestamps of `want`, in order, and every field within 1e-9 of
// max(1, |want|): an absolute floor, as D13's tdx lines (MACD's DIF, the histogram) cross zero.
void check_items(const std::vector<Item>& got, const std::vector<Item>& want) {
  REQUIRE(got.size() == want.size());
  std::size_t bad = 0;
  std::string first_bad;
  for (std::size_t i = 0; i < got.size(); ++i) {
    REQUIRE(got[i].fields.size() == want[i].fields.size());
    bool same = got[i].t == want[i].t;
    for (std::size_t f = 0; f < want[i].fields.size(); ++f) {
      const double expected = want[i].fields[f];
      same = same
             && std::abs(got[i].fields[f] - expected) <= 1e-9 * std::max(1.0, std::abs(expected));
    }
    if (!same && bad++ == 0) {
      std::ostringstream text;
      text.precision(17);
      text << "index " << i << " (t " << want[i].t << "): got t " << got[i].t << " {";
      for (const double x : got[i].fields) {
        text << " " << x;
      }
      text << " }, want {";
      for (const double x : want[i].fields) {
        text << " " << x;
      }
      text << " }";
      first_bad = text.str();
    }
  }
  INFO("first mismatch: " << first_bad);
  CHECK(bad == 0);
}

// --- The talib convention: TA-Lib's files ----------------------------------------------------

struct Source {
  std::string symbol;
  bool adjusted;
  std::string query() const {
    return "symbol=" + symbol + "&adjusted=" + (adjusted ? "true" : "false");
  }
};

// The sources of tests/data/talib: 600519.SH (factor steps) both ways, 000001.SZ raw.
const std::vector<Source> k_sources{
    {"600519.SH", true}, {"600519.SH", false}, {"000001.SZ", false}};

// A request of `indicator` and the columns of its TA-Lib file that answer it, per value field.
struct TalibCase {
  std::string query; // the endpoint's own parameters
  std::vector<std::string> columns;
};

// Every parameter set of the TA-Lib files of `indicator` (README: D13), as requests.
std::vector<TalibCase> talib_cases(const std::string& indicator) {
  std::vector<TalibCase> out;
  if (indicator == "macd") {
    for (const auto& series : k_series_types) {
      for (const auto& [fast, slow, signal] : std::vector<std::array<int, 3>>{
               {12, 26, 9}, {6, 13, 5}, {2, 3, 2}, {5, 50, 20}}) {
        const auto prefix = series + "_" + std::to_string(fast) + "_" + std::to_string(slow) + "_"
                            + std::to_string(signal);
        out.push_back({"series_type=" + series + "&fast=" + std::to_string(fast) + "&slow="
                           + std::to_string(slow) + "&signal=" + std::to_string(signal),
                       {prefix + "_macd", prefix + "_signal", prefix + "_hist"}});
      }
    }
  } else if (indicator == "bbands") {
    for (const auto& series : k_series_types) {
      for (const auto& [window, k] : std::vector<std::pair<int, std::string>>{
               {20, "2"}, {5, "1.5"}, {2, "1"}, {50, "2.5"}}) {
        const auto prefix = series + "_" + std::to_string(window) + "_" + k;
        out.push_back({"series_type=" + series + "&window=" + std::to_string(window) + "&k=" + k,
                       {prefix + "_middle", prefix + "_upper", prefix + "_lower"}});
      }
    }
  } else if (indicator == "atr") {
    for (const int window : {1, 2, 5, 14, 50}) {
      out.push_back({"window=" + std::to_string(window),
                     {"atr_" + std::to_string(window) + "_value"}});
    }
  } else {
    for (const auto& [n, m1, m2] : std::vector<std::array<int, 3>>{
             {9, 3, 3}, {5, 3, 3}, {14, 1, 1}, {1, 1, 1}, {20, 5, 7}}) {
      const auto prefix =
          "stoch_" + std::to_string(n) + "_" + std::to_string(m1) + "_" + std::to_string(m2);
      out.push_back({"n=" + std::to_string(n) + "&m1=" + std::to_string(m1)
                         + "&m2=" + std::to_string(m2),
                     {prefix + "_k", prefix + "_d"}});
    }
  }
  return out;
}

// The file of TA-Lib's values of `indicator` (KDJ's is STOCH's).
std::string talib_file(const std::string& indicator) {
  return indicator == "kdj" ? "stoch" : indicator;
}

// Check `got` (items of `indicator`) against TA-Lib's `columns` of `ref`; KDJ's J against 3K - 2D
// of TA-Lib's K and D, to 1e-9 of 3|K| + 2|D| (the error J inherits from them).
void check_talib(const std::string& indicator,
                 const std::vector<Item>& got,
                 const Reference& ref,
                 const std::vector<std::string>& columns) {
  for (std::size_t f = 0; f < columns.size(); ++f) {
    CAPTURE(columns[f]);
    check_matches(column(got, f), ref.column(columns[f]));
  }
  if (indicator != "kdj") {
    return;
  }
  const auto& k = ref.column(columns[0]);
  const auto& d = ref.column(columns[1]);
  REQUIRE(k.size() == d.size());
  REQUIRE(got.size() == k.size());
  std::size_t bad = 0;
  for (std::size_t i = 0; i < k.size(); ++i) {
    const double j = 3 * k[i].value - 2 * d[i].value;
    const double scale = 3 * std::abs(k[i].value) + 2 * std::abs(d[i].value);
    const double error = std::abs(got[i].fields[2] - j);
    bad += got[i].t == k[i].t && (error == 0 || error <= 1e-9 * scale) ? 0 : 1;
  }
  CHECK(bad == 0);
}

// --- The tdx convention: D13's recurrences, written here from D13's text -----------------------

// A symbol's history ascending, each price field raw or adjusted as D9 says (unrounded).
struct History {
  std::vector<std::int64_t> t;
  std::map<std::string, std::vector<double>> prices; // by series_type
};

History history_of(const std::string& file, bool adjusted) {
  auto rows = read_csv(fixture(file));
  std::stable_sort(rows.begin(), rows.end(),
                   [](const CsvBar& a, const CsvBar& b) { return a.date < b.date; });
  const double latest = rows.back().factor.value_or(1);
  History out;
  for (const auto& row : rows) {
    out.t.push_back(t_ms(row.date));
    const double factor = row.factor.value_or(1);
    for (const auto& [name, field] : std::vector<std::pair<std::string, double CsvBar::*>>{
             {"open", &CsvBar::open},
             {"high", &CsvBar::high},
             {"low", &CsvBar::low},
             {"close", &CsvBar::close}}) {
      out.prices[name].push_back(adjusted ? row.*field * factor / latest : row.*field);
    }
  }
  return out;
}

// D13 EMA(X,N): Y[0] = X[0], Y[i] = (2*X[i] + (N-1)*Y[i-1]) / (N+1).
std::vector<double> tdx_ema(const std::vector<double>& x, int n) {
  std::vector<double> y;
  for (std::size_t i = 0; i < x.size(); ++i) {
    y.push_back(i == 0 ? x[0] : (2 * x[i] + (n - 1) * y[i - 1]) / (n + 1));
  }
  return y;
}

// D13 SMA(X,N,M): Y[0] = X[0], Y[i] = (M*X[i] + (N-M)*Y[i-1]) / N.
std::vector<double> tdx_sma(const std::vector<double>& x, int n, int m) {
  std::vector<double> y;
  for (std::size_t i = 0; i < x.size(); ++i) {
    y.push_back(i == 0 ? x[0] : (m * x[i] + (n - m) * y[i - 1]) / n);
  }
  return y;
}

// The mean of x[i-n+1..i].
double mean_of(const std::vector<double>& x, std::size_t i, int n) {
  double sum = 0;
  for (std::size_t j = i + 1 - static_cast<std::size_t>(n); j <= i; ++j) {
    sum += x[j];
  }
  return sum / n;
}

// D13 MACD over `x`: DIF, DEA = EMA(DIF, signal), 2*(DIF-DEA), from index 0.
std::vector<Item>
tdx_macd(const std::vector<std::int64_t>& t, const std::vector<double>& x, int fast, int slow,
         int signal) {
  const auto fast_line = tdx_ema(x, fast);
  const auto slow_line = tdx_ema(x, slow);
  std::vector<double> dif;
  for (std::size_t i = 0; i < x.size(); ++i) {
    dif.push_back(fast_line[i] - slow_line[i]);
  }
  const auto dea = tdx_ema(dif, signal);
  std::vector<Item> out;
  for (std::size_t i = 0; i < x.size(); ++i) {
    out.push_back(Item{t[i], {dif[i], dea[i], 2 * (dif[i] - dea[i])}});
  }
  return out;
}

// D13 BOLL over `x`: MA(X,N) +/- k times the sample deviation (divisor N-1), from index N-1.
std::vector<Item>
tdx_boll(const std::vector<std::int64_t>& t, const std::vector<double>& x, int n, double k) {
  std::vector<Item> out;
  for (std::size_t i = static_cast<std::size_t>(n) - 1; i < x.size(); ++i) {
    const double middle = mean_of(x, i, n);
    double squares = 0;
    for (std::size_t j = i + 1 - static_cast<std::size_t>(n); j <= i; ++j) {
      squares += (x[j] - middle) * (x[j] - middle);
    }
    const double deviation = std::sqrt(squares / (n - 1));
    out.push_back(Item{t[i], {middle, middle + k * deviation, middle - k * deviation}});
  }
  return out;
}

// D13 ATR: MA(TR, N), TR from index 1, first value at index N.
std::vector<Item> tdx_atr(const History& h, int n) {
  const auto& high = h.prices.at("high");
  const auto& low = h.prices.at("low");
  const auto& close = h.prices.at("close");
  std::vector<double> tr{0}; // index 0 has no true range and is never averaged
  for (std::size_t i = 1; i < close.size(); ++i) {
    tr.push_back(std::max({high[i] - low[i], std::abs(close[i - 1] - high[i]),
                           std::abs(close[i - 1] - low[i])}));
  }
  std::vector<Item> out;
  for (std::size_t i = static_cast<std::size_t>(n); i < close.size(); ++i) {
    out.push_back(Item{h.t[i], {mean_of(tr, i, n)}});
  }
  return out;
}

// D13 KDJ: RSV over the last min(n, i+1) bars (50 when HHV = LLV), K = SMA(RSV,m1,1),
// D = SMA(K,m2,1), J = 3K - 2D, from index 0.
std::vector<Item> tdx_kdj(const History& h, int n, int m1, int m2) {
  const auto& high = h.prices.at("high");
  const auto& low = h.prices.at("low");
  const auto& close = h.prices.at("close");
  std::vector<double> rsv;
  for (std::size_t i = 0; i < close.size(); ++i) {
    const auto span = static_cast<std::size_t>(n);
    const std::size_t from = i + 1 > span ? i + 1 - span : 0;
    double hhv = high[from];
    double llv = low[from];
    for (std::size_t j = from; j <= i; ++j) {
      hhv = std::max(hhv, high[j]);
      llv = std::min(llv, low[j]);
    }
    rsv.push_back(hhv == llv ? 50.0 : (close[i] - llv) / (hhv - llv) * 100);
  }
  const auto k = tdx_sma(rsv, m1, 1);
  const auto d = tdx_sma(k, m2, 1);
  std::vector<Item> out;
  for (std::size_t i = 0; i < close.size(); ++i) {
    out.push_back(Item{h.t[i], {k[i], d[i], 3 * k[i] - 2 * d[i]}});
  }
  return out;
}

// --- Errors ------------------------------------------------------------------------------------

// Whether `message` names `word` as a word of its own: `n` is not named by "invalid", nor
// `timestamp` by "timestamp.gt".
bool names(const std::string& message, const std::string& word) {
  const auto is_name_char = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '.';
  };
  for (auto at = message.find(word); at != std::string::npos; at = message.find(word, at + 1)) {
    const bool starts = at == 0 || !is_name_char(message[at - 1]);
    const auto end = at + word.size();
    // A name may end a sentence with a dot, never continue with a name character.
    const bool ends = end == message.size() || !is_name_char(message[end])
                      || (message[end] == '.'
                          && (end + 1 == message.size() || !is_name_char(message[end + 1])));
    if (starts && ends) {
      return true;
    }
  }
  return false;
}

std::string message_of(const Reply& reply) {
  return reply.json()["error"]["message"].get<std::string>();
}

// Check that `reply` is 400 INVALID_PARAMETER naming `name` and showing `value` (D10).
void check_invalid(const Reply& reply, const std::string& name, const std::string& value) {
  check_error(reply, 400, "INVALID_PARAMETER");
  const auto message = message_of(reply);
  INFO("message: " << message);
  CHECK(names(message, name));
  if (!value.empty()) {
    CHECK(message.find(value) != std::string::npos);
  }
}

// The parameters of the query of `url` (a path and query), undecoded.
std::map<std::string, std::string> params_of(const std::string& url) {
  std::map<std::string, std::string> out;
  const auto query = url.find('?');
  if (query == std::string::npos) {
    return out;
  }
  std::stringstream stream(url.substr(query + 1));
  for (std::string pair; std::getline(stream, pair, '&');) {
    const auto equals = pair.find('=');
    REQUIRE_MESSAGE(out.count(pair.substr(0, equals)) == 0, "repeated in " << url);
    out[pair.substr(0, equals)] = equals == std::string::npos ? "" : pair.substr(equals + 1);
  }
  return out;
}

// Whether time parameter text `text` (a date or Unix milliseconds, D9) stands for `t`.
bool stands_for(const std::string& text, std::int64_t t) {
  if (!text.empty() && text.find_first_not_of("0123456789") == std::string::npos) {
    return std::stoll(text) == t;
  }
  return text.size() == 10 && t_ms(text) == t;
}

// `value` percent-encoded for a query: everything but letters, digits and -._~ (so that a space
// or a '+' reaches the server as itself).
std::string encoded(const std::string& value) {
  static constexpr char k_hex[] = "0123456789ABCDEF";
  std::string out;
  for (const char c : value) {
    const auto byte = static_cast<unsigned char>(c);
    if (std::isalnum(byte) != 0 || std::string_view("-._~").find(c) != std::string_view::npos) {
      out += c;
    } else {
      out += '%';
      out += k_hex[byte >> 4];
      out += k_hex[byte & 15];
    }
  }
  return out;
}

// `text` in upper case.
std::string upper(std::string text) {
  for (auto& c : text) {
    c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  }
  return text;
}

} // namespace

TEST_CASE("D13 talib: macd, bbands, atr and kdj equal TA-Lib's for every fixture parameter set") {
  for (const auto& indicator : k_d13) {
    for (const auto& source : k_sources) {
      const auto& ref = reference(source.symbol, source.adjusted, talib_file(indicator));
      bool spelled = false;
      for (const auto& test : talib_cases(indicator)) {
        const auto& query = test.query; // not bindings: clang 14's CAPTURE cannot take those
        const auto& columns = test.columns;
        CAPTURE(indicator);
        CAPTURE(source.query());
        CAPTURE(query);
        // Every other request names the convention; the rest leave it to the default.
        spelled = !spelled;
        const std::string convention = spelled ? "&convention=talib" : "";
        const auto got = single_items(
            indicator, ind(indicator, source.query() + "&" + query + convention
                                          + "&order=asc&limit=5000"));
        REQUIRE_FALSE(got.empty());
        check_talib(indicator, got, ref, columns);
      }
    }
  }
}

TEST_CASE("D13 talib: the defaults are TA-Lib's 12/26/9, 20/2, 14 and 9/3/3 on the close") {
  const std::map<std::string, std::pair<std::string, std::vector<std::string>>> defaults{
      {"macd",
       {"fast=12&slow=26&signal=9&series_type=close",
        {"close_12_26_9_macd", "close_12_26_9_signal", "close_12_26_9_hist"}}},
      {"bbands",
       {"window=20&k=2&series_type=close",
        {"close_20_2_middle", "close_20_2_upper", "close_20_2_lower"}}},
      {"atr", {"window=14", {"atr_14_value"}}},
      {"kdj", {"n=9&m1=3&m2=3", {"stoch_9_3_3_k", "stoch_9_3_3_d"}}},
  };
  for (const auto& indicator : k_d13) {
    CAPTURE(indicator);
    const auto& [spelled, columns] = defaults.at(indicator);
    const auto body = ok_body(ind(indicator, "symbol=600519.SH"));
    CHECK(keys_of(body) == std::set<std::string>{"status", "request_id", "results"});
    CHECK(body["status"] == "OK");
    CHECK(keys_of(body["results"]) == std::set<std::string>{"values", "next_url"});
    CHECK(body["results"]["next_url"]
          == "/v1/indicators/" + indicator + "?symbol=600519.SH&timestamp.lt=2025-10-10");
    const auto got = items_of(indicator, body["results"]["values"]);
    REQUIRE(got.size() == 10);
    // The latest ten, newest first, of the adjusted close (D9), in the talib convention.
    Reference latest;
    const auto& ref = reference("600519.SH", true, talib_file(indicator));
    for (const auto& name : columns) {
      latest.columns[name] = first(reversed(ref.column(name)), 10);
    }
    check_talib(indicator, got, latest, columns);
    // Every default spelled out gives the same numbers.
    const auto explicit_body = ok_body(ind(indicator, "symbol=600519.SH&" + spelled
                                                          + "&convention=talib&adjusted=true"
                                                            "&order=desc&limit=10&timespan=day"
                                                            "&expand_underlying=false"));
    CHECK(explicit_body["results"]["values"] == body["results"]["values"]);
    // And another convention or mode gives others.
    CHECK(ok_body(ind(indicator, "symbol=600519.SH&convention=tdx"))["results"]["values"]
          != body["results"]["values"]);
    CHECK(ok_body(ind(indicator, "symbol=600519.SH&adjusted=false"))["results"]["values"]
          != body["results"]["values"]);
  }
}

TEST_CASE("D13 talib: bbands' k scales the bands, up to k=10 and down to a fraction") {
  const std::string base = "symbol=600519.SH&window=5&order=asc&limit=5000";
  const auto one = single_items("bbands", ind("bbands", base + "&k=1"));
  REQUIRE(one.size() > 400);
  for (const std::string k : {"10", "10.0", "0.5", "0.001", "2.25", "02"}) {
    CAPTURE(k);
    const double factor = std::stod(k);
    const auto got = single_items("bbands", ind("bbands", base + "&k=" + k));
    REQUIRE(got.size() == one.size());
    std::size_t bad = 0;
    for (std::size_t i = 0; i < got.size(); ++i) {
      const double middle = one[i].fields[0];
      const double width = one[i].fields[1] - middle;
      bad += got[i].t == one[i].t && got[i].fields[0] == middle
                     && std::abs(got[i].fields[1] - (middle + factor * width)) <= 1e-9 * middle
                     && std::abs(got[i].fields[2] - (middle - factor * width)) <= 1e-9 * middle
                 ? 0
                 : 1;
    }
    CHECK(bad == 0);
  }
  CHECK(single_items("bbands", ind("bbands", base + "&k=02"))
        == single_items("bbands", ind("bbands", base)));
}

TEST_CASE("D13 tdx: macd, bbands, atr and kdj equal D13's recurrences computed here") {
  struct Data {
    std::string file;
    Source source;
  };
  // Each check runs over 600519.SH adjusted (factor steps) and raw, and 000001.SZ's 1212 bars,
  // given the history and the query up to `convention=`.
  using Check = std::function<void(const History&, const std::string&)>;
  const auto over_sources = [](const Check& check) {
    for (const auto& data : {Data{"bancob_600519.SH.csv", {"600519.SH", true}},
                             Data{"bancob_600519.SH.csv", {"600519.SH", false}},
                             Data{"jenny_000001.SZ.csv", {"000001.SZ", false}}}) {
      CAPTURE(data.source.query());
      check(history_of(data.file, data.source.adjusted),
            data.source.query() + "&order=asc&limit=5000&convention=");
    }
  };
  SUBCASE("macd") {
    over_sources([](const History& history, const std::string& all) {
      check_items(single_items("macd", ind("macd", all + "tdx")),
                  tdx_macd(history.t, history.prices.at("close"), 12, 26, 9));
      check_items(
          single_items("macd", ind("macd", all + "TDX&fast=5&slow=10&signal=3&series_type=high")),
          tdx_macd(history.t, history.prices.at("high"), 5, 10, 3));
      check_items(single_items("macd", ind("macd", all + "Tdx&fast=2&slow=3&signal=1")),
                  tdx_macd(history.t, history.prices.at("close"), 2, 3, 1));
    });
  }
  SUBCASE("bbands (BOLL, the sample deviation)") {
    over_sources([](const History& history, const std::string& all) {
      check_items(single_items("bbands", ind("bbands", all + "tdx")),
                  tdx_boll(history.t, history.prices.at("close"), 20, 2));
      check_items(
          single_items("bbands", ind("bbands", all + "tdx&window=5&k=1.5&series_type=low")),
          tdx_boll(history.t, history.prices.at("low"), 5, 1.5));
      // TA-Lib's population deviation is smaller by sqrt((N-1)/N); the middles are the same.
      const auto talib = single_items("bbands", ind("bbands", all + "talib&window=5"));
      const auto tdx = single_items("bbands", ind("bbands", all + "tdx&window=5"));
      REQUIRE(talib.size() == tdx.size());
      CHECK(talib.back().fields[0] == doctest::Approx(tdx.back().fields[0]).epsilon(1e-12));
      CHECK((tdx.back().fields[1] - tdx.back().fields[0])
            == doctest::Approx((talib.back().fields[1] - talib.back().fields[0])
                               * std::sqrt(5.0 / 4))
                   .epsilon(1e-9));
    });
  }
  SUBCASE("atr (MA of the true range)") {
    over_sources([](const History& history, const std::string& all) {
      check_items(single_items("atr", ind("atr", all + "tdx")), tdx_atr(history, 14));
      check_items(single_items("atr", ind("atr", all + "tdx&window=3")), tdx_atr(history, 3));
      check_items(single_items("atr", ind("atr", all + "tdx&window=1")), tdx_atr(history, 1));
    });
  }
  SUBCASE("kdj (RSV from the first bar)") {
    over_sources([](const History& history, const std::string& all) {
      check_items(single_items("kdj", ind("kdj", all + "tdx")), tdx_kdj(history, 9, 3, 3));
      check_items(single_items("kdj", ind("kdj", all + "tdx&n=5&m1=4&m2=2")),
                  tdx_kdj(history, 5, 4, 2));
      check_items(single_items("kdj", ind("kdj", all + "tdx&n=1&m1=1&m2=1")),
                  tdx_kdj(history, 1, 1, 1));
    });
  }
}

TEST_CASE("D13 tdx and talib: five bars worked by hand, RSV 50 where HHV = LLV") {
  // A store of its own: the shared fixtures have no bar with high = low.
  //   date        open high low close   (factor 1)
  //   2024-01-02   10   10   10   10    HHV = LLV: RSV 50 (tdx), no value yet (talib)
  //   2024-01-03   10   11   10   11
  //   2024-01-04   11   12   10   10
  //   2024-01-05   10   10    9    9
  //   2024-01-08    9   11    9   11
  TestStore store;
  const auto csv = store.dir() / "hand_609002.SH.csv";
  {
    std::ofstream out(csv);
    out << "symbol,trade_date,open,high,low,close,volume,turnover,change_pct,factor\n"
           "609002.SH,2024-01-02,10,10,10,10,100,1000,0,1\n"
           "609002.SH,2024-01-03,10,11,10,11,100,1100,10,1\n"
           "609002.SH,2024-01-04,11,12,10,10,100,1000,-9.0909,1\n"
           "609002.SH,2024-01-05,10,10,9,9,100,900,-10,1\n"
           "609002.SH,2024-01-08,9,11,9,11,100,1100,22.2222,1\n";
  }
  store.import({csv}, {"--source", "hand"});
  const auto key = store.create_key("pro").plaintext;
  ServerProcess server(store);
  const std::vector<std::int64_t> t{t_ms("2024-01-02"), t_ms("2024-01-03"), t_ms("2024-01-04"),
                                    t_ms("2024-01-05"), t_ms("2024-01-08")};
  const auto values = [&](const std::string& indicator, const std::string& query) {
    return single_items(indicator,
                        request(server.port(),
                                target(indicator, "symbol=609002.SH&order=asc&limit=10&" + query),
                                key));
  };
  const double sqrt2 = std::sqrt(2.0);
  { // macd(2,3,2)
    // tdx: EMA2 = 10, 32/3, 92/9, 254/27, 848/81; EMA3 = 10, 21/2, 41/4, 77/8, 165/16.
    check_items(values("macd", "fast=2&slow=3&signal=2&convention=tdx"),
                {{t[0], {0, 0, 0}},
                 {t[1], {1.0 / 6, 1.0 / 9, 1.0 / 9}},
                 {t[2], {-1.0 / 36, 1.0 / 54, -5.0 / 54}},
                 {t[3], {-47.0 / 216, -5.0 / 36, -17.0 / 108}},
                 {t[4], {203.0 / 1296, 113.0 / 1944, 383.0 / 1944}}});
    // talib: both EMAs start at index 2 (the fast one seeded with mean(x[1..2]) = 10.5, the slow
    // one with mean(x[0..2]) = 31/3), MACD 1/6, -1/6, 1/6; the signal from index 3.
    check_items(values("macd", "fast=2&slow=3&signal=2"),
                {{t[3], {-1.0 / 6, 0, -1.0 / 6}}, {t[4], {1.0 / 6, 1.0 / 9, 1.0 / 18}}});
  }
  { // bbands(3, 2)
    // tdx: sample deviation of 10, 11, 10 is sqrt(1/3); of 11, 10, 9 and 10, 9, 11 it is 1.
    check_items(values("bbands", "window=3&k=2&convention=tdx"),
                {{t[2], {31.0 / 3, 31.0 / 3 + 2 / std::sqrt(3.0), 31.0 / 3 - 2 / std::sqrt(3.0)}},
                 {t[3], {10, 12, 8}},
                 {t[4], {10, 12, 8}}});
    // talib: population deviations sqrt(2)/3 and sqrt(2/3).
    check_items(values("bbands", "window=3&k=2"),
                {{t[2], {31.0 / 3, 31.0 / 3 + 2 * sqrt2 / 3, 31.0 / 3 - 2 * sqrt2 / 3}},
                 {t[3], {10, 10 + 2 * std::sqrt(2.0 / 3), 10 - 2 * std::sqrt(2.0 / 3)}},
                 {t[4], {10, 10 + 2 * std::sqrt(2.0 / 3), 10 - 2 * std::sqrt(2.0 / 3)}}});
  }
  { // atr(3)
    // True ranges from index 1: 1, 2, 1, 2. tdx: their mean; talib: Wilder from the mean.
    check_items(values("atr", "window=3&convention=tdx"),
                {{t[3], {4.0 / 3}}, {t[4], {5.0 / 3}}});
    check_items(values("atr", "window=3"), {{t[3], {4.0 / 3}}, {t[4], {14.0 / 9}}});
  }
  { // kdj(2,2,2)
    // tdx: RSV 50 (HHV = LLV = 10), 100, 0, 0, 100; K = (RSV + K) / 2, D = (K + D) / 2.
    check_items(values("kdj", "n=2&m1=2&m2=2&convention=tdx"),
                {{t[0], {50, 50, 50}},
                 {t[1], {75, 62.5, 100}},
                 {t[2], {37.5, 50, 12.5}},
                 {t[3], {18.75, 34.375, -12.5}},
                 {t[4], {59.375, 46.875, 84.375}}});
    // talib: fast %K from index 1 (100, 0, 0, 100), slow %K its 2-mean, slow %D that one's.
    check_items(values("kdj", "n=2&m1=2&m2=2"), {{t[3], {0, 25, -50}}, {t[4], {50, 25, 100}}});
    // n = 1: the first bar alone has HHV = LLV.
    check_items(values("kdj", "n=1&m1=1&m2=1&convention=tdx&timestamp=2024-01-02"),
                {{t[0], {50, 50, 50}}});
  }
}

TEST_CASE("D13 tdx and talib on the shared store's constant 609001.SH, worked by hand") {
  // Every calendar day from 2023-10-23: high 12, low 9, close 11. RSV = (11-9)/(12-9)*100.
  const double rsv = 200.0 / 3;
  const auto first_two = [](const std::string& indicator, const std::string& query) {
    return single_items(indicator, ind(indicator, "symbol=609001.SH&order=asc&limit=2&" + query));
  };
  const auto day = [](int i) { return t_ms(plus_days("2023-10-23", i)); };
  // tdx KDJ and MACD from the first bar; talib from their lookbacks (2+2+8 and 25+8).
  check_items(first_two("kdj", "convention=tdx"),
              {{day(0), {rsv, rsv, rsv}}, {day(1), {rsv, rsv, rsv}}});
  check_items(first_two("kdj", ""), {{day(12), {rsv, rsv, rsv}}, {day(13), {rsv, rsv, rsv}}});
  check_items(first_two("macd", "convention=tdx"), {{day(0), {0, 0, 0}}, {day(1), {0, 0, 0}}});
  check_items(first_two("macd", ""), {{day(33), {0, 0, 0}}, {day(34), {0, 0, 0}}});
  // Both ATRs from index 14 (true range 3), both bands from index 19 (no deviation).
  for (const std::string convention : {"tdx", "talib"}) {
    CAPTURE(convention);
    check_items(first_two("atr", "convention=" + convention), {{day(14), {3}}, {day(15), {3}}});
    check_items(first_two("bbands", "convention=" + convention),
                {{day(19), {11, 11, 11}}, {day(20), {11, 11, 11}}});
  }
}

TEST_CASE("D13: value items carry timestamp, value and the named fields only, in both forms") {
  SUBCASE("single: empty is still OK") {
    for (const auto& indicator : k_d13) {
      CAPTURE(indicator);
      const auto body = ok_body(ind(indicator, "symbol=600519.SH&timestamp=2024-01-06"));
      CHECK(keys_of(body) == std::set<std::string>{"status", "request_id", "results"});
      CHECK(body["status"] == "OK");
      CHECK(body["results"] == json{{"values", json::array()}});
    }
  }
  SUBCASE("multi: items in request order, limit per symbol, PARTIAL for an unknown symbol") {
    for (const auto& indicator : k_d13) {
      CAPTURE(indicator);
      const auto body = ok_body(ind(indicator, "symbol=600036.sh,000002.SZ,600519.SH&limit=3"));
      CHECK(keys_of(body)
            == std::set<std::string>{"status", "request_id", "resultsCount", "results"});
      CHECK(body["status"] == "PARTIAL");
      CHECK(body["resultsCount"] == 3);
      REQUIRE(body["results"].size() == 3);
      for (const std::size_t i : {std::size_t{0}, std::size_t{2}}) {
        const auto& item = body["results"][i];
        CHECK(keys_of(item)
              == std::set<std::string>{"symbol", "resultsCount", "values", "next_url"});
        CHECK(item["resultsCount"] == 3);
        const auto symbol = item["symbol"].get<std::string>();
        CHECK(items_of(indicator, item["values"])
              == single_items(indicator, ind(indicator, "symbol=" + symbol + "&limit=3")));
      }
      CHECK(body["results"][0]["symbol"] == "600036.SH");
      CHECK(body["results"][2]["symbol"] == "600519.SH");
      const auto& unknown = body["results"][1];
      CHECK(keys_of(unknown) == std::set<std::string>{"symbol", "resultsCount", "values", "error"});
      CHECK(unknown["values"] == json::array());
      CHECK(unknown["error"]["code"] == "INVALID_SYMBOL");
      const auto known = ok_body(ind(indicator, "symbol=600519.SH,000001.SZ&limit=2"));
      CHECK(known["status"] == "OK");
    }
  }
}

TEST_CASE("D9 / D13: expand_underlying names series_type for macd and bbands, not atr and kdj") {
  for (const auto& indicator : k_d13) {
    CAPTURE(indicator);
    const bool series = indicator == "macd" || indicator == "bbands";
    const auto underlying = [&](const std::string& type, bool adjusted) {
      return series ? json{{"series_type", type}, {"adjusted", adjusted}}
                    : json{{"adjusted", adjusted}};
    };
    const auto plain = ok_body(ind(indicator, "symbol=600519.SH"));
    CHECK_FALSE(plain["results"].contains("underlying"));
    const auto body = ok_body(ind(indicator, "symbol=600519.SH&expand_underlying=true"));
    CHECK(keys_of(body["results"]) == std::set<std::string>{"values", "underlying", "next_url"});
    CHECK(body["results"]["underlying"] == underlying("close", true));
    CHECK(body["results"]["values"] == plain["results"]["values"]);
    // series_type=LOW is the low for macd and bbands; atr and kdj do not have the parameter.
    const auto low = ok_body(
        ind(indicator, "symbol=600519.SH&expand_underlying=TRUE&series_type=LOW&adjusted=0"));
    CHECK(low["results"]["underlying"] == underlying("low", false));
    const auto raw = ok_body(ind(indicator, "symbol=600519.SH&adjusted=false"));
    CHECK((low["results"]["values"] == raw["results"]["values"]) == !series);
    const auto multi =
        ok_body(ind(indicator, "symbol=600519.SH,000002.SZ&limit=2&expand_underlying=1"));
    for (const auto& item : multi["results"]) {
      CHECK(item["underlying"] == underlying("close", true));
    }
  }
}

TEST_CASE("D9 / D13: a value never depends on the filters, the order or the limit") {
  const std::vector<std::pair<std::string, std::string>> cases{
      {"macd", "fast=6&slow=13&signal=5"},
      {"macd", "fast=6&slow=13&signal=5&convention=tdx"},
      {"bbands", "window=5&k=1.5&series_type=high"},
      {"atr", "window=5&convention=tdx"},
      {"kdj", "n=5&m1=3&m2=3"},
      {"kdj", "convention=tdx"},
  };
  for (const auto& test : cases) {
    const auto& indicator = test.first;
    const auto& params = test.second;
    CAPTURE(indicator);
    CAPTURE(params);
    const std::string base = "symbol=600519.SH&" + params;
    const auto all = single_items(indicator, ind(indicator, base + "&order=asc&limit=5000"));
    REQUIRE(all.size() > 400);
    for (const std::size_t limit : {1, 3, 10, 250}) {
      CAPTURE(limit);
      const auto text = "&limit=" + std::to_string(limit);
      CHECK(single_items(indicator, ind(indicator, base + text)) == first(reversed(all), limit));
      CHECK(single_items(indicator, ind(indicator, base + "&order=asc" + text))
            == first(all, limit));
    }
    const auto lo = t_ms("2024-03-01");
    const auto hi = t_ms("2024-06-28");
    const auto in_window = filtered(all, [&](std::int64_t t) { return t >= lo && t <= hi; });
    REQUIRE(in_window.size() > 50);
    const std::string window = "&timestamp.gte=2024-03-01&timestamp.lte=2024-06-28";
    CHECK(single_items(indicator, ind(indicator, base + "&order=asc&limit=5000" + window))
          == in_window);
    CHECK(single_items(indicator, ind(indicator, base + "&limit=7" + window))
          == first(reversed(in_window), 7));
    for (const auto& item : first(in_window, 3)) {
      CHECK(single_items(indicator, ind(indicator, base + "&timestamp=" + std::to_string(item.t)))
            == std::vector<Item>{item});
    }
    // The multi-symbol form and a Free key's clipped history give the same numbers (D6).
    const auto multi =
        ok_body(ind(indicator, "symbol=600036.SH,600519.SH&order=asc&limit=5000&" + params));
    CHECK(items_of(indicator, multi["results"][1]["values"]) == all);
    const auto free = single_items(indicator, ind(indicator, base + "&order=asc&limit=500",
                                                  shared().free.plaintext));
    const auto edge = t_ms("2023-10-23");
    CHECK(free == filtered(all, [&](std::int64_t t) { return t >= edge; }));
  }
}

TEST_CASE("D9 / D13: next_url keeps every non-default parameter and leads to the rest") {
  const std::vector<std::pair<std::string, std::map<std::string, std::string>>> cases{
      {"macd",
       {{"fast", "5"}, {"slow", "10"}, {"signal", "4"}, {"series_type", "high"},
        {"convention", "tdx"}}},
      {"macd", {{"fast", "13"}}},
      {"macd", {{"slow", "30"}, {"signal", "1"}}},
      {"bbands", {{"window", "7"}, {"k", "1.5"}, {"series_type", "open"}}},
      {"bbands", {{"k", "0.5"}, {"convention", "tdx"}}},
      {"atr", {{"window", "5"}, {"convention", "tdx"}}},
      {"kdj", {{"n", "5"}, {"m1", "4"}, {"m2", "2"}}},
      {"kdj", {{"m2", "5"}, {"convention", "tdx"}}},
  };
  // Sent in upper case where D4 allows any letter case; next_url carries the canonical form.
  const auto sent_form = [](const std::string& name, const std::string& value) {
    return name == "series_type" || name == "convention" || name == "expand_underlying"
               ? upper(value)
               : value;
  };
  for (const auto& test : cases) {
    const auto& indicator = test.first;
    const auto& own = test.second;
    for (const std::string order : {"asc", "desc"}) {
      std::map<std::string, std::string> kept = own;
      kept["symbol"] = "600519.SH";
      kept["adjusted"] = "false";
      kept["expand_underlying"] = "true";
      kept["limit"] = "9";
      kept["timestamp.gte"] = "2024-03-01";
      kept["timestamp.lte"] = "2024-06-28";
      if (order == "asc") {
        kept["order"] = "asc";
      }
      std::string query = "symbol=600519.sh";
      for (const auto& [name, value] : kept) {
        if (name != "symbol") {
          query += "&" + name + "=" + sent_form(name, value);
        }
      }
      CAPTURE(indicator);
      CAPTURE(query);
      std::string all_query = query;
      all_query.replace(all_query.find("&limit=9"), 8, "&limit=5000");
      const auto all = single_items(indicator, ind(indicator, all_query));
      REQUIRE(all.size() > 50);
      std::vector<Item> collected;
      std::string next = target(indicator, query);
      std::size_t pages = 0;
      while (!next.empty()) {
        const auto body = ok_body(get(next));
        CHECK(keys_of(body["results"]).count("underlying") == 1);
        const auto page = items_of(indicator, body["results"]["values"]);
        REQUIRE(page.size() <= 9);
        collected.insert(collected.end(), page.begin(), page.end());
        ++pages;
        REQUIRE(pages < 100);
        next = body["results"].value("next_url", "");
        if (next.empty()) {
          break;
        }
        CAPTURE(next);
        CHECK(page.size() == 9);
        CHECK(next.rfind("/v1/indicators/" + indicator + "?", 0) == 0);
        auto params = params_of(next);
        const std::string bound = order == "asc" ? "timestamp.gt" : "timestamp.lt";
        REQUIRE(params.count(bound) == 1);
        CHECK(stands_for(params[bound], page.back().t));
        params.erase(bound);
        // Every parameter sent that is not a default, and nothing else.
        for (const auto& param : kept) {
          CAPTURE(param.first);
          CHECK(params[param.first] == param.second);
        }
        CHECK(params.size() == kept.size());
      }
      CHECK(collected == all);
      CHECK(pages == (all.size() + 8) / 9);
    }
  }
}

TEST_CASE("D13 / D4: every bad value of the new parameters is 400 INVALID_PARAMETER naming it") {
  const std::vector<std::string> bad_integers{"0",   "5001", "abc", "-1", "1.5", "",
                                              "+5",  "5x",   " 5",  "0x10",
                                              "99999999999999999999"};
  struct Bad {
    std::string indicator;
    std::string name;
    std::vector<std::string> values;
  };
  const std::vector<Bad> cases{
      {"macd", "fast", {"1", "5001", "abc", "", "-2", "2.0"}},
      {"macd", "slow", {"1", "5001", "abc", "", "-2", "26.0"}},
      {"macd", "signal", bad_integers},
      {"bbands", "window", {"1", "0", "5001", "abc", "", "20.0"}},
      {"bbands", "k",
       {"0", "0.0", "00", "000.000", "10.5", "10.0001", "10.00000000000000000001", "11", "1e1",
        "2e0", ".5", "5.", "-1", "+2", "abc", "", "1,5", " 2", "2 ", "inf", "nan", "0x1", "1..5",
        "1.5.1", "99999999999999999999999999999999999999999"}},
      {"atr", "window", bad_integers},
      {"kdj", "n", bad_integers},
      {"kdj", "m1", bad_integers},
      {"kdj", "m2", bad_integers},
  };
  for (const auto& bad : cases) {
    for (const auto& value : bad.values) {
      CAPTURE(bad.indicator);
      CAPTURE(bad.name);
      CAPTURE(value);
      const auto reply =
          ind(bad.indicator, "symbol=600519.SH&" + bad.name + "=" + encoded(value));
      check_invalid(reply, bad.name, value);
    }
  }
  { // fast must be less than slow (default 26): the error names fast and its value
    for (const auto& test : std::vector<std::pair<std::string, std::string>>{
             {"fast=26", "26"},
             {"fast=27", "27"},
             {"fast=5000", "5000"},
             {"fast=10&slow=10", "10"},
             {"fast=30&slow=20", "30"},
             {"fast=3&slow=2", "3"},
             {"slow=12", "12"},
             {"slow=2", "12"}}) {
      CAPTURE(test.first);
      check_invalid(ind("macd", "symbol=600519.SH&" + test.first), "fast", test.second);
    }
  }
  { // the ends of each range are accepted
    for (const auto& test : std::vector<std::pair<std::string, std::string>>{
             {"macd", "fast=2&slow=3&signal=1"},
             {"macd", "fast=4999&slow=5000&signal=5000"},
             {"macd", "fast=25"},
             {"macd", "slow=13"},
             {"bbands", "window=2&k=10"},
             {"bbands", "window=5000&k=0.0001"},
             {"bbands", "k=10.000"},
             {"atr", "window=1"},
             {"atr", "window=5000"},
             {"kdj", "n=1&m1=1&m2=1"},
             {"kdj", "n=5000&m1=5000&m2=5000"}}) {
      const auto& indicator = test.first;
      const auto& query = test.second;
      CAPTURE(indicator);
      CAPTURE(query);
      const auto body = ok_body(ind(indicator, "symbol=600519.SH&" + query));
      const bool beyond_history = query.find("5000") != std::string::npos;
      CHECK(body["results"]["values"].empty() == beyond_history);
    }
  }
}

TEST_CASE("D13 / D4: the check order, own parameters between adjusted and series_type") {
  struct Order {
    std::string indicator;
    std::string query;
    std::string named;     // the parameter the error names
    std::string not_named; // a later (or earlier) bad one it must not name
  };
  const std::vector<Order> cases{
      // Earlier checks come first: symbol, timespan, adjusted.
      {"macd", "timespan=week&fast=1", "timespan", "fast"},
      {"bbands", "adjusted=yes&k=0", "adjusted", "k"},
      {"kdj", "adjusted=2&n=0", "adjusted", "n"},
      // Within each endpoint: fast, slow, signal; window, k; n, m1, m2.
      {"macd", "signal=0&slow=1&fast=1", "fast", "slow"},
      {"macd", "signal=0&slow=1", "slow", "signal"},
      {"macd", "fast=30&slow=1", "slow", "signal"}, // slow's range before fast < slow
      {"macd", "fast=30&signal=0", "fast", "signal"},
      {"bbands", "k=0&window=1", "window", "k"},
      {"kdj", "m2=0&m1=0&n=0", "n", "m1"},
      {"kdj", "m2=0&m1=0", "m1", "m2"},
      // Then series_type (macd, bbands), convention, expand_underlying, order, limit, timestamps.
      {"macd", "series_type=vwap&fast=1", "fast", "series_type"},
      {"macd", "series_type=vwap&signal=5001", "signal", "series_type"},
      {"bbands", "series_type=vwap&k=1e1", "k", "series_type"},
      {"bbands", "convention=x&series_type=vwap", "series_type", "convention"},
      {"atr", "convention=x&window=0", "window", "convention"},
      {"kdj", "convention=x&m2=0", "m2", "convention"},
      {"kdj", "expand_underlying=yes&convention=x", "convention", "expand_underlying"},
      {"macd", "order=up&convention=ta-lib", "convention", "order"},
      {"atr", "limit=0&expand_underlying=2", "expand_underlying", "limit"},
      {"bbands", "limit=0&order=up", "order", "limit"},
      {"kdj", "timestamp=x&limit=0", "limit", "timestamp"},
      {"macd", "timestamp.lt=x&fast=27", "fast", "timestamp.lt"},
      {"atr", "timestamp.gte=x&window=5001", "window", "timestamp.gte"},
  };
  for (const auto& order : cases) {
    CAPTURE(order.indicator);
    CAPTURE(order.query);
    const auto reply = ind(order.indicator, "symbol=600519.SH&" + order.query);
    check_error(reply, 400, "INVALID_PARAMETER");
    const auto message = message_of(reply);
    INFO("message: " << message);
    CHECK(names(message, order.named));
    CHECK_FALSE(names(message, order.not_named));
  }
  SUBCASE("400 before 403 and 402") {
    const auto& free = shared().free.plaintext;
    const auto broke = shared().store.create_key("free", 0, "d13-broke").plaintext;
    for (const auto& indicator : k_d13) {
      CAPTURE(indicator);
      check_error(ind(indicator, "symbol=600519.SH&limit=501", free), 403, "PLAN_LIMIT");
      check_error(ind(indicator, "symbol=600519.SH&timestamp.gte=2023-10-22", free), 403,
                  "PLAN_LIMIT");
      const std::string bad = indicator == "macd"     ? "fast=1"
                              : indicator == "bbands" ? "k=0"
                              : indicator == "atr"    ? "window=0"
                                                      : "m1=0";
      check_error(ind(indicator, "symbol=600519.SH,600036.SH&limit=501&" + bad, free), 400,
                  "INVALID_PARAMETER");
      check_error(ind(indicator, "symbol=600519.SH", broke), 402, "INSUFFICIENT_CREDITS");
      check_error(ind(indicator, "symbol=600519.SH&" + bad, broke), 400, "INVALID_PARAMETER");
    }
  }
}

TEST_CASE("D4 / D13: parameters an endpoint does not define are ignored, series_type on atr, kdj") {
  // D13: atr and kdj read high, low and close; series_type is not their parameter, so any value,
  // even one the other endpoints refuse, changes nothing (D4).
  for (const std::string indicator : {"atr", "kdj"}) {
    CAPTURE(indicator);
    const auto plain = ok_body(ind(indicator, "symbol=600519.SH&limit=20"));
    for (const std::string series : {"open", "high", "low", "close", "volume", "", "vwap"}) {
      CAPTURE(series);
      const auto body = ok_body(ind(indicator, "symbol=600519.SH&limit=20&series_type=" + series));
      CHECK(body["results"]["values"] == plain["results"]["values"]);
      // ... and it does not travel in next_url.
      CHECK(params_of(body["results"].value("next_url", "")).count("series_type") == 0);
    }
  }
  // Each endpoint ignores the others' parameters, bad values included; EMA, RSI and SMA ignore
  // D13's.
  const std::vector<std::pair<std::string, std::string>> foreign{
      {"macd", "window=0&k=0&n=0&m1=x&m2="},
      {"bbands", "fast=1&slow=1&signal=0&n=0&m1=0&m2=0"},
      {"atr", "fast=1&signal=x&k=0&n=0&m2=0"},
      {"kdj", "window=0&k=11&fast=99&slow=1"},
      {"ema", "fast=1&slow=0&signal=0&k=0&n=0&m1=0&m2=0"},
      {"rsi", "k=1e1&n=-1"},
      {"sma", "fast=x&m1=0"},
  };
  for (const auto& test : foreign) {
    const auto& indicator = test.first;
    const auto& extra = test.second;
    CAPTURE(indicator);
    const auto plain = ok_body(ind(indicator, "symbol=600519.SH"));
    const auto body = ok_body(ind(indicator, "symbol=600519.SH&" + extra));
    CHECK(body["results"] == plain["results"]);
  }
}

TEST_CASE("D7 / D10 D13 endpoints: one credit per served symbol as EMA, HEAD sends no body") {
  const auto port = shared().port();
  const auto created = shared().store.create_key("basic", 6, "d13-d7");
  const auto& key = created.plaintext;

  // Two served symbols and an unknown one: 2 credits, as for EMA.
  auto reply = ind("macd", "symbol=600519.SH,000002.SZ,600036.SH", key);
  REQUIRE(reply.status == 200);
  CHECK(reply.json()["status"] == "PARTIAL");
  CHECK(remaining(reply) == "4");
  // An error costs nothing.
  reply = ind("bbands", "symbol=600519.SH&k=0", key);
  check_error(reply, 400, "INVALID_PARAMETER");
  CHECK(remaining(reply) == "4");
  reply = ind("atr", "symbol=600519.SH&convention=tdx", key);
  REQUIRE(reply.status == 200);
  CHECK(remaining(reply) == "3");

  // HEAD charges as GET and sends no body.
  const auto head = request(port, target("kdj", "symbol=600519.SH"), key, "HEAD");
  CHECK(head.status == 200);
  CHECK(head.body.empty());
  CHECK(remaining(head) == "2");
  check_raw_head(port, target("macd", "symbol=600519.SH&fast=5"), key, "1");
  // One credit left: two symbols are refused whole, one is served.
  reply = ind("kdj", "symbol=600519.SH,600036.SH", key);
  check_error(reply, 402, "INSUFFICIENT_CREDITS");
  CHECK(remaining(reply) == "1");
  reply = ind("bbands", "symbol=600519.SH", key);
  REQUIRE(reply.status == 200);
  CHECK(remaining(reply) == "0");
  CHECK(shared().store.listed_credits(created.id) == "0");

  SUBCASE("HEAD answers as GET would: same status and headers, no body") {
    const auto comparable = headers_but_volatile;
    for (const auto& path : {target("macd", "symbol=600519.SH&convention=tdx"),
                             target("bbands", "symbol=600519.SH,000002.SZ&expand_underlying=true"),
                             target("atr", "symbol=600519.SH&window=0"),
                             target("kdj", "symbol=600519.SH&n=2&m1=2")}) {
      CAPTURE(path);
      const auto get_reply = get(path);
      const auto head_reply = request(port, path, shared().pro.plaintext, "HEAD");
      CHECK(head_reply.status == get_reply.status);
      CHECK(head_reply.body.empty());
      CHECK_FALSE(get_reply.body.empty());
      CHECK(comparable(head_reply) == comparable(get_reply));
    }
  }
}
