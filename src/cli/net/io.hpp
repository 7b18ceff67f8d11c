// What the network module's clients share: running one asynchronous step to completion on the
// client's own io_context (the stream's deadline bounds it), and the words for what went wrong,
// which complete "cannot reach URL: ".
#pragma once

#include <boost/asio/error.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/system/error_code.hpp>
#include <chrono>
#include <string>
#include <string_view>

namespace ashare::cli::net {

// Start an operation with `start(handler)`, run `io` until it completes and return its error.
template <class Start> boost::system::error_code run(boost::asio::io_context& io, Start&& start) {
  boost::system::error_code result = boost::asio::error::would_block;
  start([&result](const boost::system::error_code& ec, auto&&...) { result = ec; });
  io.restart();
  io.run();
  return result;
}

// Return `ec`'s message, starting lowercase ("connection refused"); an end of stream is "the
// connection was closed".
std::string reason_of(const boost::system::error_code& ec);

// Return what went wrong in `step` ("connecting", "waiting for the answer"): "timed out STEP
// after N s" when `timeout` passed, else the reason, after the step unless it is "connecting".
std::string step_reason(std::string_view step,
                        const boost::system::error_code& ec,
                        std::chrono::milliseconds timeout);

} // namespace ashare::cli::net
