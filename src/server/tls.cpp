#include "server/tls.hpp"

#include <openssl/ssl.h>
#include <stdexcept>

namespace ashare::server {

namespace ssl = boost::asio::ssl;

std::shared_ptr<ssl::context> load_tls_context(const TlsFiles& files) {
  const auto failure = [&files] {
    return std::runtime_error("cannot load the TLS certificate \"" + files.certificate.string()
                              + "\" and key \"" + files.key.string()
                              + "\" (PEM files, matching each other)");
  };
  auto context = std::make_shared<ssl::context>(ssl::context::tls_server);
  context->set_options(ssl::context::default_workarounds | ssl::context::no_sslv2
                       | ssl::context::no_sslv3 | ssl::context::no_tlsv1
                       | ssl::context::no_tlsv1_1 | ssl::context::single_dh_use);
  boost::system::error_code ec;
  context->use_certificate_chain_file(files.certificate.string(), ec);
  if (ec) {
    throw failure();
  }
  context->use_private_key_file(files.key.string(), ssl::context::pem, ec);
  if (ec || SSL_CTX_check_private_key(context->native_handle()) != 1) {
    throw failure();
  }
  return context;
}

} // namespace ashare::server
