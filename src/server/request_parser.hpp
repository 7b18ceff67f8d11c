// The HTTP/1.1 request head as ashare reads it: Beast's parser (any method token, pipelining, the
// framing rules) with the limits of issue 9 on top. It keeps only the fields the API and the
// connection need, so a request costs no header container.
#pragma once

#include "server/options.hpp"

#include <utility>
#include <boost/beast/http/basic_parser.hpp>
#include <cstdint>
#include <optional>
#include <string>

namespace ashare::server {

// Why a request head was refused before it reached the API.
enum class HeadProblem {
  none,
  malformed,        // 400
  line_too_long,    // 414
  fields_too_large, // 431: the fields' bytes
  too_many_fields,  // 431: the fields' count
};

class RequestParser final : public boost::beast::http::basic_parser<true> {
public:
  explicit RequestParser(const Limits& limits);

  std::string method;  // the token as sent, e.g. "GET" or "FOO"
  std::string target;  // as sent: path and query, percent-encoded
  int version = 11;    // 10 or 11
  bool has_host = false;
  std::optional<std::string> authorization;
  std::optional<std::string> accept_encoding;
  std::optional<std::string> if_none_match; // D17
  HeadProblem problem = HeadProblem::none; // set with the parse error it caused

private:
  void on_request_impl(boost::beast::http::verb method,
                       boost::beast::string_view method_str,
                       boost::beast::string_view target,
                       int version,
                       boost::beast::error_code& ec) override;
  void on_response_impl(int, boost::beast::string_view, int, boost::beast::error_code&) override {}
  void on_field_impl(boost::beast::http::field name,
                     boost::beast::string_view name_string,
                     boost::beast::string_view value,
                     boost::beast::error_code& ec) override;
  void on_header_impl(boost::beast::error_code&) override {}
  void on_body_init_impl(const boost::optional<std::uint64_t>&, boost::beast::error_code&) override {}
  // A body is never read into memory: GET and HEAD may not have one, and any other method is
  // answered 404 or 405 and the connection closed.
  std::size_t on_body_impl(boost::beast::string_view body, boost::beast::error_code&) override {
    return body.size();
  }
  void on_chunk_header_impl(std::uint64_t, boost::beast::string_view, boost::beast::error_code&) override {}
  std::size_t on_chunk_body_impl(std::uint64_t,
                                 boost::beast::string_view body,
                                 boost::beast::error_code&) override {
    return body.size();
  }
  void on_finish_impl(boost::beast::error_code&) override {}

  const Limits m_limits;
  std::size_t m_field_count = 0;
  std::size_t m_field_bytes = 0;
};

// Return the problem of a parse that failed with `ec`, looking at `buffer` (the bytes of the head
// not yet consumed) when the parser's overall head limit was hit before the request line parsed.
HeadProblem head_problem(const RequestParser& parser,
                         const boost::beast::error_code& ec,
                         std::string_view buffer,
                         const Limits& limits);

// Return the overall head limit to give the parser: the line and fields limits with room for
// their separators.
std::uint32_t head_limit(const Limits& limits);

} // namespace ashare::server
