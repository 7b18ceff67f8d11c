#include "core/api/json.hpp"

#include "core/api/day_members.hpp"
#include "core/api/json_writer.hpp"
#include "core/api/request_checks.hpp"
#include "core/domain/number.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstring>
#include <span>

namespace ashare::api {
namespace {

void write_date(JsonWriter& json, domain::Date date) {
  char text[10];
  date.write_iso(text);
  json.string(std::string_view(text, sizeof text));
}

void write_optional_number(JsonWriter& json, const std::optional<double>& value) {
  if (value) {
    json.number(*value);
  } else {
    json.null();
  }
}

// The most characters write_bar_members() writes: member names, a date, two integers and seven
// numbers.
constexpr std::size_t k_bar_members_chars =
  k_day_members_room + 160 + 20 + 7 * domain::k_max_number_chars;

// The text of the whole factor written last. A history's factor changes a few times in years, so
// the bars of a window mostly repeat it: copied, it costs a sixth of writing it (issue 11, P5).
struct FactorText {
  static constexpr std::size_t k_room = 24; // a whole below 10^15 takes at most 17 characters
  std::int64_t whole = domain::BarTenThousandths::k_not_whole;
  std::array<char, k_room> text{};
  std::size_t length = 0;
};

// Write the members of `bar` ("trade_date":... to "factor":...) at `out`, which has room for
// k_bar_members_chars, and return their end; its numbers from `exact` where they are whole
// 1/10000s, its factor from `factor` when it is the one written last (else it becomes that).
// Written whole, then appended once: a window of a compact history is written per request
// (issue 11, P5), where appending member by member to the response cost about twice as much.
char* write_bar_members(char* out,
                        const domain::Bar& bar,
                        const domain::BarTenThousandths& exact,
                        FactorText& factor) {
  const auto name = [&out](std::string_view text) { out = std::copy(text.begin(), text.end(), out); };
  const auto integer = [&out](std::int64_t value) { out = domain::write_integer(out, value); };
  const auto number = [&out](double value, std::int64_t whole) {
    out = whole != domain::BarTenThousandths::k_not_whole ? domain::write_ten_thousandths(out, whole)
                                                         : domain::write_number(out, value);
  };
  out = write_day_members(out, bar.trade_date);
  name(",\"open\":");
  number(bar.open, exact.open);
  name(",\"high\":");
  number(bar.high, exact.high);
  name(",\"low\":");
  number(bar.low, exact.low);
  name(",\"close\":");
  number(bar.close, exact.close);
  name(",\"volume\":");
  integer(bar.volume);
  name(",\"turnover\":");
  number(bar.turnover, exact.turnover);
  name(",\"change_pct\":");
  number(bar.change_pct, exact.change_pct);
  name(",\"factor\":");
  if (exact.factor == factor.whole && factor.whole != domain::BarTenThousandths::k_not_whole) {
    std::memcpy(out, factor.text.data(), FactorText::k_room);
    return out + factor.length;
  }
  char* const start = out;
  number(bar.factor, exact.factor);
  const auto length = static_cast<std::size_t>(out - start);
  if (exact.factor != domain::BarTenThousandths::k_not_whole && length <= FactorText::k_room) {
    factor.whole = exact.factor;
    std::memcpy(factor.text.data(), start, length);
    factor.length = length;
  }
  return out;
}

void write_bar(JsonWriter& json,
               const domain::Bar& bar,
               const domain::BarTenThousandths& exact = {}) {
  char text[k_bar_members_chars + 2];
  text[0] = '{';
  FactorText factor;
  char* end = write_bar_members(text + 1, bar, exact, factor);
  *end++ = '}';
  json.raw(std::string_view(text, static_cast<std::size_t>(end - text)));
}

// Write `bars`, or `rendered` (their JSON, already written) when it has pieces, or `bars` with
// `exact` (their numbers as whole 1/10000s) when it has one entry per bar.
void write_bars(JsonWriter& json,
                std::span<const domain::Bar> bars,
                std::span<const std::string_view> rendered,
                const std::shared_ptr<const void>& rendered_owner,
                std::span<const domain::BarTenThousandths> exact) {
  json.begin_array();
  if (!rendered.empty()) {
    // Pieces of already written bars, joined by commas (api/history_cache).
    for (const auto text : rendered) {
      json.raw_shared(text, rendered_owner);
    }
  } else {
    // Many bars written into one buffer, joined by commas, and appended at once: appending each
    // bar cost a tenth of writing a compact history's window per request (issue 11, P5).
    char buffer[16 * 1024];
    static_assert(sizeof buffer >= 2 * (k_bar_members_chars + 3));
    char* end = buffer;
    const domain::BarTenThousandths not_whole;
    const bool has_exact = exact.size() == bars.size();
    FactorText factor;
    for (std::size_t i = 0; i < bars.size(); ++i) {
      if (static_cast<std::size_t>(buffer + sizeof buffer - end) < k_bar_members_chars + 3) {
        json.raw(std::string_view(buffer, static_cast<std::size_t>(end - buffer)));
        end = buffer;
      }
      if (end != buffer) {
        *end++ = ',';
      }
      *end++ = '{';
      end = write_bar_members(end, bars[i], has_exact ? exact[i] : not_whole, factor);
      *end++ = '}';
    }
    if (end != buffer) {
      json.raw(std::string_view(buffer, static_cast<std::size_t>(end - buffer)));
    }
  }
  json.end_array();
}

} // namespace

// Write the bars of `item` in the form it holds their text in (BarsItem: the body writer alone
// reads it).
void write_item_bars(JsonWriter& json, const BarsItem& item) {
  write_bars(json, item.bars(), item.m_written.json, item.m_written.owner, item.m_exact);
}

namespace {

void write_summary(JsonWriter& json, const query::Summary& summary) {
  json.begin_object();
  json.key("from");
  write_date(json, summary.from);
  json.key("to");
  write_date(json, summary.to);
  json.key("bars_count");
  json.integer(summary.bars_count);
  json.key("return_pct");
  write_optional_number(json, summary.return_pct);
  json.key("open_first");
  write_optional_number(json, summary.open_first);
  json.key("close_last");
  write_optional_number(json, summary.close_last);
  json.end_object();
}

void write_error_object(JsonWriter& json, const Error& error) {
  json.begin_object();
  json.key("code");
  json.string(error_info(error.code).wire_name);
  json.key("message");
  json.string(error.message);
  json.end_object();
}

void write_symbol_result(JsonWriter& json, const BarsItem& item) {
  json.begin_object();
  json.key("symbol");
  json.string(item.symbol);
  json.key("resultsCount");
  json.integer(static_cast<std::int64_t>(item.bars().size()));
  json.key("ohlc");
  write_item_bars(json, item);
  if (item.summary) {
    json.key("summary");
    write_summary(json, *item.summary);
  }
  if (item.next_url) {
    json.key("next_url");
    json.string(*item.next_url);
  }
  if (item.error) {
    json.key("error");
    write_error_object(json, *item.error);
  }
  json.end_object();
}

void write_meta(JsonWriter& json,
                const store::DatasetInfo& dataset,
                std::optional<std::int64_t> credits_charged) {
  json.begin_object();
  json.key("as_of");
  if (dataset.as_of) {
    write_date(json, *dataset.as_of);
  } else {
    json.null();
  }
  json.key("source");
  json.string(dataset.source);
  json.key("schema_version");
  json.string(k_schema_version);
  if (credits_charged) {
    json.key("credits_charged");
    json.integer(*credits_charged);
  }
  json.end_object();
}

} // namespace

std::optional<Error> item_error(const IndicatorResponse& response, std::size_t i) {
  if (!response.items[i].known) {
    return unknown_symbol(response.items[i].symbol);
  }
  return std::nullopt;
}

std::optional<Error> item_error(const BarsResponse& response, std::size_t i) {
  return response.items[i].error;
}

namespace {

std::size_t estimated_size(const BarsResponse& response) {
  std::size_t bars = 0;
  for (const auto& item : response.items) {
    bars += item.bars().size();
  }
  return 512 + 220 * bars;
}

// Write the fields of `value` beyond `value` itself that `names` (extra_value_names()) name.
void write_extra_values(JsonWriter& json,
                        const std::vector<std::string_view>& names,
                        const query::IndicatorValue& value) {
  const double extras[] = {value.second, value.third};
  for (std::size_t i = 0; i < names.size(); ++i) {
    json.key(names[i]);
    json.number(extras[i]);
  }
}

void write_values(JsonWriter& json,
                  query::Indicator indicator,
                  const std::vector<query::IndicatorValue>& values) {
  const auto names = query::extra_value_names(indicator);
  json.begin_array();
  for (const auto& value : values) {
    json.begin_object();
    json.key("timestamp");
    json.integer(value.timestamp);
    json.key("value");
    json.number(value.value);
    write_extra_values(json, names, value);
    json.end_object();
  }
  json.end_array();
}

// Write item `i`'s next_url when `limit` left values out (D9).
void write_next_url(JsonWriter& json, const IndicatorResponse& response, std::size_t i) {
  if (i < response.next_urls.size() && response.next_urls[i]) {
    json.key("next_url");
    json.string(*response.next_urls[i]);
  }
}

void write_underlying(JsonWriter& json, const IndicatorResponse& response) {
  json.key("underlying");
  json.begin_object();
  if (!response.series_type.empty()) {
    json.key("series_type");
    json.string(response.series_type);
  }
  json.key("adjusted");
  json.boolean(response.adjusted);
  json.end_object();
}

} // namespace

std::string indicators_to_json(const IndicatorResponse& response) {
  JsonWriter json;
  json.begin_object();
  if (response.single) {
    json.key("status");
    json.string("OK");
    json.key("request_id");
    json.string(response.request_id);
    json.key("results");
    json.begin_object();
    json.key("values");
    write_values(json, response.indicator, response.items.front().values);
    if (response.expand_underlying) {
      write_underlying(json, response);
    }
    write_next_url(json, response, 0);
    json.end_object();
    json.end_object();
    return json.take();
  }
  // SPEC: PARTIAL when any symbol has empty values (D1: unknown symbols included).
  const bool partial = std::any_of(response.items.begin(), response.items.end(),
                                   [](const auto& item) { return item.values.empty(); });
  json.key("status");
  json.string(partial ? "PARTIAL" : "OK");
  json.key("request_id");
  json.string(response.request_id);
  json.key("resultsCount");
  json.integer(static_cast<std::int64_t>(response.items.size()));
  json.key("results");
  json.begin_array();
  for (std::size_t i = 0; i < response.items.size(); ++i) {
    const auto& item = response.items[i];
    json.begin_object();
    json.key("symbol");
    json.string(item.symbol);
    json.key("resultsCount");
    json.integer(static_cast<std::int64_t>(item.values.size()));
    json.key("values");
    write_values(json, response.indicator, item.values);
    if (response.expand_underlying) {
      write_underlying(json, response);
    }
    write_next_url(json, response, i);
    if (const auto error = item_error(response, i)) {
      json.key("error");
      write_error_object(json, *error);
    }
    json.end_object();
  }
  json.end_array();
  json.end_object();
  return json.take();
}

std::string bar_to_json(const domain::Bar& bar) {
  JsonWriter json(200);
  write_bar(json, bar);
  return json.take();
}

namespace {

// Write the bars response body of `response` into `json`.
void write_bars_response(JsonWriter& json,
                         const BarsResponse& response,
                         std::optional<std::int64_t> credits_charged) {
  const bool partial = std::any_of(response.items.begin(), response.items.end(),
                                   [](const BarsItem& item) { return item.error.has_value(); });
  json.begin_object();
  json.key("status");
  json.string(partial ? "PARTIAL" : "OK");
  json.key("request_id");
  json.string(response.request_id);
  if (response.single) {
    json.key("symbol");
    json.string(response.items.front().symbol);
  }
  json.key("adjusted");
  json.boolean(response.adjusted);
  json.key("multiplier");
  json.integer(1);
  json.key("timespan");
  json.string("day");
  json.key("from");
  write_date(json, response.from);
  json.key("to");
  write_date(json, response.to);
  if (response.single) {
    const auto& item = response.items.front();
    json.key("resultsCount");
    json.integer(static_cast<std::int64_t>(item.bars().size()));
    json.key("ohlc");
    write_item_bars(json, item);
    if (item.summary) {
      json.key("summary");
      write_summary(json, *item.summary);
    }
    if (item.next_url) {
      json.key("next_url");
      json.string(*item.next_url);
    }
  } else {
    json.key("resultsCount");
    json.integer(static_cast<std::int64_t>(response.items.size()));
    json.key("results");
    json.begin_array();
    for (const auto& item : response.items) {
      write_symbol_result(json, item);
    }
    json.end_array();
  }
  json.key("meta");
  write_meta(json, response.dataset, credits_charged);
  json.end_object();
}

} // namespace

std::string bars_to_json(const BarsResponse& response, std::optional<std::int64_t> credits_charged) {
  JsonWriter json(estimated_size(response));
  write_bars_response(json, response, credits_charged);
  return json.take();
}

Body bars_to_body(const BarsResponse& response, std::optional<std::int64_t> credits_charged) {
  // The envelope alone is written; the bars' pieces mostly stay where they are.
  auto json = JsonWriter::splicing(1024);
  write_bars_response(json, response, credits_charged);
  return json.take_body();
}

std::string bar_to_ndjson(const std::string& symbol, const domain::Bar& bar) {
  std::string out = "{\"symbol\":";
  append_json_string(out, symbol);
  out.push_back(',');
  char members[k_bar_members_chars];
  FactorText factor;
  out.append(members, write_bar_members(members, bar, {}, factor));
  out.push_back('}');
  return out;
}

std::string summary_to_ndjson(const std::string& symbol, const query::Summary& summary) {
  JsonWriter json;
  json.begin_object();
  json.key("symbol");
  json.string(symbol);
  json.key("summary");
  write_summary(json, summary);
  json.end_object();
  return json.take();
}

std::string value_to_ndjson(const std::string& symbol,
                            query::Indicator indicator,
                            const query::IndicatorValue& value,
                            const IndicatorResponse* underlying) {
  JsonWriter json;
  json.begin_object();
  json.key("symbol");
  json.string(symbol);
  // The bars' vocabulary (issue 12): one line reads as a bar's does.
  json.key("trade_date");
  write_date(json, domain::Date::containing_instant(value.timestamp));
  json.key("t");
  json.integer(value.timestamp);
  json.key("value");
  json.number(value.value);
  write_extra_values(json, query::extra_value_names(indicator), value);
  if (underlying != nullptr) {
    write_underlying(json, *underlying);
  }
  json.end_object();
  return json.take();
}

std::string error_to_json(const Error& error) {
  JsonWriter json;
  json.begin_object();
  json.key("error");
  write_error_object(json, error);
  json.end_object();
  return json.take();
}

std::string health_to_json(const store::DatasetInfo& dataset, bool available) {
  JsonWriter json;
  json.begin_object();
  json.key("status");
  json.string(available ? "ok" : "unavailable");
  json.key("as_of");
  if (dataset.as_of) {
    write_date(json, *dataset.as_of);
  } else {
    json.null();
  }
  json.key("schema_version");
  json.string(k_schema_version);
  json.end_object();
  return json.take();
}

} // namespace ashare::api
