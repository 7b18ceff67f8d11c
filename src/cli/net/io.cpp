#include "cli/net/io.hpp"

#include <boost/beast/core/error.hpp>
#include <boost/beast/http/error.hpp>
#include <cctype>

namespace ashare::cli::net {
namespace {

// "1 s", "2.5 s".
std::string seconds(std::chrono::milliseconds duration) {
  std::string text = std::to_string(duration.count() / 1000);
  if (const auto millis = duration.count() % 1000; millis != 0) {
    auto fraction = std::to_string(1000 + millis).substr(1);
    while (fraction.back() == '0') {
      fraction.pop_back();
    }
    text += "." + fraction;
  }
  return text + " s";
}

} // namespace

std::string reason_of(const boost::system::error_code& ec) {
  if (ec == boost::asio::error::eof || ec == boost::beast::http::error::end_of_stream
      || ec == boost::beast::http::error::partial_message) {
    return "the connection was closed";
  }
  std::string text = ec.message();
  if (!text.empty()) {
    text[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(text[0])));
  }
  return text;
}

std::string step_reason(std::string_view step,
                        const boost::system::error_code& ec,
                        std::chrono::milliseconds timeout) {
  if (ec == boost::beast::error::timeout) {
    return "timed out " + std::string(step) + " after " + seconds(timeout);
  }
  if (step == "connecting") {
    return reason_of(ec);
  }
  return std::string(step) + ": " + reason_of(ec);
}

} // namespace ashare::cli::net
