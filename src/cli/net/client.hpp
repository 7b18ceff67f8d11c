// The network clients as `ashare` uses them: owners of the network module's sessions and streams
// (cli/net/module.hpp), which load the module on their first use, so that an answer from the
// cache, and every local command, never pays for it (issue 11, P2 and P6).
#pragma once

#include "cli/net/module.hpp"

#include <memory>

namespace ashare::cli::net {

// An HTTP client for one base URL, whose connection it keeps alive between exchanges.
class HttpClient {
public:
  explicit HttpClient(HttpSettings settings) : m_settings(std::move(settings)) {}
  ~HttpClient();
  HttpClient(const HttpClient&) = delete;
  HttpClient& operator=(const HttpClient&) = delete;

  // Send `request` and return the response or why there is none. Throws std::runtime_error only
  // when the module cannot be loaded.
  HttpOutcome exchange(const HttpRequest& request);

  const HttpSettings& settings() const { return m_settings; }

private:
  HttpSettings m_settings;
  HttpSession* m_session = nullptr; // opened by the first exchange
};

} // namespace ashare::cli::net
