#include "cli/net/client.hpp"


namespace ashare::cli::net {

HttpClient::~HttpClient() {
  if (m_session != nullptr) {
    module().http_close(m_session);
  }
}

HttpOutcome HttpClient::exchange(const HttpRequest& request) {
  const auto& net = module();
  if (m_session == nullptr) {
    auto opened = net.http_open(m_settings);
    if (auto* failure = std::get_if<Failure>(&opened)) {
      return std::move(*failure);
    }
    m_session = std::get<HttpSession*>(opened);
  }
  return net.http_exchange(*m_session, request);
}

} // namespace ashare::cli::net
