// A TLS connection whose records OpenSSL reads from and writes to the socket itself (a socket
// BIO over the non-blocking descriptor), with Asio only waiting for readiness. asio::ssl::stream
// passes every record through a pair of memory buffers instead, two more copies of each response
// and an Asio operation per record: about 10 µs of a one-year bars request over HTTPS (P1h).
#pragma once

#include <utility>
#include <boost/asio/buffer.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/context.hpp>
#include <functional>
#include <openssl/ssl.h>
#include <span>

namespace ashare::server {

class TlsSocket {
public:
  using error_code = boost::system::error_code;
  using Handler = std::function<void(const error_code& ec, std::size_t bytes)>;

  // Serve TLS on `socket` (made non-blocking) with `context`; the caller keeps `context` alive.
  TlsSocket(boost::asio::ip::tcp::socket socket, boost::asio::ssl::context& context);
  ~TlsSocket();
  TlsSocket(const TlsSocket&) = delete;
  TlsSocket& operator=(const TlsSocket&) = delete;

  boost::asio::ip::tcp::socket& lowest_layer() { return m_socket; }

  // Complete the server side of the handshake, then call `handler` (bytes 0).
  void async_handshake(Handler handler);

  // Read some decrypted bytes into `buffer`, then call `handler`; eof when the peer closed.
  void async_read_some(boost::asio::mutable_buffer buffer, Handler handler);

  // Write all of `buffers`, in order, then call `handler` with the bytes written. The caller keeps
  // `buffers` itself, not only the bytes they point to, alive until then.
  void async_write(std::span<const boost::asio::const_buffer> buffers, Handler handler);

  // Handlers are never called from inside the call that started the operation.

private:
  // What OpenSSL asked for after a call that did not complete.
  enum class Wait { read, write, failed, closed };
  Wait wait_for(int result);
  // Wait as `wait` says, then run `retry`; on failure call `handler` with the error.
  void then(Wait wait, std::function<void()> retry, const Handler& handler);
  void complete_later(Handler handler, const error_code& ec, std::size_t bytes);
  // Write buffers[index] from `offset` on, then the rest; `total` bytes are written so far.
  void write_step(std::span<const boost::asio::const_buffer> buffers,
                  std::size_t index,
                  std::size_t offset,
                  std::size_t total,
                  Handler handler,
                  bool called_back);

  boost::asio::ip::tcp::socket m_socket;
  SSL* m_ssl = nullptr;
};

} // namespace ashare::server
