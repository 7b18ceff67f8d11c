// `ashare-net`'s side of the network module (cli/net/module.hpp): the table, linked in. Each entry
// catches whatever its implementation throws (allocation failures, mostly) and turns it into a
// value, so that no exception crosses the boundary.
#include "cli/net/hand_over.hpp"
#include "cli/net/gunzip.hpp"
#include "cli/net/http_session.hpp"
#include "cli/net/serve.hpp"
#include "cli/net/tcp_stream.hpp"

#include "cli/output/report.hpp"
#include "core/store/store_unavailable.hpp"

namespace ashare::cli::net {
namespace {

Failure unexpected(const char* what) {
  return Failure{std::string("unexpected failure in the network module: ") + what, false};
}

std::variant<HttpSession*, Failure> http_open(const HttpSettings& settings) noexcept {
  try {
    return open_http_session(settings);
  } catch (const std::exception& error) {
    return unexpected(error.what());
  } catch (...) {
    return unexpected("unknown exception");
  }
}

HttpOutcome http_exchange(HttpSession& session, const HttpRequest& request) noexcept {
  try {
    return exchange(session, request);
  } catch (const std::exception& error) {
    return unexpected(error.what());
  } catch (...) {
    return unexpected("unknown exception");
  }
}

void http_close(HttpSession* session) noexcept {
  close_http_session(session); // destructors do not throw
}

std::variant<TcpStream*, Failure> tcp_connect(const std::string& host,
                                              unsigned short port,
                                              std::chrono::milliseconds timeout) noexcept {
  try {
    return open_tcp_stream(host, port, timeout);
  } catch (const std::exception& error) {
    return unexpected(error.what());
  } catch (...) {
    return unexpected("unknown exception");
  }
}

std::optional<Failure> tcp_write(TcpStream& stream,
                                 std::span<const std::byte> bytes,
                                 std::chrono::milliseconds timeout) noexcept {
  try {
    return write_all(stream, bytes, timeout);
  } catch (const std::exception& error) {
    return unexpected(error.what());
  } catch (...) {
    return unexpected("unknown exception");
  }
}

std::optional<Failure> tcp_read(TcpStream& stream,
                                std::span<std::byte> into,
                                std::chrono::milliseconds timeout) noexcept {
  try {
    return read_exactly(stream, into, timeout);
  } catch (const std::exception& error) {
    return unexpected(error.what());
  } catch (...) {
    return unexpected("unknown exception");
  }
}

void tcp_close(TcpStream* stream) noexcept {
  close_tcp_stream(stream);
}

std::optional<std::string> zlib_inflate(std::string_view body, std::size_t limit) noexcept {
  try {
    return inflate_zlib(body, limit);
  } catch (...) {
    return std::nullopt; // out of memory: not inflated
  }
}

// As main.cpp reports what a command throws: a database server that cannot be reached is exit
// status 3 (D15), anything else 1.
int serve_entry(const ServeSettings& settings) noexcept {
  try {
    return serve(settings);
  } catch (const store::StoreUnavailable& error) {
    return fail(error.what(), k_exit_network);
  } catch (const std::exception& error) {
    return fail(error.what());
  } catch (...) {
    return fail("unexpected failure in the network module");
  }
}

} // namespace

const Module& module() {
  static const Module table{&http_open,   &http_exchange, &http_close,   &tcp_connect,
                            &tcp_write,   &tcp_read,      &tcp_close,    &zlib_inflate,
                            &serve_entry};
  return table;
}

void hand_over() {
  // Already here: the network code is linked into this program.
}

} // namespace ashare::cli::net
