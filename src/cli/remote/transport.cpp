#include "cli/remote/transport.hpp"

#include "cli/net/client.hpp"
#include "cli/net/proxy.hpp"
#include "core/api/json.hpp"

#include <thread>

namespace ashare::cli {
namespace {

// Remote mode's HTTP(S) client: requests of the v1 API over the network module's client, loaded
// by the first request that reaches the network (an answer from the cache never pays for it: P6),
// with the API key, gzip (D17), and retries with a doubling backoff on connection errors and 5xx.
class HttpTransport final : public Transport {
public:
  HttpTransport(const Config& config, const RemoteOptions& options)
    : m_base_url(*config.base_url), m_api_key(config.api_key), m_options(options),
      m_client(net::HttpSettings{*config.base_url, options.timeout, options.ca_file,
                                 net::read_proxy_environment(process_environment())}) {}

  Reply get(const std::string& target) override { return send(target, {}); }

  Reply get_if_none_match(const std::string& target, const std::string& etag) override {
    return send(target, etag);
  }

  std::string describe() const override { return m_base_url; }

private:
  // GET `target`, with If-None-Match `etag` when one is given (D17), retrying as configured.
  Reply send(const std::string& target, const std::string& etag) {
    net::HttpRequest request;
    request.target = target;
    if (m_api_key) {
      request.headers.push_back({"Authorization", "Bearer " + *m_api_key});
    }
    if (!etag.empty()) {
      request.headers.push_back({"If-None-Match", etag});
    }
    auto delay = m_options.backoff;
    for (int attempt = 0;; ++attempt) {
      auto outcome = m_client.exchange(request);
      auto* response = std::get_if<net::HttpResponse>(&outcome);
      if (response != nullptr && response->status < 500) {
        auto etag_sent = net::find_header(response->headers, "ETag").value_or("");
        return Reply{response->status, std::move(response->body), std::move(etag_sent)};
      }
      const auto* failure = std::get_if<net::Failure>(&outcome);
      if (attempt >= m_options.retries || (failure != nullptr && !failure->retryable)) {
        throw NetworkError(failure != nullptr ? unreachable(*failure)
                                              : kept_failing(*response, attempt + 1));
      }
      std::this_thread::sleep_for(delay);
      delay *= 2;
    }
  }

  std::string unreachable(const net::Failure& failure) const {
    return "cannot reach " + m_base_url + ": " + failure.reason;
  }

  // A server that keeps answering 5xx is as unusable as an unreachable one (exit 3).
  std::string kept_failing(const net::HttpResponse& response, int attempts) const {
    std::string detail = "HTTP " + std::to_string(response.status);
    if (const auto error = api::error_from_json(response.body)) {
      detail += " " + std::string(error_info(error->code).wire_name) + ": " + error->message;
    }
    return m_base_url + " kept failing after " + std::to_string(attempts) + " attempts: " + detail;
  }

  std::string m_base_url;
  std::optional<std::string> m_api_key;
  RemoteOptions m_options;
  net::HttpClient m_client;
};

} // namespace

std::unique_ptr<Transport> open_remote_transport(const Config& config,
                                                 const RemoteOptions& options) {
  return std::make_unique<HttpTransport>(config, options);
}

} // namespace ashare::cli
