// D20's members request and body (api/members_request.hpp, api/members_json.hpp): parsed in the
// documented order, written back by to_target() exactly, and a body read back into the answer
// that writes it again byte for byte (remote mode's `members --format json`).
#include "testutil.hpp"

#include "core/api/members_json.hpp"
#include "core/api/members_request.hpp"

#include <doctest/doctest.h>

using namespace ashare;
using test::date;

namespace {

Result<api::MembersRequest> parse_members(std::string_view symbol, std::string_view query) {
  return api::parse_members_request(symbol, api::QueryParams::parse(query));
}

} // namespace

TEST_CASE("D20: api::parse_members_request and to_target") {
  const auto day = parse_members("000300.sh", "date=2023-06-30&source=IMPORT");
  REQUIRE(day);
  CHECK(day->index.str() == "000300.SH");
  CHECK(day->date == date("2023-06-30"));
  CHECK(day->source == store::MemberSource::import);
  CHECK(day->to_target() == "/v1/indices/000300.SH/members?date=2023-06-30&source=import");
  const auto history = parse_members("000300.SH", "history=true");
  REQUIRE(history);
  CHECK(api::next_url(*history, 5000) == "/v1/indices/000300.SH/members?history=true&offset=5000");
  const auto next = parse_members("000300.SH", "history=true&offset=5000");
  CHECK(next->offset == 5000);
  CHECK(parse_members("000300.SH", "")->to_target() == "/v1/indices/000300.SH/members");
  SUBCASE("errors, in the documented order") {
    CHECK(parse_members("000300", "date=bad").error().code == ErrorCode::invalid_symbol);
    CHECK(parse_members("000300.SH", "date=2023-02-30&history=maybe").error().message
          == "invalid date \"2023-02-30\": not a real calendar date");
    CHECK(parse_members("000300.SH", "history=maybe").error().code == ErrorCode::invalid_parameter);
    CHECK(parse_members("000300.SH", "date=2023-06-30&history=1").error().code
          == ErrorCode::invalid_parameter);
    CHECK(parse_members("000300.SH", "source=csi").error().code == ErrorCode::invalid_parameter);
    CHECK(parse_members("000300.SH", "offset=5").error().message
          == "offset pages history=true alone");
  }
}

TEST_CASE("D20: api::members_to_json read back by members_from_json, byte for byte") {
  api::MembersResponse response{"2d1c6a0e-0000-4000-8000-000000000000",
                                "000300.SH",
                                date("2023-06-30"),
                                {{"600519.SH", "贵州茅台", date("2001-08-27"), std::nullopt,
                                  5.123456789012345, store::MemberSource::tushare},
                                 {"000001.SZ", "", date("2005-04-08"), date("2023-06-29"),
                                  std::nullopt, store::MemberSource::import}},
                                "/v1/indices/000300.SH/members?history=true&offset=5000"};
  const auto body = api::members_to_json(response);
  CHECK(body.starts_with(R"({"status":"OK","request_id":"2d1c6a0e-0000-4000-8000-000000000000",)"
                         R"("index":"000300.SH","date":"2023-06-30","resultsCount":2,)"));
  CHECK(body.find(R"("weight":5.123456789012345,"source":"tushare"})") != std::string::npos);
  CHECK(body.find(R"("last_date":"2023-06-29","weight":null)") != std::string::npos);
  const auto read = api::members_from_json(body);
  REQUIRE(read);
  CHECK(read->results == response.results);
  CHECK(api::members_to_json(*read) == body);
  CHECK(api::members_from_json(R"({"status":"OK"})").error().code == ErrorCode::invalid_input);
  CHECK(api::member_to_ndjson("000300.SH", {"600519.SH", "", date("2001-08-27"), std::nullopt,
                                            0.00001, store::MemberSource::tushare})
        == R"({"index":"000300.SH","symbol":"600519.SH","name":"","first_date":"2001-08-27",)"
           R"("last_date":null,"weight":0.00001,"source":"tushare"})");
}
