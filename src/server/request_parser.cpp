#include "server/request_parser.hpp"

#include <boost/beast/http/error.hpp>

namespace ashare::server {

namespace http = boost::beast::http;

namespace {

// Add `value` to `field`, a header that may be sent several times: RFC 9110 5.3 lets a list's
// lines be joined with commas.
void join_field(std::optional<std::string>& field, boost::beast::string_view value) {
  if (!field) {
    field.emplace(value.data(), value.size());
  } else {
    *field += ",";
    field->append(value.data(), value.size());
  }
}

} // namespace

RequestParser::RequestParser(const Limits& limits) : m_limits(limits) {
  header_limit(head_limit(limits));
  eager(false); // stop after the head: a body is never read (see on_body_impl)
}

void RequestParser::on_request_impl(http::verb,
                                    boost::beast::string_view method_str,
                                    boost::beast::string_view target_str,
                                    int version_number,
                                    boost::beast::error_code& ec) {
  // "METHOD SP TARGET SP HTTP/1.1"
  if (method_str.size() + target_str.size() + 10 > m_limits.max_request_line) {
    problem = HeadProblem::line_too_long;
    ec = http::error::header_limit;
    return;
  }
  method.assign(method_str.data(), method_str.size());
  target.assign(target_str.data(), target_str.size());
  version = version_number;
}

void RequestParser::on_field_impl(http::field name,
                                  boost::beast::string_view name_string,
                                  boost::beast::string_view value,
                                  boost::beast::error_code& ec) {
  ++m_field_count;
  m_field_bytes += name_string.size() + value.size() + 4; // "Name: value\r\n"
  if (m_field_count > m_limits.max_header_count) {
    problem = HeadProblem::too_many_fields;
    ec = http::error::header_limit;
    return;
  }
  if (m_field_bytes > m_limits.max_header_bytes) {
    problem = HeadProblem::fields_too_large;
    ec = http::error::header_limit;
    return;
  }
  switch (name) {
  case http::field::host:
    has_host = true;
    break;
  case http::field::authorization:
    if (!authorization) {
      authorization.emplace(value.data(), value.size());
    }
    break;
  case http::field::accept_encoding:
    join_field(accept_encoding, value);
    break;
  case http::field::if_none_match:
    join_field(if_none_match, value);
    break;
  default:
    break;
  }
}

std::uint32_t head_limit(const Limits& limits) {
  return static_cast<std::uint32_t>(limits.max_request_line + limits.max_header_bytes + 1024);
}

HeadProblem head_problem(const RequestParser& parser,
                         const boost::beast::error_code& ec,
                         std::string_view buffer,
                         const Limits& limits) {
  if (parser.problem != HeadProblem::none) {
    return parser.problem;
  }
  if (ec != http::error::header_limit) {
    return HeadProblem::malformed;
  }
  // Beast's overall limit. A request line it has parsed was within ours: the fields were too big.
  if (!parser.method.empty()) {
    return HeadProblem::fields_too_large;
  }
  // Else a request line that never ended within the limit is 414.
  const auto line_end = buffer.find("\r\n");
  return line_end == std::string_view::npos || line_end > limits.max_request_line
           ? HeadProblem::line_too_long
           : HeadProblem::fields_too_large;
}

} // namespace ashare::server
