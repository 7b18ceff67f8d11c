// A raw connection to the server under test, over TCP or TLS, for the HTTP contract of issue 9
// where the bytes on the wire matter: pipelining, limits, timeouts, what happens to the
// connection afterwards, and clients that read slowly (issue 35). Every wait is bounded.
#pragma once

#include <chrono>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

struct ssl_st;     // OpenSSL's SSL
struct ssl_ctx_st; // OpenSSL's SSL_CTX

namespace bb {

// One response as read off the wire.
struct RawResponse {
  int status = 0;
  std::string head;                             // status line and header lines
  std::multimap<std::string, std::string> headers; // names in lower case
  std::string body;

  // The value of header `name` (any case), "" when absent.
  std::string header(const std::string& name) const;
  std::size_t header_count(const std::string& name) const;
};

// The bytes of a `method` request for `target` (HTTP/1.1, Host 127.0.0.1), with
// `Authorization: Bearer KEY` when `key` is given and then `extra_headers` (lines ending in CRLF).
std::string raw_request(const std::string& target,
                        const std::optional<std::string>& key = std::nullopt,
                        const std::string& extra_headers = "",
                        const std::string& method = "GET");

// `compressed` (one gzip member, RFC 1952) inflated; throws std::runtime_error when it is not
// exactly one whole member (truncated, corrupt, or with bytes after it).
std::string gunzip(std::string_view compressed);

// How a RawConnection connects.
struct RawOptions {
  // SO_RCVBUF, set before connecting: a slow reader.
  std::optional<int> receive_buffer;
  // TCP_MAXSEG, set before connecting: the segment size the server's socket may send. The kernel
  // sizes a socket's send buffer by it, so with a small one the server's socket on loopback takes
  // tens of KB of a response at first rather than megabytes, and the server holds the rest.
  std::optional<int> max_segment;
  // Speak TLS, trusting the server's certificate for 127.0.0.1 when this CA (a PEM file) signed
  // it; the constructor throws when the handshake fails.
  std::optional<std::filesystem::path> tls_ca;
};

// A client that reads slowly: a small receive buffer and small segments, so that the server's
// socket takes some tens of KB of an answer and the server holds the rest until the client reads.
inline const RawOptions k_slow{4096, 536, std::nullopt};

// How long a raw response may take to arrive: generous, for the sanitizer builds.
inline constexpr auto k_wait = std::chrono::milliseconds(30'000);

class RawConnection {
public:
  // Connect to 127.0.0.1:`port`; with `receive_buffer`, set SO_RCVBUF first (a slow reader).
  explicit RawConnection(int port, std::optional<int> receive_buffer = std::nullopt)
      : RawConnection(port, RawOptions{receive_buffer, std::nullopt, std::nullopt}) {}
  RawConnection(int port, const RawOptions& options);
  ~RawConnection();
  RawConnection(const RawConnection&) = delete;
  RawConnection& operator=(const RawConnection&) = delete;

  // Send all of `bytes`; false when the connection refused them (closed or reset).
  bool send(std::string_view bytes);

  // From now on, receive at most `chunk` bytes at a time and wait `pause` before each receive:
  // a client that reads slowly.
  void read_slowly(std::size_t chunk, std::chrono::milliseconds pause);

  // Read one whole response (its body by Content-Length; none when `head_only`, as for HEAD);
  // nullopt when the connection ended or `timeout` passed first.
  std::optional<RawResponse> read_response(std::chrono::milliseconds timeout,
                                           bool head_only = false);

  // Receive until received() is at least `bytes`; false when the connection ended or `timeout`
  // passed first. What arrives stays in pending().
  bool receive_at_least(std::size_t bytes, std::chrono::milliseconds timeout);

  // Receive until the server ends the connection, keeping what arrives in pending(); return
  // whether it did within `timeout`.
  bool receive_until_closed(std::chrono::milliseconds timeout);

  // Read and drop what arrives until the server ends the connection (end of file or reset);
  // return whether it did within `timeout`.
  bool closed_within(std::chrono::milliseconds timeout);

  // Return whether the server has ended the connection (a FIN or a reset has arrived), without
  // reading or waiting: a test tells with it what had happened by the time it looks.
  bool ended_by_server() const;

  // Return the bytes received and not yet read as a response.
  const std::string& pending() const { return m_buffer; }

  // Bytes received in all (decrypted ones over TLS).
  std::size_t received() const { return m_received; }

  // Return the bytes the server listening on `server_port` has written to this connection so far:
  // those received, and those the kernel holds on their way here (sent by the server's socket
  // and not acknowledged, or received by ours and not read: Linux's /proc/net/tcp). So a test
  // tells what of a response the server still holds itself. Plain TCP only.
  std::size_t sent_by_server(int server_port) const;

  // Return whether the server listening on `server_port` still holds its end of this connection
  // open (ESTABLISHED in /proc/net/tcp): false from the moment it closes it, even while its FIN
  // waits behind bytes this client has not read. Plain TCP only.
  bool held_by_server(int server_port) const;

private:
  // One end of this connection as /proc/net/tcp lists it.
  struct TcpEnd {
    int state = 0;             // 1: ESTABLISHED
    std::size_t unsent = 0;    // tx_queue: written and not acknowledged
    std::size_t unread = 0;    // rx_queue: received and not read
  };
  // Return the server's end and ours of this connection (nullopt for an end not listed).
  std::pair<std::optional<TcpEnd>, std::optional<TcpEnd>> tcp_ends(int server_port) const;

  enum class Received { data, closed, timeout };
  // Receive what arrives before `deadline`, appending it to `into` when set.
  Received receive(std::chrono::steady_clock::time_point deadline, std::string* into);
  // Free the TLS session and close the socket.
  void release();
  // Receive into m_buffer; false on end of file, reset or timeout.
  bool fill(std::chrono::steady_clock::time_point deadline);

  int m_fd = -1;
  ssl_ctx_st* m_tls_context = nullptr;
  ssl_st* m_ssl = nullptr; // set over TLS
  std::string m_buffer;
  std::size_t m_received = 0;
  std::size_t m_chunk = 65536;
  std::chrono::milliseconds m_pause{0};
};

} // namespace bb
