#include "server/session.hpp"

#include "core/api/dispatch.hpp"
#include "server/gzip.hpp"
#include "server/request_parser.hpp"
#include "server/response_head.hpp"
#include "server/tls_socket.hpp"

#include <boost/asio/post.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/http/error.hpp>
#include <cstring>
#include <optional>
#include <type_traits>
#include <variant>
#include <vector>

namespace ashare::server {
namespace {

namespace asio = boost::asio;
namespace http = boost::beast::http;
using tcp = asio::ip::tcp;
using error_code = boost::system::error_code;

constexpr std::size_t k_initial_buffer = 4096;
constexpr std::size_t k_tls_record = 16384; // the most plaintext one TLS record carries
constexpr auto k_linger = std::chrono::milliseconds(2000);

// Return the answer to an unexpected failure (D10: the detail is logged, never sent).
api::Response internal_error(api::Services& services, std::string_view detail) {
  services.log_error(detail);
  return api::error_response(ErrorCode::internal, api::k_internal_error_message, services);
}

// Return the X-Request-Id of `response` ("-" when it has none), for the access log.
std::string_view request_id_of(const api::Response& response) {
  for (const auto& [name, value] : response.headers) {
    if (name == "X-Request-Id") {
      return value;
    }
  }
  return "-";
}

template <class Stream> class Session final
  : public Connection,
    public std::enable_shared_from_this<Session<Stream>> {
public:
  static constexpr bool k_tls = std::is_same_v<Stream, TlsSocket>;

  Session(NetworkThread& thread, tcp::socket socket, std::shared_ptr<asio::ssl::context> tls)
    : Connection(thread), m_tls(std::move(tls)), m_stream(make_stream(std::move(socket), m_tls)),
      m_in(k_initial_buffer) {}

  void start() {
    if constexpr (k_tls) {
      m_phase = Phase::handshake;
      m_deadline = m_thread.now + options().timeouts.header;
      m_stream.async_handshake([self = this->shared_from_this()](const error_code& ec, std::size_t) {
        if (ec || self->m_phase == Phase::closed) {
          self->abort();
          return;
        }
        self->wait_for_request(self->options().timeouts.header);
      });
    } else {
      // A new connection has the header timeout to send its first request.
      wait_for_request(options().timeouts.header);
    }
  }

  void sweep(Clock::time_point now, bool draining) override {
    if (m_phase == Phase::closed) {
      return;
    }
    if (draining && m_phase == Phase::idle && m_served > 0) {
      abort(); // between requests: a draining server lets it go at once
      return;
    }
    if (now < m_deadline) {
      return;
    }
    if (m_phase == Phase::head) {
      // 408: the pending read is cancelled, and its handler writes the answer.
      m_timed_out = true;
      error_code ignored;
      socket().cancel(ignored);
      return;
    }
    abort();
  }

private:
  enum class Phase { handshake, idle, head, handling, writing, lingering, closed };

  static Stream make_stream(tcp::socket socket, const std::shared_ptr<asio::ssl::context>& tls) {
    if constexpr (k_tls) {
      return Stream(std::move(socket), *tls);
    } else {
      return socket;
    }
  }

  const ServerOptions& options() const { return m_thread.server.options; }
  api::Services& services() { return m_thread.server.services; }
  tcp::socket& socket() {
    if constexpr (k_tls) {
      return m_stream.lowest_layer();
    } else {
      return m_stream;
    }
  }

  // Wait for the next request, at most `timeout` for its first byte.
  void wait_for_request(std::chrono::milliseconds timeout) {
    m_phase = Phase::idle;
    m_deadline = m_thread.now + timeout;
    parse();
  }

  void read_more() {
    if (m_begin == m_end) {
      m_begin = m_end = 0;
    } else if (m_begin > 0) {
      std::memmove(m_in.data(), m_in.data() + m_begin, m_end - m_begin);
      m_end -= m_begin;
      m_begin = 0;
    }
    if (m_end == m_in.size()) {
      // Room for a whole head: the parser refuses one beyond head_limit() before this fills up.
      m_in.resize(std::max<std::size_t>(m_in.size() * 2, head_limit(options().limits) + 1024));
    }
    m_stream.async_read_some(asio::buffer(m_in.data() + m_end, m_in.size() - m_end),
                             [self = this->shared_from_this()](const error_code& ec,
                                                               std::size_t read) {
                               self->on_read(ec, read);
                             });
  }

  void on_read(const error_code& ec, std::size_t read) {
    if (m_phase == Phase::closed) {
      return;
    }
    if (m_timed_out && m_phase == Phase::head) {
      // The sweep cancelled the read (bytes that came as it did are too late all the same).
      m_timed_out = false;
      reject(408, "the request head was not complete within "
                    + std::to_string(options().timeouts.header.count()) + " ms");
      return;
    }
    if (ec) {
      abort();
      return;
    }
    m_end += read;
    if (m_phase == Phase::lingering) {
      m_begin = m_end; // what a closing client still sends is read and dropped
      read_more();
      return;
    }
    parse();
  }

  // Parse what is buffered: the next request head, or read more.
  void parse() {
    if (m_begin == m_end) {
      read_more();
      return;
    }
    if (m_phase == Phase::idle) {
      m_phase = Phase::head;
      m_deadline = m_thread.now + options().timeouts.header;
    }
    if (!m_parser) {
      m_parser.emplace(options().limits);
    }
    error_code ec;
    m_begin += m_parser->put(asio::buffer(m_in.data() + m_begin, m_end - m_begin), ec);
    if (ec == http::error::need_more) {
      read_more();
      return;
    }
    if (ec) {
      const auto problem = head_problem(
        *m_parser, ec, std::string_view(m_in.data() + m_begin, m_end - m_begin), options().limits);
      reject_head(problem, ec.message());
      return;
    }
    handle_head();
  }

  void reject_head(HeadProblem problem, const std::string& detail) {
    const auto& limits = options().limits;
    switch (problem) {
    case HeadProblem::line_too_long:
      reject(414, "request line longer than " + std::to_string(limits.max_request_line) + " bytes");
      return;
    case HeadProblem::fields_too_large:
      reject(431, "request header fields longer than " + std::to_string(limits.max_header_bytes)
                    + " bytes");
      return;
    case HeadProblem::too_many_fields:
      reject(431, "more than " + std::to_string(limits.max_header_count) + " request header fields");
      return;
    case HeadProblem::none:
    case HeadProblem::malformed:
      reject(400, "malformed request: " + detail);
      return;
    }
  }

  void handle_head() {
    RequestParser& parser = *m_parser;
    m_started = Clock::now();
    const bool get_or_head = parser.method == "GET" || parser.method == "HEAD";
    const bool has_body = parser.chunked() || parser.content_length().value_or(0) > 0;
    m_head_method = parser.method == "HEAD";
    if (get_or_head && has_body) {
      reject(413, "a " + parser.method + " request must not have a body");
      return;
    }
    if (parser.version >= 11 && !parser.has_host) {
      reject(400, "malformed request: no Host header (HTTP/1.1 requires one)");
      return;
    }
    // A body this server never reads must not be taken for the next request: close after it.
    m_keep_alive = parser.keep_alive() && parser.is_done();
    m_keep_alive_1_0 = m_keep_alive && parser.version == 10;
    m_gzip = parser.accept_encoding && accepts_gzip(*parser.accept_encoding);
    std::string_view target = parser.target;
    if (const auto scheme = target.find("://"); scheme != std::string_view::npos && target[0] != '/') {
      // absolute-form (RFC 9112 3.2.2): the path starts after the authority
      const auto path = target.find('/', scheme + 3);
      target = path == std::string_view::npos ? std::string_view("/") : target.substr(path);
    }
    const auto question = target.find('?');
    m_request.method = std::move(parser.method);
    m_request.path = std::string(target.substr(0, question));
    m_request.query =
      question == std::string_view::npos ? std::string() : std::string(target.substr(question + 1));
    m_request.authorization = std::move(parser.authorization);
    m_request.if_none_match = std::move(parser.if_none_match);
    m_parser.reset();
    dispatch();
  }

  void dispatch() {
    m_phase = Phase::handling;
    m_deadline = Clock::time_point::max(); // bounded by the worker, not by the client
    api::Step step;
    try {
      step = api::dispatch_in_memory(m_request, services());
    } catch (const std::exception& error) {
      answer(internal_error(services(), m_request.method + " " + m_request.path + ": " + error.what()));
      return;
    }
    if (auto* response = std::get_if<api::Response>(&step)) {
      answer(std::move(*response));
      return;
    }
    if (auto* needed = std::get_if<api::ChargeNeeded>(&step)) {
      // The charge goes to the batcher; its result comes back here, where the answer is
      // rendered (on this thread, not on the batcher's one).
      const auto charge = needed->charge;
      m_thread.server.charges.submit(
        charge, m_thread.io,
        [self = this->shared_from_this(), finish = std::move(needed->finish)](
          std::optional<store::ChargeResult> result, bool unreachable) mutable {
          // D15: nothing was charged, so nothing is answered but the 503.
          self->answer(result        ? finish(*result)
                       : unreachable ? api::unavailable_response(
                                         "the key store cannot be reached", self->services())
                                     : api::error_response(ErrorCode::internal,
                                                           api::k_internal_error_message,
                                                           self->services()));
        });
      return;
    }
    // The core needs the store: finish on a worker, resume on this thread.
    asio::post(m_thread.server.workers, [self = this->shared_from_this(), request = m_request,
                                         deferred = std::get<api::Deferred>(std::move(step))] {
      auto& services = self->services();
      api::Response response;
      try {
        response = api::finish_dispatch(request, services, deferred);
      } catch (const std::exception& error) {
        response = internal_error(services, request.method + " " + request.path + ": " + error.what());
      }
      asio::post(self->m_thread.io, [self, response = std::move(response)]() mutable {
        self->answer(std::move(response));
      });
    });
  }

  // Answer an error the HTTP layer finds itself, then close (issue 9: the envelope, an id).
  void reject(int status, const std::string& message) {
    if (m_parser && !m_parser->method.empty()) {
      m_request.method = m_parser->method;
      m_head_method = m_request.method == "HEAD";
      const std::string_view target = m_parser->target;
      m_request.path = std::string(target.substr(0, target.find('?')));
    } else {
      m_request.method = "-";
      m_request.path = "-";
    }
    m_parser.reset();
    m_started = Clock::now();
    m_keep_alive = false;
    m_gzip = false;
    auto response = api::error_response(ErrorCode::invalid_parameter, message, services());
    response.status = status;
    answer(std::move(response));
  }

  void answer(api::Response response) {
    if (m_phase == Phase::closed) {
      return;
    }
    m_body = std::move(response.body);
    Framing framing;
    if (m_gzip && m_body.size() >= k_min_gzip_bytes) {
      const auto* etag = response.find_header("ETag");
      const auto* request_id = response.find_header("X-Request-Id");
      m_body = m_thread.gzip_cache.compress(m_body, etag != nullptr ? *etag : "",
                                            request_id != nullptr ? *request_id : "");
      framing.gzipped = true;
    }
    framing.content_length = m_body.size();
    framing.close = !m_keep_alive || services().draining.load(std::memory_order_relaxed);
    framing.keep_alive_1_0 = m_keep_alive_1_0;
    m_head.clear();
    append_response_head(m_head, response, framing, m_thread.date);
    m_thread.log_request(
      m_request.method, m_request.path, response.status,
      std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - m_started),
      request_id_of(response));
    ++m_served;
    if (m_head_method) {
      m_body.clear(); // HEAD: GET's head, Content-Length included, and no body (D10)
    }
    m_close_after = framing.close;
    m_phase = Phase::writing;
    m_deadline = m_thread.now + options().timeouts.write;
    gather_buffers();
    auto written = [self = this->shared_from_this()](const error_code& ec, std::size_t) {
      self->on_written(ec);
    };
    if constexpr (k_tls) {
      m_stream.async_write(m_buffers, std::move(written));
    } else {
      asio::async_write(m_stream, m_buffers, std::move(written));
    }
  }

