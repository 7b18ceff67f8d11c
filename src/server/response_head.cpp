#include "server/response_head.hpp"

#include <boost/beast/http/status.hpp>
#include <ctime>

namespace ashare::server {

void append_response_head(std::string& out,
                          const api::Response& response,
                          const Framing& framing,
                          std::string_view date) {
  const auto reason =
    boost::beast::http::obsolete_reason(static_cast<boost::beast::http::status>(response.status));
  out += "HTTP/1.1 ";
  out += std::to_string(response.status);
  out.push_back(' ');
  out.append(reason.data(), reason.size());
  if (response.status != 304) {
    // A 304 has no body, and its Content-Length could only be the 200's (RFC 9110 8.6): none.
    out += "\r\nContent-Type: ";
    out += response.content_type;
    out += "\r\nContent-Length: ";
    out += std::to_string(framing.content_length);
  }
  out += "\r\nDate: ";
  out += date;
  // No byte ranges (issue 9): a partial JSON body is of no use to anyone.
  out += "\r\nAccept-Ranges: none\r\nVary: Accept-Encoding\r\n";
  if (framing.gzipped) {
    out += "Content-Encoding: gzip\r\n";
  }
  if (framing.close) {
    out += "Connection: close\r\n";
  } else if (framing.keep_alive_1_0) {
    out += "Connection: keep-alive\r\n";
  }
  for (const auto& [name, value] : response.headers) {
    out += name;
    out += ": ";
    out += value;
    out += "\r\n";
  }
  out += "\r\n";
}

std::string http_date(std::chrono::system_clock::time_point time) {
  const std::time_t seconds = std::chrono::system_clock::to_time_t(time);
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char text[40];
  const auto length = std::strftime(text, sizeof text, "%a, %d %b %Y %H:%M:%S GMT", &utc);
  return std::string(text, length);
}

} // namespace ashare::server
