#include "core/api/json_writer.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <string>

using namespace ashare;

namespace {

std::string quoted(std::string_view text) {
  std::string out;
  api::append_json_string(out, text);
  return out;
}

} // namespace

TEST_CASE("api::JsonWriter: structure and commas") {
  api::JsonWriter writer;
  writer.begin_object();
  writer.key("a");
  writer.integer(1);
  writer.key("b");
  writer.begin_array();
  writer.integer(1);
  writer.number(2.5);
  writer.begin_object();
  writer.key("c");
  writer.null();
  writer.end_object();
  writer.begin_array();
  writer.end_array();
  writer.end_array();
  writer.key("d");
  writer.boolean(true);
  writer.key("e");
  writer.boolean(false);
  writer.key("f");
  writer.raw(R"({"x":[1]})");
  writer.key("g");
  writer.begin_object();
  writer.end_object();
  writer.end_object();
  const std::string text = writer.take();
  CHECK(text == R"({"a":1,"b":[1,2.5,{"c":null},[]],"d":true,"e":false,"f":{"x":[1]},"g":{}})");
  CHECK(nlohmann::json::accept(text));
}

TEST_CASE("D12: api::JsonWriter numbers") {
  api::JsonWriter writer;
  writer.begin_array();
  writer.number(1e21);
  writer.number(1e-7);
  writer.number(1525.4);
  writer.number(3.0);
  writer.number(-0.0);
  writer.integer(1704124800000);
  writer.integer(-5);
  writer.end_array();
  const std::string text = writer.take();
  CHECK(text == "[1000000000000000000000,0.0000001,1525.4,3,0,1704124800000,-5]");
  const auto parsed = nlohmann::json::parse(text);
  CHECK(parsed[0].get<double>() == 1e21);
  CHECK(parsed[1].get<double>() == 1e-7);
  CHECK(parsed[5].get<std::int64_t>() == 1704124800000);
}

TEST_CASE("api::append_json_string") {
  SUBCASE("escapes") {
    const struct {
      const char* text;
      const char* json;
    } table[] = {
        {"plain", R"("plain")"},
        {"say \"hi\"", R"("say \"hi\"")"},
        {"back\\slash", R"("back\\slash")"},
        {"a\nb\rc\td", R"("a\nb\rc\td")"},
        {"\x01\x1f\x7f", R"("\u0001\u001f\u007f")"},
        {"/", R"("/")"},
        {"", R"("")"},
    };
    for (const auto& row : table) {
      CAPTURE(std::string_view(row.json));
      CHECK(quoted(row.text) == row.json);
    }
    CHECK(quoted(std::string_view("a\0b", 3)) == R"("a\u0000b")");
  }

  SUBCASE("valid UTF-8 passes through") {
    CHECK(quoted("贵州茅台") == "\"贵州茅台\"");
    CHECK(quoted("\xF0\x9F\x93\x88") == "\"\xF0\x9F\x93\x88\""); // U+1F4C8
  }

  SUBCASE("invalid UTF-8 becomes U+FFFD, one per bad byte") {
    const std::string fffd = "\xEF\xBF\xBD";
    CHECK(quoted("a\xFF"
                 "b")
          == "\"a" + fffd + "b\"");
    CHECK(quoted("\xC0\x80") == "\"" + fffd + fffd + "\"");                       // overlong
    CHECK(quoted("\xED\xA0\x80") == "\"" + fffd + fffd + fffd + "\"");            // surrogate
    CHECK(quoted("\xE8\xB4") == "\"" + fffd + fffd + "\"");                       // truncated
    CHECK(quoted("\xF5\x80\x80\x80") == "\"" + fffd + fffd + fffd + fffd + "\""); // > U+10FFFF
  }

  SUBCASE("every output parses as JSON with the intended text") {
    for (const char* text : {"a\"b\\c\n", "\x01\x02", "贵州茅台", "\xFF\xFE"}) {
      CAPTURE(std::string_view(text));
      const auto parsed = nlohmann::json::parse(quoted(text));
      CHECK(parsed.is_string());
    }
    CHECK(nlohmann::json::parse(quoted("a\"b\\c\n")).get<std::string>() == "a\"b\\c\n");
  }
}