  // Point m_buffers at the head and then at the body's pieces where they are (issue 35: a cached
  // answer's bars go from the history cache to the socket, copied by the kernel alone).
  void gather_buffers() {
    m_buffers.clear();
    std::size_t copy_into_head = 0;
    if constexpr (k_tls) {
      // TLS writes each buffer as records of its own: fill the head's record up with the body's
      // first bytes rather than send a record (a syscall, a segment) for the head alone, and
      // copy no more of the body than that.
      copy_into_head = k_tls_record - std::min(k_tls_record, m_head.size());
    }
    m_body.for_each_piece([&](std::string_view piece) {
      const auto copied = std::min(copy_into_head, piece.size());
      m_head.append(piece.substr(0, copied));
      copy_into_head -= copied;
      if (copied < piece.size()) {
        m_buffers.push_back(asio::buffer(piece.substr(copied)));
      }
    });
    if constexpr (k_tls) {
      // Likewise, a short last piece (the envelope's end) after a long one would be a record of
      // its own: send it with the long one's last, partial record, both copied.
      if (m_buffers.size() >= 2 && m_buffers.back().size() < k_tls_record) {
        auto& previous = m_buffers[m_buffers.size() - 2];
        const auto carried = previous.size() % k_tls_record;
        const auto* previous_bytes = static_cast<const char*>(previous.data());
        m_tls_last.assign(previous_bytes + previous.size() - carried, carried);
        m_tls_last.append(static_cast<const char*>(m_buffers.back().data()),
                          m_buffers.back().size());
        previous = asio::buffer(previous_bytes, previous.size() - carried);
        m_buffers.back() = asio::buffer(m_tls_last);
      }
    }
    m_buffers.insert(m_buffers.begin(), asio::buffer(m_head)); // after m_head's last append
  }

