#include "cli/net/http_gateway.hpp"

#include "cli/config.hpp"
#include "cli/net/proxy.hpp"

namespace ashare::cli::net {
namespace {

void add_headers(std::vector<Header>& to, const std::vector<http::Header>& headers) {
  for (const auto& header : headers) {
    to.push_back({header.name, header.value});
  }
}

} // namespace

HttpGateway::HttpGateway(const GatewaySettings& settings)
    : m_client(HttpSettings{settings.base_url, settings.timeout, settings.ca_file,
                            read_proxy_environment(process_environment())}),
      m_headers(settings.headers), m_accept_gzip(settings.accept_gzip) {}

http::Outcome HttpGateway::send(const http::Call& call) {
  HttpRequest request;
  request.method = call.method == http::Method::post ? "POST" : "GET";
  request.target = call.target;
  add_headers(request.headers, m_headers);
  add_headers(request.headers, call.headers);
  request.body = call.body;
  request.accept_gzip = m_accept_gzip;
  auto outcome = m_client.exchange(request);
  if (const auto* failure = std::get_if<Failure>(&outcome)) {
    return http::Failure{m_client.settings().base_url + ": " + failure->reason, failure->retryable};
  }
  auto& response = std::get<HttpResponse>(outcome);
  auto etag = find_header(response.headers, "ETag").value_or("");
  return http::Reply{response.status, std::move(response.body), std::move(etag)};
}

} // namespace ashare::cli::net
