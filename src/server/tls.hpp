// The server's TLS context: loaded from PEM files at start and again on SIGHUP, so a renewed
// certificate takes effect for new connections without dropping the open ones (issue 9).
#pragma once

#include "server/options.hpp"

#include <utility>
#include <boost/asio/ssl/context.hpp>
#include <memory>
#include <mutex>
#include <string>

namespace ashare::server {

// Return a TLS server context over `files`; throws std::runtime_error naming the files when they
// cannot be read or the key does not match the certificate.
std::shared_ptr<boost::asio::ssl::context> load_tls_context(const TlsFiles& files);

// The current TLS context; connections hold the one they started with. Thread-safe.
class TlsContextHolder {
public:
  explicit TlsContextHolder(std::shared_ptr<boost::asio::ssl::context> context)
    : m_context(std::move(context)) {}

  std::shared_ptr<boost::asio::ssl::context> current() const {
    std::lock_guard lock(m_mutex);
    return m_context;
  }

  void replace(std::shared_ptr<boost::asio::ssl::context> context) {
    std::lock_guard lock(m_mutex);
    m_context = std::move(context);
  }

private:
  mutable std::mutex m_mutex;
  std::shared_ptr<boost::asio::ssl::context> m_context;
};

} // namespace ashare::server
