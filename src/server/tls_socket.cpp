#include "server/tls_socket.hpp"

#include <boost/asio/error.hpp>
#include <boost/asio/post.hpp>
#include <openssl/err.h>
#include <stdexcept>

namespace ashare::server {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;

TlsSocket::TlsSocket(tcp::socket socket, asio::ssl::context& context)
  : m_socket(std::move(socket)), m_ssl(SSL_new(context.native_handle())) {
  if (m_ssl == nullptr) {
    throw std::runtime_error("SSL_new failed");
  }
  m_socket.non_blocking(true);
  SSL_set_fd(m_ssl, m_socket.native_handle()); // a socket BIO that leaves the descriptor to us
  SSL_set_accept_state(m_ssl);
  // A write may end after a record, be retried from another address, and idle connections
  // give their record buffers back.
  SSL_set_mode(m_ssl, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER
                        | SSL_MODE_RELEASE_BUFFERS);
}

TlsSocket::~TlsSocket() {
  SSL_free(m_ssl);
}

TlsSocket::Wait TlsSocket::wait_for(int result) {
  switch (SSL_get_error(m_ssl, result)) {
  case SSL_ERROR_WANT_READ:
    return Wait::read;
  case SSL_ERROR_WANT_WRITE:
    return Wait::write;
  case SSL_ERROR_ZERO_RETURN:
    return Wait::closed;
  default:
    return Wait::failed;
  }
}

void TlsSocket::complete_later(Handler handler, const error_code& ec, std::size_t bytes) {
  asio::post(m_socket.get_executor(),
             [handler = std::move(handler), ec, bytes] { handler(ec, bytes); });
}

void TlsSocket::then(Wait wait, std::function<void()> retry, const Handler& handler) {
  if (wait == Wait::read || wait == Wait::write) {
    m_socket.async_wait(wait == Wait::read ? tcp::socket::wait_read : tcp::socket::wait_write,
                        [retry = std::move(retry), handler](const error_code& ec) {
                          if (ec) {
                            handler(ec, 0);
                          } else {
                            retry();
                          }
                        });
    return;
  }
  const error_code ec = wait == Wait::closed ? error_code(asio::error::eof)
                                            : error_code(asio::error::connection_reset);
  complete_later(handler, ec, 0);
}

void TlsSocket::async_handshake(Handler handler) {
  ERR_clear_error();
  const int result = SSL_do_handshake(m_ssl);
  if (result == 1) {
    complete_later(std::move(handler), {}, 0);
    return;
  }
  then(wait_for(result), [this, handler] { async_handshake(handler); }, handler);
}

void TlsSocket::async_read_some(asio::mutable_buffer buffer, Handler handler) {
  ERR_clear_error();
  std::size_t read = 0;
  const int result = SSL_read_ex(m_ssl, buffer.data(), buffer.size(), &read);
  if (result == 1) {
    complete_later(std::move(handler), {}, read);
    return;
  }
  then(wait_for(result), [this, buffer, handler] { async_read_some(buffer, handler); }, handler);
}

void TlsSocket::async_write(std::span<const asio::const_buffer> buffers, Handler handler) {
  write_step(buffers, 0, 0, 0, std::move(handler), false);
}

void TlsSocket::write_step(std::span<const asio::const_buffer> buffers,
                           std::size_t index,
                           std::size_t offset,
                           std::size_t total,
                           Handler handler,
                           bool called_back) {
  while (index < buffers.size()) {
    const auto buffer = buffers[index] + offset;
    if (buffer.size() == 0) {
      ++index;
      offset = 0;
      continue;
    }
    ERR_clear_error();
    std::size_t written = 0;
    const int result = SSL_write_ex(m_ssl, buffer.data(), buffer.size(), &written);
    if (result == 1) {
      offset += written;
      total += written;
      continue;
    }
    // Go on from where it stopped once the socket is ready.
    then(wait_for(result),
         [this, buffers, index, offset, total, handler] {
           write_step(buffers, index, offset, total, handler, true);
         },
         handler);
    return;
  }
  if (called_back) {
    handler({}, total);
  } else {
    complete_later(std::move(handler), {}, total);
  }
}

} // namespace ashare::server
