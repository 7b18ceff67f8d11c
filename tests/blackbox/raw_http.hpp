// A raw TCP connection to the server under test, for the HTTP contract of issue 9 where the bytes
// on the wire matter: pipelining, limits, timeouts, what happens to the connection afterwards.
// Every wait is bounded.
#pragma once

#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <string_view>

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

class RawConnection {
public:
  // Connect to 127.0.0.1:`port`; with `receive_buffer`, set SO_RCVBUF first (a slow reader).
  explicit RawConnection(int port, std::optional<int> receive_buffer = std::nullopt);
  ~RawConnection();
  RawConnection(const RawConnection&) = delete;
  RawConnection& operator=(const RawConnection&) = delete;

  // Send all of `bytes`; false when the connection refused them (closed or reset).
  bool send(std::string_view bytes);

  // Read one whole response (its body by Content-Length; none when `head_only`, as for HEAD);
  // nullopt when the connection ended or `timeout` passed first.
  std::optional<RawResponse> read_response(std::chrono::milliseconds timeout,
                                           bool head_only = false);

  // Read and drop what arrives until the server ends the connection (end of file or reset);
  // return whether it did within `timeout`.
  bool closed_within(std::chrono::milliseconds timeout);

  // Return the bytes received and not yet read as a response.
  const std::string& pending() const { return m_buffer; }

  // Bytes received in all.
  std::size_t received() const { return m_received; }

private:
  enum class Received { data, closed, timeout };
  // Receive what arrives before `deadline`, appending it to `into` when set.
  Received receive(std::chrono::steady_clock::time_point deadline, std::string* into);
  // Receive into m_buffer; false on end of file, reset or timeout.
  bool fill(std::chrono::steady_clock::time_point deadline);

  int m_fd = -1;
  std::string m_buffer;
  std::size_t m_received = 0;
};

} // namespace bb
