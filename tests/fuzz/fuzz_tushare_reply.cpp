// What a hostile or broken Tushare could send `fetch tushare` (D18): the envelope reader and the
// readers of each table the fetch asks for. The first byte picks the table reader; the rest is the
// body. Beyond "no crash": a reply that reads has rows exactly as wide as its fields, refusals
// always classify, a table a reader refuses is refused as INVALID_INPUT, and the envelope reader
// takes exactly the bodies that are JSON by nlohmann's parser, but for the range of numbers.
#include "fuzz_check.hpp"

#include "core/fetch/tushare/tables.hpp"
#include "core/fetch/tushare/wire.hpp"

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

using namespace ashare;
using namespace ashare::fetch::tushare;

using fuzz::check_read;

namespace {

// A SAX handler that takes every value and remembers whether the parse stopped at a number
// past a double's range (nlohmann's out_of_range.406), and where that number ends.
struct RangeOnly : nlohmann::json_sax<nlohmann::json> {
  bool null() override { return true; }
  bool boolean(bool) override { return true; }
  bool number_integer(number_integer_t) override { return true; }
  bool number_unsigned(number_unsigned_t) override { return true; }
  bool number_float(number_float_t, const string_t&) override { return true; }
  bool string(string_t&) override { return true; }
  bool binary(binary_t&) override { return true; }
  bool start_object(std::size_t) override { return true; }
  bool key(string_t&) override { return true; }
  bool end_object() override { return true; }
  bool start_array(std::size_t) override { return true; }
  bool end_array() override { return true; }
  bool parse_error(std::size_t position, const std::string& token, const nlohmann::detail::exception& error) override {
    if (error.id == 406) {
      overflow_end = position;
      overflow_token = token;
    }
    return false;
  }
  std::optional<std::size_t> overflow_end;
  std::string overflow_token;
};

// Return whether `body` is JSON as RFC 8259 writes it. Its grammar sets no range on a number
// (section 6 lets a parser set one): a number nlohmann's parser refuses for its range only
// (8.488e464, past a double's) is read as a zero of the same form and the body parsed again.
// Which such numbers a table may hold is then D16's to say (the importers' row checks), not the
// envelope's.
// (nlohmann's lexer ends the input at a NUL byte, which JSON does not allow outside a string.)
bool is_rfc8259_json(std::string_view body) {
  if (body.find('\0') != std::string_view::npos) {
    return false;
  }
  std::string text(body);
  for (;;) {
    RangeOnly handler;
    if (nlohmann::json::sax_parse(text, &handler)) {
      return true;
    }
    if (!handler.overflow_end) {
      return false;
    }
    // The number nlohmann lexed whole, and refused for its value: its text ends at the position.
    // Its zero keeps its form (exponent, fraction, or neither), so that what follows ends it as
    // it ended the number: "1E4444444E4" stays two exponents, not "0E4".
    const auto end = *handler.overflow_end;
    const auto& token = handler.overflow_token;
    FUZZ_CHECK(end >= token.size() && end <= text.size()
               && text.compare(end - token.size(), token.size(), token) == 0);
    const char* zero = token.find_first_of("eE") != std::string::npos ? "0e0"
                       : token.find('.') != std::string::npos     ? "0.0"
                                                                  : "0";
    text.replace(end - token.size(), token.size(), zero);
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) {
    return 0;
  }
  const std::string_view body(reinterpret_cast<const char*>(data) + 1, size - 1);
  const auto reply = parse_reply(body);
  // The reader is hand-written (fetch/tushare/reply_reader.cpp): it must take exactly what a
  // general JSON parser takes. Past the syntax, it may refuse what is not the envelope.
  const bool is_json = is_rfc8259_json(body);
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
