// Remote mode's HTTP(S) client (part of the network module, cli/net/module.hpp): cpp-httplib
// with keep-alive, the user's CA bundle and key, and retries with backoff on connection errors and
// 5xx.
#include "cli/net/module.hpp"
#include "core/api/json.hpp"

#include <httplib.h>
#include <thread>

namespace ashare::cli::net {
namespace {

// Remote mode: any server implementing SPEC, over HTTP or HTTPS.
class HttpClientTransport final : public Transport {
public:
  HttpClientTransport(const Config& config, const RemoteOptions& options)
    : m_base_url(*config.base_url), m_options(options), m_client(trimmed(*config.base_url)) {
    m_client.set_connection_timeout(options.timeout);
    m_client.set_read_timeout(options.timeout);
    m_client.set_write_timeout(options.timeout);
    m_client.set_keep_alive(true);
    if (options.ca_file) {
      m_client.set_ca_cert_path(options.ca_file->c_str());
    }
    if (config.api_key) {
      m_client.set_bearer_token_auth(config.api_key->c_str());
    }
    m_prefix = path_prefix(m_base_url);
  }

  Reply get(const std::string& target) override { return send(target, {}); }

  Reply get_if_none_match(const std::string& target, const std::string& etag) override {
    return send(target, etag);
  }

  std::string describe() const override { return m_base_url; }

private:
  // GET `target`, with If-None-Match `etag` when one is given (D17), retrying as configured.
  Reply send(const std::string& target, const std::string& etag) {
    // D17: bodies come gzip-compressed (about a quarter of the bytes); cpp-httplib inflates them.
    httplib::Headers headers{{"Accept-Encoding", "gzip"}};
    if (!etag.empty()) {
      headers.emplace("If-None-Match", etag);
      // cpp-httplib 0.11 reads a 304's body until the connection closes (a 304 has no
      // Content-Length: RFC 9110 8.6), so have the server close it after this answer.
      headers.emplace("Connection", "close");
    }
    auto delay = m_options.backoff;
    for (int attempt = 0;; ++attempt) {
      auto result = m_client.Get(m_prefix + target, headers);
      const bool retry_status = result && result->status >= 500;
      if (result && !retry_status) {
        return Reply{result->status, result->body, result->get_header_value("ETag")};
      }
      if (attempt >= m_options.retries) {
        // A server that keeps answering 5xx is as unusable as an unreachable one (exit 3).
        if (result) {
          std::string detail = "HTTP " + std::to_string(result->status);
          if (const auto error = api::error_from_json(result->body)) {
            detail += " " + std::string(error_info(error->code).wire_name) + ": " + error->message;
          }
          throw NetworkError(m_base_url + " kept failing after " + std::to_string(attempt + 1)
                             + " attempts: " + detail);
        }
        throw NetworkError("cannot reach " + m_base_url + ": " + httplib::to_string(result.error()));
      }
      std::this_thread::sleep_for(delay);
      delay *= 2;
    }
  }

  // cpp-httplib takes scheme://host:port; a path after it is our prefix.
  static std::string trimmed(const std::string& url) {
    const auto scheme = url.find("://");
    const auto slash = url.find('/', scheme == std::string::npos ? 0 : scheme + 3);
    return slash == std::string::npos ? url : url.substr(0, slash);
  }
  static std::string path_prefix(const std::string& url) {
    const auto scheme = url.find("://");
    const auto slash = url.find('/', scheme == std::string::npos ? 0 : scheme + 3);
    std::string prefix = slash == std::string::npos ? "" : url.substr(slash);
    while (!prefix.empty() && prefix.back() == '/') {
      prefix.pop_back();
    }
    return prefix;
  }

  std::string m_base_url;
  RemoteOptions m_options;
  httplib::Client m_client;
  std::string m_prefix;
};

} // namespace

std::unique_ptr<Transport> open_http_transport(const Config& config, const RemoteOptions& options) {
  return std::make_unique<HttpClientTransport>(config, options);
}

} // namespace ashare::cli::net
