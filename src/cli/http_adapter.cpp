#include "cli/http_adapter.hpp"

#include "core/api/dispatch.hpp"

#include <chrono>
#include <cstdio>
#include <mutex>

namespace ashare::cli {
namespace {

using Clock = std::chrono::steady_clock;

// cpp-httplib serves a connection on one worker thread from the request line to the log line, so
// the start of the current request can live in a thread_local.
thread_local Clock::time_point t_request_start{};

void log_request(const httplib::Request& request, const httplib::Response& response) {
  std::string line = request.method + " " + request.path + " " + std::to_string(response.status);
  if (t_request_start != Clock::time_point{}) {
    const auto micros =
      std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - t_request_start);
    line += " " + std::to_string(micros.count()) + "us";
    t_request_start = {};
  } else {
    line += " -";
  }
  line += " " + response.get_header_value("X-Request-Id") + "\n";
  static std::mutex mutex;
  std::lock_guard lock(mutex);
  std::fwrite(line.data(), 1, line.size(), stderr);
}

ErrorCode code_for_status(int status) {
  return status >= 500 ? ErrorCode::internal : ErrorCode::invalid_parameter;
}

} // namespace

api::Request to_api_request(const httplib::Request& request) {
  api::Request out;
  out.method = request.method;
  out.path = request.path;
  const auto question = request.target.find('?');
  if (question != std::string::npos) {
    out.query = request.target.substr(question + 1);
  }
  if (request.has_header("Authorization")) {
    out.authorization = request.get_header_value("Authorization");
  }
  return out;
}

void write_response(api::Response response, httplib::Response& out) {
  out.status = response.status;
  for (const auto& [name, value] : response.headers) {
    out.set_header(name, value);
  }
  // What set_content does, but moving the body: a bars body is tens of KB (0.11 has no
  // set_content(std::string&&)).
  out.body = std::move(response.body);
  out.set_header("Content-Type", response.content_type);
}

void install_api(httplib::Server& server, api::Services& services) {
  server.set_pre_routing_handler([&services](const httplib::Request& request,
                                             httplib::Response& response) {
    t_request_start = Clock::now();
    // No byte ranges: cpp-httplib 0.11 would cut a body to a Range header's bytes and still answer
    // 200 with broken JSON, and it adds "Accept-Ranges: bytes" to HEAD answers only (D10: HEAD
    // has GET's headers). The request object is not const in cpp-httplib; only the hook's view is.
    const_cast<httplib::Request&>(request).ranges.clear();
    response.set_header("Accept-Ranges", "none");
    write_response(api::dispatch(to_api_request(request), services), response);
    if (request.method != "GET" && request.method != "HEAD") {
      // A body the route never reads would be taken for the next request on this connection.
      response.set_header("Connection", "close");
    }
    return httplib::Server::HandlerResponse::Handled;
  });

  server.set_exception_handler([&services](const httplib::Request& request,
                                           httplib::Response& response, std::exception_ptr error) {
    std::string detail = "unknown exception";
    try {
      std::rethrow_exception(error);
    } catch (const std::exception& e) {
      detail = e.what();
    } catch (...) {
    }
    std::fprintf(stderr, "ashare: error: %s %s: %s\n", request.method.c_str(),
                 request.path.c_str(), detail.c_str());
    response = httplib::Response{};
    write_response(api::error_response(ErrorCode::internal,
                                       "internal error; the server logged the details", services),
                   response);
  });

  // cpp-httplib calls this for every status >= 400, ours included: only fill empty bodies, which
  // are the errors it raised before routing (malformed request line, URI too long, ...).
  const httplib::Server::HandlerWithResponse fill_error_body = [&services](
                                                                  const httplib::Request&,
                                                                  httplib::Response& response) {
    if (!response.body.empty()) {
      return httplib::Server::HandlerResponse::Unhandled;
    }
    const int status = response.status;
    write_response(api::error_response(code_for_status(status),
                                       "malformed request (HTTP " + std::to_string(status) + ")",
                                       services),
                   response);
    response.status = status;
    return httplib::Server::HandlerResponse::Handled;
  };
  server.set_error_handler(fill_error_body);

  server.set_logger(log_request);
}

} // namespace ashare::cli
