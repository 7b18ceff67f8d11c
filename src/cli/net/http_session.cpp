#include "cli/net/http_session.hpp"

#include "cli/net/gunzip.hpp"
#include "cli/net/io.hpp"
#include "cli/net/url.hpp"

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl/ssl_stream.hpp>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#include <poll.h>

namespace ashare::cli::net {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace ssl = asio::ssl;
using tcp = asio::ip::tcp;
using error_code = boost::system::error_code;
using TlsStream = beast::ssl_stream<beast::tcp_stream>;

namespace {

// A response's head and body at most (a server's answer is far smaller; a runaway one stops).
constexpr std::uint32_t k_header_limit = 64 * 1024;
constexpr std::uint64_t k_body_limit = 256u << 20;

// One connection: TCP to the server or the proxy, TLS over it for https, and what was read past
// the last response.
struct Connection {
  std::unique_ptr<beast::tcp_stream> plain; // set unless tls is
  std::unique_ptr<TlsStream> tls;
  beast::flat_buffer buffer;
  int exchanges = 0; // responses read on it so far

  beast::tcp_stream& lowest() { return tls ? beast::get_lowest_layer(*tls) : *plain; }
};

} // namespace

struct HttpSession {
  HttpSettings settings;
  Url base;
  std::optional<Url> proxy;        // the route, chosen once from settings.proxies
  std::string proxy_authorization; // "Basic ..." from the proxy's user info; "" when none
  asio::io_context io;
  std::unique_ptr<ssl::context> tls; // for an https base URL
  std::optional<Connection> connection;
};

namespace {

std::string base64(std::string_view bytes) {
  static constexpr char k_alphabet[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  for (std::size_t i = 0; i < bytes.size(); i += 3) {
    std::uint32_t group = static_cast<unsigned char>(bytes[i]) << 16;
    if (i + 1 < bytes.size()) {
      group |= static_cast<unsigned char>(bytes[i + 1]) << 8;
    }
    if (i + 2 < bytes.size()) {
      group |= static_cast<unsigned char>(bytes[i + 2]);
    }
    out += k_alphabet[(group >> 18) & 63];
    out += k_alphabet[(group >> 12) & 63];
    out += i + 1 < bytes.size() ? k_alphabet[(group >> 6) & 63] : '=';
    out += i + 2 < bytes.size() ? k_alphabet[group & 63] : '=';
  }
  return out;
}

// Where a failure happened, for its reason: the proxy's name when the step was the proxy's.
std::string at_proxy(const HttpSession& session) {
  return session.proxy ? "proxy " + authority(*session.proxy, true) + ": " : "";
}

std::unique_ptr<ssl::context> client_tls_context(const HttpSettings& settings,
                                                 std::optional<Failure>& failure) {
  auto context = std::make_unique<ssl::context>(ssl::context::tls_client);
  SSL_CTX_set_min_proto_version(context->native_handle(), TLS1_2_VERSION);
  context->set_verify_mode(ssl::verify_peer);
  error_code ec;
  if (settings.ca_file) {
    context->load_verify_file(*settings.ca_file, ec);
  } else {
    context->set_default_verify_paths(ec);
  }
  if (ec) {
    failure = Failure{"cannot load the CA certificates \""
                        + settings.ca_file.value_or("(the system's)") + "\": " + reason_of(ec),
                      false};
  }
  return context;
}

// Ask the proxy to CONNECT a tunnel to the base URL's host on `stream` (RFC 9110 9.3.6).
std::optional<Failure> open_tunnel(HttpSession& session, beast::tcp_stream& stream) {
  const auto target = authority(session.base, true);
  http::request<http::empty_body> request{http::verb::connect, target, 11};
  request.set(http::field::host, target);
  if (!session.proxy_authorization.empty()) {
    request.set(http::field::proxy_authorization, session.proxy_authorization);
  }
  const auto timeout = session.settings.timeout;
  stream.expires_after(timeout);
  auto ec = run(session.io, [&](auto handler) { http::async_write(stream, request, handler); });
  if (ec) {
    return Failure{at_proxy(session) + step_reason("sending CONNECT", ec, timeout)};
  }
  http::response_parser<http::empty_body> parser;
  parser.skip(true); // a 2xx answer to CONNECT has no body; the tunnel starts after its head
  beast::flat_buffer buffer;
  stream.expires_after(timeout);
  ec = run(session.io,
           [&](auto handler) { http::async_read_header(stream, buffer, parser, handler); });
  if (ec) {
    return Failure{at_proxy(session) + step_reason("reading the answer to CONNECT", ec, timeout)};
  }
  const auto& head = parser.get();
  if (head.result_int() / 100 != 2 || buffer.size() != 0) {
    return Failure{at_proxy(session) + "refused to CONNECT to " + target + ": HTTP "
                   + std::to_string(head.result_int()) + " " + std::string(head.reason())};
  }
  return std::nullopt;
}

// Start TLS with the base URL's host on `stream`: SNI for a name, and the certificate checked
// against the name or address (OpenSSL's own host check, during the handshake).
std::optional<Failure> start_tls(HttpSession& session, TlsStream& stream) {
  const auto& host = session.base.host;
  SSL* handle = stream.native_handle();
  X509_VERIFY_PARAM* check = SSL_get0_param(handle);
  X509_VERIFY_PARAM_set_hostflags(check, X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS);
  const bool address = is_ip_address(host);
  if (!address) {
    SSL_set_tlsext_host_name(handle, host.c_str());
  }
  const int checked = address ? X509_VERIFY_PARAM_set1_ip_asc(check, host.c_str())
                              : X509_VERIFY_PARAM_set1_host(check, host.c_str(), host.size());
  if (checked != 1) {
    return Failure{"cannot check the certificate of \"" + host + "\"", false};
  }
  const auto timeout = session.settings.timeout;
  beast::get_lowest_layer(stream).expires_after(timeout);
  const auto ec = run(session.io, [&](auto handler) {
    stream.async_handshake(ssl::stream_base::client, handler);
  });
  if (!ec) {
    return std::nullopt;
  }
  if (const auto verified = SSL_get_verify_result(handle); verified != X509_V_OK) {
    return Failure{std::string("TLS: the server's certificate is not trusted: ")
                   + X509_verify_cert_error_string(verified)};
  }
  return Failure{step_reason("TLS handshake", ec, timeout)};
}

// Connect `session` to its server or proxy, through the tunnel and TLS that the route needs.
std::optional<Failure> connect(HttpSession& session) {
  const Url& peer = session.proxy ? *session.proxy : session.base;
  const auto timeout = session.settings.timeout;
  tcp::resolver resolver(session.io);
  error_code ec;
  // getaddrinfo has its own deadline (resolv.conf), as cpp-httplib relied on too.
  const auto endpoints = resolver.resolve(peer.host, std::to_string(peer.port), ec);
  if (ec) {
    return Failure{at_proxy(session) + "cannot resolve \"" + peer.host + "\": " + reason_of(ec)};
  }
  auto stream = std::make_unique<beast::tcp_stream>(session.io);
  stream->expires_after(timeout);
  ec = run(session.io, [&](auto handler) { stream->async_connect(endpoints, handler); });
  if (ec) {
    return Failure{at_proxy(session) + step_reason("connecting", ec, timeout)};
  }
  stream->socket().set_option(tcp::no_delay(true), ec);
  Connection connection;
  if (session.base.scheme == Scheme::https) {
    if (session.proxy) {
      if (auto failure = open_tunnel(session, *stream)) {
        return failure;
      }
    }
    connection.tls = std::make_unique<TlsStream>(std::move(*stream), *session.tls);
    if (auto failure = start_tls(session, *connection.tls)) {
      return failure;
    }
  } else {
    connection.plain = std::move(stream);
  }
  session.connection.emplace(std::move(connection));
  return std::nullopt;
}

// Whether a kept-alive connection can carry another request: an idle connection with something
// to read was closed by the server (or broke the protocol).
bool is_reusable(Connection& connection) {
  if (connection.buffer.size() != 0) {
    return false;
  }
  pollfd idle{connection.lowest().socket().native_handle(), POLLIN, 0};
  return ::poll(&idle, 1, 0) == 0;
}

http::request<http::string_body> request_of(const HttpSession& session,
                                            const HttpRequest& request) {
  std::string target = session.base.path + request.target;
  if (session.proxy && session.base.scheme == Scheme::http) {
    target = origin(session.base) + target; // absolute form (RFC 9112 3.2.2)
  }
  http::request<http::string_body> out;
  out.version(11);
  out.method_string(request.method);
  out.target(target);
  out.set(http::field::host, authority(session.base));
  out.set(http::field::user_agent, "ashare/" ASHARE_VERSION);
  if (request.accept_gzip) {
    out.set(http::field::accept_encoding, "gzip");
  }
  if (session.proxy && session.base.scheme == Scheme::http
      && !session.proxy_authorization.empty()) {
    out.set(http::field::proxy_authorization, session.proxy_authorization);
  }
  for (const auto& header : request.headers) {
    out.insert(header.name, header.value);
  }
  out.body() = request.body;
  out.prepare_payload();
  return out;
}

// The response's headers, and its body inflated when it came gzip-compressed.
HttpOutcome response_of(http::response<http::string_body>&& message) {
  HttpResponse response;
  response.status = static_cast<int>(message.result_int());
  for (const auto& field : message) {
    response.headers.push_back(Header{std::string(field.name_string()), std::string(field.value())});
  }
  response.body = std::move(message.body());
  const auto coding = find_header(response.headers, "Content-Encoding");
  if (coding && !response.body.empty() && (*coding == "gzip" || *coding == "x-gzip")) {
    auto inflated = gunzip(response.body, k_body_limit);
    if (!inflated) {
      return Failure{"the answer's gzip body is corrupt or too large"};
    }
    response.body = std::move(*inflated);
  }
  return response;
}

// Write `request` on the session's connection and read its response (1xx ones skipped);
// `answered` says whether any byte of a response came.
template <class Stream>
HttpOutcome exchange_on(HttpSession& session,
                        Stream& stream,
                        const HttpRequest& request,
                        bool& answered) {
  auto& connection = *session.connection;
  const auto timeout = session.settings.timeout;
  auto message = request_of(session, request);
  connection.lowest().expires_after(timeout);
  auto ec = run(session.io, [&](auto handler) { http::async_write(stream, message, handler); });
  if (ec) {
    return Failure{at_proxy(session) + step_reason("sending the request", ec, timeout)};
  }
  for (;;) {
    http::response_parser<http::string_body> parser;
    parser.header_limit(k_header_limit);
    parser.body_limit(k_body_limit);
    parser.skip(message.method() == http::verb::head);
    while (!parser.is_done()) {
      connection.lowest().expires_after(timeout);
      ec = run(session.io, [&](auto handler) {
        http::async_read_some(stream, connection.buffer, parser, handler);
      });
      answered = answered || parser.got_some();
      if (ec) {
        return Failure{step_reason("waiting for the answer", ec, timeout)};
      }
    }
    const auto status = parser.get().result_int();
    if (status / 100 == 1 && status != 101) {
      continue; // an interim answer (100 Continue, 103 Early Hints): the real one follows
    }
    ++connection.exchanges;
    if (!parser.keep_alive()) {
      session.connection.reset();
    }
    return response_of(parser.release());
  }
}

HttpOutcome exchange_once(HttpSession& session, const HttpRequest& request, bool& answered) {
  auto& connection = *session.connection;
  if (connection.tls) {
    return exchange_on(session, *connection.tls, request, answered);
  }
  return exchange_on(session, *connection.plain, request, answered);
}

} // namespace

std::variant<HttpSession*, Failure> open_http_session(const HttpSettings& settings) {
  auto base = parse_url(settings.base_url);
  if (!base) {
    return Failure{base.error().message, false};
  }
  auto proxy = find_proxy(*base, settings.proxies);
  if (!proxy) {
    return Failure{proxy.error().message, false};
  }
  auto session = std::make_unique<HttpSession>();
  session->settings = settings;
  session->base = std::move(*base);
  session->proxy = std::move(*proxy);
  if (session->proxy && !session->proxy->user_info.empty()) {
    session->proxy_authorization = "Basic " + base64(percent_decoded(session->proxy->user_info));
  }
  if (session->base.scheme == Scheme::https) {
    std::optional<Failure> failure;
    session->tls = client_tls_context(settings, failure);
    if (failure) {
      return *failure;
    }
  }
  return session.release();
}

HttpOutcome exchange(HttpSession& session, const HttpRequest& request) {
  // A kept-alive connection may have been closed by the server just as the request left: a GET
  // or HEAD that got no byte of answer on a reused connection is sent once more, on a new one.
  const bool idempotent = request.method == "GET" || request.method == "HEAD";
  for (int attempt = 0;; ++attempt) {
    if (session.connection && !is_reusable(*session.connection)) {
      session.connection.reset();
    }
    const bool reused = session.connection.has_value();
    if (!reused) {
      if (auto failure = connect(session)) {
        session.connection.reset();
        return *failure;
      }
    }
    bool answered = false;
    auto outcome = exchange_once(session, request, answered);
    if (std::holds_alternative<Failure>(outcome)) {
      session.connection.reset();
      if (reused && idempotent && !answered && attempt == 0) {
        continue;
      }
    }
    return outcome;
  }
}

void close_http_session(HttpSession* session) {
  delete session;
}

} // namespace ashare::cli::net
