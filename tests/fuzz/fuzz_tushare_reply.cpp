// What a hostile or broken Tushare could send `fetch tushare` (D18): the envelope reader and the
// readers of each table the fetch asks for. The first byte picks the table reader; the rest is the
// body. Beyond "no crash": a reply that reads has rows exactly as wide as its fields, refusals
// always classify, a table a reader refuses is refused as INVALID_INPUT, and the envelope reader
// takes exactly the bodies nlohmann's parser takes.
#include "fuzz_check.hpp"

#include "core/fetch/tushare/tables.hpp"
#include "core/fetch/tushare/wire.hpp"

#include <nlohmann/json.hpp>
#include <string_view>

using namespace ashare;
using namespace ashare::fetch::tushare;

using fuzz::check_read;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) {
    return 0;
  }
  const std::string_view body(reinterpret_cast<const char*>(data) + 1, size - 1);
  const auto reply = parse_reply(body);
  // The reader is hand-written (fetch/tushare/reply_reader.cpp): it must take exactly what a
  // general JSON parser takes. Past the syntax, it may refuse what is not the envelope.
  // (nlohmann's lexer ends the input at a NUL byte, which JSON does not allow outside a string.)
  const bool is_json = body.find('\0') == std::string_view::npos && nlohmann::json::accept(body);
  if (!reply) {
    FUZZ_CHECK(reply.error().code == ErrorCode::invalid_input);
    FUZZ_CHECK(!is_json || reply.error().message.find("not JSON") == std::string::npos);
    return 0;
  }
  FUZZ_CHECK(is_json);
  if (reply->code != 0) {
    (void)classify_refusal(*reply);
    return 0;
  }
  for (const auto& row : reply->data.items) {
    FUZZ_CHECK(row.size() == reply->data.fields.size());
  }
  switch (data[0] % 5) {
  case 0: {
    const auto rows = read_daily(reply->data);
    check_read(rows);
    if (rows) {
      FUZZ_CHECK(rows->file.rows.size() + rows->file.problems.size() <= reply->data.items.size());
    }
    break;
  }
  case 1: check_read(read_adj_factors(reply->data)); break;
  case 2: check_read(read_suspensions(reply->data)); break;
  case 3: check_read(read_listings(reply->data)); break;
  default: check_read(read_calendar(reply->data)); break;
  }
  return 0;
}
