// server::RequestParser (issue 9): any method token, the fields the API needs, and the limits of
// a head: a request line over 8 KiB (414), header fields over 8 KiB or more than 100 (431).
#include "server/request_parser.hpp"

#include <doctest/doctest.h>
#include <boost/asio/buffer.hpp>
#include <boost/beast/http/error.hpp>

using namespace ashare;
namespace http = boost::beast::http;

namespace {

struct Parsed {
  server::HeadProblem problem = server::HeadProblem::none;
  bool done = false;
  server::RequestParser parser{server::Limits{}};
};

// Parse `head` in one go and classify the outcome as the server does.
std::unique_ptr<Parsed> parse(const std::string& head) {
  auto parsed = std::make_unique<Parsed>();
  boost::beast::error_code ec;
  const auto used = parsed->parser.put(boost::asio::buffer(head), ec);
  if (ec && ec != http::error::need_more) {
    parsed->problem = server::head_problem(parsed->parser, ec,
                                           std::string_view(head).substr(used), server::Limits{});
  }
  parsed->done = !ec && parsed->parser.is_header_done();
  return parsed;
}

} // namespace

TEST_CASE("server::RequestParser keeps the method token, target and the fields the API reads") {
  const auto parsed = parse("FOO /v1/x?symbol=600519.SH HTTP/1.1\r\nHost: h\r\n"
                            "Authorization: Bearer ask_1\r\nAuthorization: Bearer ask_2\r\n"
                            "Accept-Encoding: br\r\naccept-encoding: gzip\r\n"
                            "If-None-Match: W/\"1-a\"\r\nif-none-match: \"b\"\r\n\r\n");
  REQUIRE(parsed->done);
  CHECK(parsed->parser.method == "FOO");
  CHECK(parsed->parser.target == "/v1/x?symbol=600519.SH");
  CHECK(parsed->parser.version == 11);
  CHECK(parsed->parser.has_host);
  CHECK(parsed->parser.authorization == "Bearer ask_1"); // the first one
  CHECK(parsed->parser.accept_encoding == "br,gzip");    // all of them
  CHECK(parsed->parser.if_none_match == "W/\"1-a\",\"b\""); // all of them (D17)
  CHECK(parsed->parser.is_done());                       // no body
}

TEST_CASE("server::head_problem classifies what the limits refuse") {
  std::string fields;
  for (int i = 0; i < 101; ++i) {
    fields += "X-" + std::to_string(i) + ": v\r\n";
  }
  struct Row {
    std::string name;
    std::string head;
    server::HeadProblem problem;
  };
  const std::vector<Row> rows{
      {"a line at the limit", "GET /" + std::string(8192 - 20, 'a') + " HTTP/1.1\r\nHost: h\r\n\r\n",
       server::HeadProblem::none},
      {"a line over it", "GET /" + std::string(8200, 'a') + " HTTP/1.1\r\nHost: h\r\n\r\n",
       server::HeadProblem::line_too_long},
      {"a line that never ends", "GET /" + std::string(20000, 'a'),
       server::HeadProblem::line_too_long},
      {"fields over 8 KiB", "GET / HTTP/1.1\r\nX: " + std::string(8200, 'v') + "\r\n\r\n",
       server::HeadProblem::fields_too_large},
      {"fields that never end", "GET / HTTP/1.1\r\nX: " + std::string(20000, 'v'),
       server::HeadProblem::fields_too_large},
      {"101 fields", "GET / HTTP/1.1\r\n" + fields + "\r\n", server::HeadProblem::too_many_fields},
      {"garbage", "GARBAGE\r\n\r\n", server::HeadProblem::malformed},
      {"a bad field line", "GET / HTTP/1.1\r\nNoColon\r\n\r\n", server::HeadProblem::malformed},
  };
  for (const auto& row : rows) {
    CAPTURE(row.name);
    const auto parsed = parse(row.head);
    CHECK(parsed->problem == row.problem);
  }
}
