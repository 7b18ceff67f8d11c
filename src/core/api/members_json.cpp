#include "core/api/members_json.hpp"

#include "core/api/json_writer.hpp"

#include <nlohmann/json.hpp>

#include <cmath>

namespace ashare::api {
namespace {

using nlohmann::json;

void write_iso(JsonWriter& writer, const std::optional<domain::Date>& date) {
  if (date) {
    writer.string(date->iso());
  } else {
    writer.null();
  }
}

// Write the fields of `member` into the object `writer` is in.
void write_member_fields(JsonWriter& writer, const members::Member& member) {
  writer.key("symbol");
  writer.string(member.symbol);
  writer.key("name");
  writer.string(member.name);
  writer.key("first_date");
  writer.string(member.first_date.iso());
  writer.key("last_date");
  write_iso(writer, member.last_date);
  writer.key("weight");
  if (member.weight) {
    writer.number(*member.weight);
  } else {
    writer.null();
  }
  writer.key("source");
  writer.string(members::source_name(member.source));
}

void write_member(JsonWriter& writer, const members::Member& member) {
  writer.begin_object();
  write_member_fields(writer, member);
  writer.end_object();
}

// Thrown below for a body no server of the API sends.
struct NotMembersBody {
  std::string what;
};

std::optional<domain::Date> optional_date_of(const json& value, const char* what) {
  if (value.is_null()) {
    return std::nullopt;
  }
  if (value.is_string()) {
    if (auto date = domain::parse_iso_date(value.get<std::string>(), what)) {
      return *date;
    }
  }
  throw NotMembersBody{std::string(what) + " is not a date"};
}

members::Member member_of_json(const json& value) {
  members::Member member;
  member.symbol = value.at("symbol").get<std::string>();
  member.name = value.at("name").get<std::string>();
  const auto first = optional_date_of(value.at("first_date"), "first_date");
  if (!first) {
    throw NotMembersBody{"first_date is null"};
  }
  member.first_date = *first;
  member.last_date = optional_date_of(value.at("last_date"), "last_date");
  const auto& weight = value.at("weight");
  if (!weight.is_null()) {
    if (!weight.is_number() || !std::isfinite(weight.get<double>())) {
      throw NotMembersBody{"weight is not a finite number"};
    }
    member.weight = weight.get<double>();
  }
  const auto source = members::parse_source(value.at("source").get<std::string>());
  if (!source) {
    throw NotMembersBody{"source is neither tushare nor import"};
  }
  member.source = *source;
  return member;
}

} // namespace

std::string members_to_json(const MembersResponse& response) {
  JsonWriter writer(256 + response.results.size() * 128);
  writer.begin_object();
  writer.key("status");
  writer.string("OK");
  writer.key("request_id");
  writer.string(response.request_id);
  writer.key("index");
  writer.string(response.index);
  writer.key("date");
  write_iso(writer, response.date);
  writer.key("resultsCount");
  writer.integer(static_cast<std::int64_t>(response.results.size()));
  writer.key("results");
  writer.begin_array();
  for (const auto& member : response.results) {
    write_member(writer, member);
  }
  writer.end_array();
  if (response.next_url) {
    writer.key("next_url");
    writer.string(*response.next_url);
  }
  writer.end_object();
  return writer.take();
}

std::string member_to_ndjson(const std::string& index, const members::Member& member) {
  JsonWriter writer;
  writer.begin_object();
  writer.key("index");
  writer.string(index);
  write_member_fields(writer, member);
  writer.end_object();
  return writer.take();
}

Result<MembersResponse> members_from_json(std::string_view body) {
  try {
    const auto value = json::parse(body);
    MembersResponse response;
    response.request_id = value.at("request_id").get<std::string>();
    response.index = value.at("index").get<std::string>();
    response.date = optional_date_of(value.at("date"), "date");
    for (const auto& member : value.at("results")) {
      response.results.push_back(member_of_json(member));
    }
    if (const auto next = value.find("next_url"); next != value.end() && next->is_string()) {
      response.next_url = next->get<std::string>();
    }
    return response;
  } catch (const NotMembersBody& bad) {
    return make_error(ErrorCode::invalid_input, "unexpected response body: " + bad.what);
  } catch (const json::exception& bad) {
    return make_error(ErrorCode::invalid_input,
                      std::string("unexpected response body: ") + bad.what());
  }
}

} // namespace ashare::api
