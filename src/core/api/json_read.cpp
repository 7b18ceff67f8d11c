// Reading API bodies back (remote mode and paging): the other half of json.cpp, and like it a file
// that spells wire names.
#include "core/api/json.hpp"
#include "core/api/json_writer.hpp"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdint>
#include <limits>

namespace ashare::api {
namespace {

using nlohmann::json;

Error bad_body(const std::string& what) {
  return make_error(ErrorCode::invalid_input, "unexpected response body: " + what);
}

// Thrown by the readers below for a body no SPEC server sends (issue 13: a hostile remote), and
// turned into bad_body() by the public functions, as nlohmann's own type errors are.
struct BadBody {
  std::string what;
};

// Return `value` as an int64 when it is a whole JSON number in range; else throw BadBody naming
// `what` (converting a float such as 1.7e20 would be undefined behaviour).
std::int64_t integer_of(const json& value, const char* what) {
  if (value.is_number_unsigned()) {
    const auto whole = value.get<std::uint64_t>();
    if (whole <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
      return static_cast<std::int64_t>(whole);
    }
  } else if (value.is_number_integer()) {
    return value.get<std::int64_t>();
  }
  throw BadBody{std::string(what) + " is not a whole number"};
}

// Return `value` as a double when it is a finite JSON number; else throw BadBody naming `what`
// (JSON has no inf, and D12 no text for it).
double finite_of(const json& value, const char* what) {
  if (value.is_number()) {
    const double number = value.get<double>();
    if (std::isfinite(number)) {
      return number;
    }
  }
  throw BadBody{std::string(what) + " is not a finite number"};
}

// Answer `read()`, or the bad_body() of a body it could not read.
template <typename Read>
auto read_body(Read read) -> decltype(read()) {
  try {
    return read();
  } catch (const BadBody& bad) {
    return bad_body(bad.what);
  } catch (const json::exception& bad) {
    return bad_body(bad.what());
  }
}

// Return the wire error code `name` as an ErrorCode (internal when unknown).
ErrorCode code_from_wire(const std::string& name) {
  for (const auto& row : error_table()) {
    if (row.wire_name == name) {
      return row.code;
    }
  }
  return ErrorCode::internal;
}

std::optional<domain::Date> date_of(const json& value) {
  if (!value.is_string()) {
    return std::nullopt;
  }
  auto date = domain::parse_iso_date(value.get<std::string>(), "date");
  return date ? std::optional(*date) : std::nullopt;
}

std::optional<double> number_or_null(const json& value, const char* what) {
  return value.is_null() ? std::nullopt : std::optional(finite_of(value, what));
}

Result<domain::Bar> bar_of(const json& value) {
  const auto date = date_of(value.value("trade_date", json()));
  for (const char* field : {"open", "high", "low", "close", "volume", "turnover", "change_pct", "factor"}) {
    if (!value.contains(field) || !value[field].is_number()) {
      return bad_body(std::string("bar without a number \"") + field + "\"");
    }
  }
  if (!date) {
    return bad_body("bar without trade_date");
  }
  return domain::Bar{*date,
                     finite_of(value["open"], "open"),
                     finite_of(value["high"], "high"),
                     finite_of(value["low"], "low"),
                     finite_of(value["close"], "close"),
                     integer_of(value["volume"], "volume"),
                     finite_of(value["turnover"], "turnover"),
                     finite_of(value["change_pct"], "change_pct"),
                     finite_of(value["factor"], "factor")};
}

std::optional<query::Summary> summary_of(const json& value) {
  if (!value.is_object()) {
    return std::nullopt;
  }
  query::Summary summary;
  summary.from = date_of(value.value("from", json())).value_or(domain::Date{});
  summary.to = date_of(value.value("to", json())).value_or(domain::Date{});
  summary.bars_count = integer_of(value.value("bars_count", json(0)), "bars_count");
  summary.return_pct = number_or_null(value.value("return_pct", json()), "return_pct");
  summary.open_first = number_or_null(value.value("open_first", json()), "open_first");
  summary.close_last = number_or_null(value.value("close_last", json()), "close_last");
  return summary;
}

std::optional<Error> error_of(const json& value) {
  if (!value.is_object() || !value.contains("code")) {
    return std::nullopt;
  }
  return Error{code_from_wire(value.value("code", "")), value.value("message", "")};
}

std::optional<std::string> string_or_none(const json& value, const char* name) {
  const auto it = value.find(name);
  return it != value.end() && it->is_string() ? std::optional(it->get<std::string>()) : std::nullopt;
}

// Return the item of `symbol` that `value` (a single-symbol body, or an item of `results`) says.
Result<BarsItem> bars_item_of(const json& value, const std::string& symbol) {
  query::SymbolBars window;
  window.symbol = symbol;
  window.known = !value.contains("error");
  for (const auto& bar : value.value("ohlc", json::array())) {
    auto parsed = bar_of(bar);
    if (!parsed) {
      return parsed.error();
    }
    window.bars.push_back(*parsed);
  }
  window.summary = summary_of(value.value("summary", json()));
  window.has_more = value.contains("next_url");
  BarsItem item(std::move(window));
  item.next_url = string_or_none(value, "next_url");
  item.error = error_of(value.value("error", json())); // as the body says it
  return item;
}

Result<json> parse(std::string_view body) {
  auto value = json::parse(body, nullptr, false);
  if (value.is_discarded() || !value.is_object()) {
    return bad_body("not a JSON object");
  }
  return value;
}

// The indicators whose values carry fields beyond `value` (D13), told by the first of them.
constexpr std::pair<query::Indicator, const char*> k_extra_fields[] = {
  {query::Indicator::macd, "signal"}, {query::Indicator::bbands, "upper"}, {query::Indicator::kdj, "d"}};

// Return the indicator whose fields `item` (a value object) carries beyond `value`, if any.
std::optional<query::Indicator> indicator_of_value(const json& item) {
  for (const auto& [indicator, first] : k_extra_fields) {
    if (item.contains(first)) {
      return indicator;
    }
  }
  return std::nullopt;
}

// Return the values of `value` (an item of an indicator body). The first value of the body
// decides the indicator (`decided`, nullopt until then) by its fields beyond `value`; every later
// value must carry the same fields (else BadBody: a body no server writes).
std::vector<query::IndicatorValue> values_of(const json& value,
                                             std::optional<query::Indicator>& decided) {
  std::vector<query::IndicatorValue> out;
  for (const auto& item : value.value("values", json::array())) {
    query::IndicatorValue one{integer_of(item.value("timestamp", json(0)), "timestamp"),
                              finite_of(item.value("value", json(0.0)), "value")};
    const auto indicator = indicator_of_value(item).value_or(query::Indicator::sma);
    if (decided && *decided != indicator) {
      throw BadBody{"values of different indicators"};
    }
    decided = indicator;
    const auto names = query::extra_value_names(indicator);
    if (!names.empty()) {
      const std::string second(names[0]);
      const std::string third(names[1]);
      one.second = finite_of(item.value(second, json()), second.c_str());
      one.third = finite_of(item.value(third, json()), third.c_str());
    }
    out.push_back(one);
  }
  return out;
}

Result<BarsResponse> read_bars(std::string_view body) {
  auto parsed = parse(body);
  if (!parsed) {
    return parsed.error();
  }
  const json& value = *parsed;
  BarsResponse response;
  response.request_id = value.value("request_id", "");
  response.adjusted = value.value("adjusted", true);
  const auto from = date_of(value.value("from", json()));
  const auto to = date_of(value.value("to", json()));
  if (!from || !to) {
    return bad_body("no from or to");
  }
  response.from = *from;
  response.to = *to;
  const json meta = value.value("meta", json::object());
  response.dataset.as_of = date_of(meta.value("as_of", json()));
  response.dataset.source = meta.value("source", "");
  if (meta.contains("credits_charged")) {
    response.credits_charged = integer_of(meta["credits_charged"], "credits_charged");
  }
  response.single = value.contains("ohlc");
  if (response.single) {
    auto item = bars_item_of(value, value.value("symbol", ""));
    if (!item) {
      return item.error();
    }
    item->error.reset(); // the single-symbol form has none: an unknown symbol is a 400 (D1)
    response.items.push_back(std::move(*item));
    return response;
  }
  for (const auto& result : value.value("results", json::array())) {
    auto item = bars_item_of(result, result.value("symbol", ""));
    if (!item) {
      return item.error();
    }
    response.items.push_back(std::move(*item));
  }
  return response;
}

Result<IndicatorResponse> read_indicators(std::string_view body) {
  std::optional<query::Indicator> decided;
  auto parsed = parse(body);
  if (!parsed) {
    return parsed.error();
  }
  const json& value = *parsed;
  IndicatorResponse response;
  response.request_id = value.value("request_id", "");
  const json results = value.value("results", json());
  response.single = results.is_object();
  const auto read_underlying = [&](const json& item) {
    if (item.contains("underlying")) {
      response.expand_underlying = true;
      response.series_type = item["underlying"].value("series_type", "");
      response.adjusted = item["underlying"].value("adjusted", true);
    }
  };
  const auto read_next_url = [&](const json& item) {
    const auto next = item.find("next_url");
    response.next_urls.push_back(next != item.end() && next->is_string()
                                   ? std::optional(next->get<std::string>())
                                   : std::nullopt);
    response.items.back().has_more = response.next_urls.back().has_value();
  };
  if (response.single) {
    read_underlying(results);
    response.items.push_back(query::SymbolValues{"", true, values_of(results, decided), false});
    read_next_url(results);
    response.indicator = decided.value_or(query::Indicator::sma);
    return response;
  }
  if (!results.is_array()) {
    return bad_body("no results");
  }
  for (const auto& item : results) {
    read_underlying(item);
    response.items.push_back(query::SymbolValues{item.value("symbol", ""), !item.contains("error"),
                                                 values_of(item, decided), false});
    read_next_url(item);
  }
  response.indicator = decided.value_or(query::Indicator::sma);
  return response;
}

} // namespace

Result<BarsResponse> bars_from_json(std::string_view body) {
  return read_body([&] { return read_bars(body); });
}

Result<IndicatorResponse> indicators_from_json(std::string_view body) {
  return read_body([&] { return read_indicators(body); });
}

std::optional<Error> error_from_json(std::string_view body) {
  try {
    auto parsed = parse(body);
    if (!parsed) {
      return std::nullopt;
    }
    return error_of(parsed->value("error", json()));
  } catch (const json::exception&) {
    return std::nullopt; // not an envelope
  }
}

Result<std::optional<domain::Date>> health_as_of_from_json(std::string_view body) {
  return read_body([&]() -> Result<std::optional<domain::Date>> {
    auto parsed = parse(body);
    if (!parsed) {
      return parsed.error();
    }
    return date_of(parsed->value("as_of", json()));
  });
}

} // namespace ashare::api