  void on_written(const error_code& ec) {
    if (m_phase == Phase::closed) {
      return;
    }
    if (ec) {
      abort();
      return;
    }
    m_body.clear(); // an idle connection keeps no response in memory, nor a cached one alive
    if (m_close_after) {
      finish();
      return;
    }
    wait_for_request(options().timeouts.idle); // pipelined requests are already buffered
  }

  // End after a response: stop sending, and read (and drop) what the client still sends until it
  // closes, so that its unread bytes do not turn our close into a reset that loses the response.
  void finish() {
    if constexpr (k_tls) {
      abort();
    } else {
      m_phase = Phase::lingering;
      m_deadline = m_thread.now + k_linger;
      error_code ignored;
      socket().shutdown(tcp::socket::shutdown_send, ignored);
      m_begin = m_end;
      read_more();
    }
  }

  void abort() {
    if (m_phase == Phase::closed) {
      return;
    }
    m_phase = Phase::closed;
    error_code ignored;
    socket().close(ignored); // pending operations end with operation_aborted
  }

  std::shared_ptr<asio::ssl::context> m_tls; // declared first: outlives m_stream's use of it
  Stream m_stream;
  std::vector<char> m_in;
  std::size_t m_begin = 0; // unparsed bytes are m_in[m_begin, m_end)
  std::size_t m_end = 0;
  std::optional<RequestParser> m_parser;
  Phase m_phase = Phase::idle;
  Clock::time_point m_deadline = Clock::time_point::max();
  bool m_timed_out = false;
  // The request being answered.
  api::Request m_request;
  Clock::time_point m_started;
  bool m_head_method = false;
  bool m_keep_alive = true;
  bool m_keep_alive_1_0 = false;
  bool m_gzip = false;
  // The response being written.
  std::string m_head;
  api::Body m_body;
  std::vector<asio::const_buffer> m_buffers; // m_head, then m_body's pieces
  std::string m_tls_last; // TLS: the body's last record, when copied together (gather_buffers)
  bool m_close_after = false;
  std::size_t m_served = 0; // responses written or being written
};

} // namespace

void start_session(NetworkThread& thread,
                   tcp::socket socket,
                   std::shared_ptr<asio::ssl::context> tls) {
  if (tls) {
    std::make_shared<Session<TlsSocket>>(thread, std::move(socket), std::move(tls))->start();
  } else {
    std::make_shared<Session<tcp::socket>>(thread, std::move(socket), nullptr)->start();
  }
}

} // namespace ashare::server
