// The life of `ashare serve`'s connections and of the server itself (issue 9): deadlines swept on
// a coarse clock (408, idle, a client that does not read), half-requests that cannot stall the
// rest, the connection cap, a port in use, draining on SIGTERM (D15), SIGHUP reloading the TLS
// certificate, an access log whose reader stops reading, and the settings' sources.
// What happens while something else is held is shown by order (the answer came while the writer
// was still held), never by how long it took: bench/serve_timings.py prints those figures.
#include "fixtures.hpp"
#include "raw_http.hpp"

#include <doctest/doctest.h>
#include <csignal>
#include <fcntl.h>
#include <fstream>
#include <stdexcept>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>

using namespace bb;
using nlohmann::json;

namespace {

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// The least time a deadline of `timeout` seconds takes to end a connection, measured by the client
// from before the event that starts it: that the server honoured the deadline rather than ending
// the connection at once. The server reads its clock at each sweep (every 100 ms), so a deadline
// may count from the sweep before the event; the bound allows that sweep and 150 ms more of a
// network thread starved on a loaded machine. A slow client only measures longer.
double honoured(double timeout) {
  return timeout - 0.25;
}

// 16 requests for all of 000001.SZ's bars in one write: far more than any socket buffer holds.
std::string sixteen_big(const std::string& big) {
  std::string pipelined;
  for (int i = 0; i < 16; ++i) {
    pipelined += big;
  }
  return pipelined;
}

// Wait until the server on `port` has started writing its answers to `connection` (or has
// already let the connection go: what follows tells which).
bool answering(const RawConnection& connection, int port) {
  return poll_until([&] {
    try {
      return connection.sent_by_server(port) > 0;
    } catch (const std::runtime_error&) {
      return true; // no longer in /proc/net/tcp: let go
    }
  });
}

// A store with the biggest fixture (000001.SZ, 1212 bars: a 250 KB answer) and a Pro key.
struct World {
  TestStore store;
  Key key;
  World() {
    store.import({fixture("jenny_000001.SZ.csv"), fixture("bancob_600519.SH.csv")});
    key = store.create_key("pro");
  }
  // All of 000001.SZ's bars: a response much larger than the socket buffers of a slow reader.
  std::string big() const {
    return raw_request(bars_target("1990-12-19", "2030-12-31", "symbol=000001.SZ"), key.plaintext);
  }
};

} // namespace

TEST_CASE("serve: deadlines, swept every 100 ms (issue 9)") {
  World world;
  ServerProcess server(world.store, {"--header-timeout", "0.5", "--idle-timeout", "0.8",
                                     "--write-timeout", "0.5"});
  const auto port = server.port();

  SUBCASE("a head not complete within --header-timeout gets 408, then the connection closes") {
    RawConnection connection(port);
    const auto start = Clock::now();
    REQUIRE(connection.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n"));
    const auto response = connection.read_response(k_wait);
    REQUIRE(response);
    CHECK(response->status == 408);
    CHECK(json::parse(response->body)["error"]["code"] == "INVALID_PARAMETER");
    CHECK(json::parse(response->body)["error"]["message"]
          == "the request head was not complete within 500 ms");
    CHECK(is_request_id(response->header("X-Request-Id")));
    CHECK(seconds_since(start) >= honoured(0.5));
    CHECK(connection.closed_within(k_wait));
  }
  SUBCASE("a connection that never sends a request is closed") {
    const auto start = Clock::now(); // before connecting: the deadline starts after it
    RawConnection connection(port);
    CHECK(connection.closed_within(k_wait));
    CHECK(connection.received() == 0);
    CHECK(seconds_since(start) >= honoured(0.5));
  }
  SUBCASE("an idle keep-alive connection is closed after --idle-timeout") {
    RawConnection connection(port);
    REQUIRE(connection.send(raw_request("/healthz")));
    REQUIRE(connection.read_response(k_wait));
    // Kept alive: another request is answered; then it is idle from before that answer on.
    const auto start = Clock::now();
    REQUIRE(connection.send(raw_request("/healthz")));
    REQUIRE(connection.read_response(k_wait));
    CHECK(connection.closed_within(k_wait));
    // Not before the timeout: open all the while within it.
    CHECK(seconds_since(start) >= honoured(0.8));
  }
  SUBCASE("a client that does not read its response is dropped after --write-timeout") {
    RawConnection slow(port, k_slow);
    REQUIRE(slow.send(sixteen_big(world.big())));
    // It reads nothing while the server writes, then gives up on it: the server closes its end
    // with the answers not all sent (seen in /proc/net/tcp, since this client reads nothing).
    REQUIRE(answering(slow, port));
    CHECK(poll_until([&] { return !slow.held_by_server(port); }));
    CHECK(slow.closed_within(k_wait));
    CHECK(slow.received() < 16 * 200'000u);
  }
}

TEST_CASE("serve: a client that does not read holds no thread: others are answered meanwhile") {
  World world;
  // One network thread, the stuck client's; the default write timeout (30 s) holds it there.
  ServerProcess server(world.store, {"--threads", "1"});
  const auto port = server.port();
  RawConnection stuck(port, k_slow);
  REQUIRE(stuck.send(sixteen_big(world.big())));
  REQUIRE(answering(stuck, port));
  CHECK(request(port, "/healthz").status == 200);
  CHECK(request(port, bars_target("2024-01-01", "2024-12-31", "symbol=600519.SH"),
                world.key.plaintext)
          .status
        == 200);
  // The answers came while the writer was still held: its connection open, its answers unsent.
  CHECK(stuck.held_by_server(port));
  CHECK(stuck.sent_by_server(port) < 16 * 200'000u);
}

TEST_CASE("serve: 500 stalled half-requests do not delay a normal request") {
  World world;
  // A header timeout far beyond the test: the stalled heads stay stalled throughout.
  ServerProcess server(world.store, {"--header-timeout", "3600", "--threads", "1"});
  std::vector<std::unique_ptr<RawConnection>> stalled;
  for (int i = 0; i < 500; ++i) {
    stalled.push_back(std::make_unique<RawConnection>(server.port()));
    REQUIRE(stalled.back()->send("GET /healthz HTTP/1.1\r\nHost: 12"));
  }
  for (int round = 0; round < 3; ++round) {
    const auto health = request(server.port(), "/healthz");
    CHECK(health.status == 200);
    const auto bars = request(server.port(), bars_target("2024-01-01", "2024-12-31",
                                                         "symbol=600519.SH"),
                              world.key.plaintext);
    CHECK(bars.status == 200);
  }
  // Answered while the stalled ones were still there, waiting for the rest of their head.
  std::size_t ended = 0;
  for (const auto& connection : stalled) {
    ended += connection->ended_by_server() ? 1 : 0;
  }
  CHECK(ended == 0);
}

TEST_CASE("serve: --max-connections closes what is beyond it, and serves again below it") {
  World world;
  ServerProcess server(world.store, {"--max-connections", "3"});
  std::vector<std::unique_ptr<RawConnection>> open;
  for (int i = 0; i < 3; ++i) {
    open.push_back(std::make_unique<RawConnection>(server.port()));
    REQUIRE(open.back()->send(raw_request("/healthz")));
    REQUIRE(open.back()->read_response(k_wait));
  }
  for (int i = 0; i < 5; ++i) {
    RawConnection beyond(server.port());
    beyond.send(raw_request("/healthz"));
    CHECK(beyond.closed_within(k_wait));
    CHECK(beyond.received() == 0);
  }
  // Those within the cap are served as before.
  REQUIRE(open[0]->send(raw_request("/healthz")));
  CHECK(open[0]->read_response(k_wait));
  open.pop_back();
  std::optional<RawResponse> again;
  CHECK(poll_until([&] { // once the server has seen the close, which it does at once, or soon
    RawConnection next(server.port());
    next.send(raw_request("/healthz"));
    again = next.read_response(k_wait); // an answer, or the close of a connection beyond the cap
    return again.has_value();
  }));
  REQUIRE(again);
  CHECK(again->status == 200);
  CHECK(server.stop() == 0);
}

TEST_CASE("serve: a port in use is an error, not a shared port") {
  World world;
  ServerProcess first(world.store);
  const auto second = world.store.cli(
      {"serve", "--listen", "127.0.0.1:" + std::to_string(first.port())}, 30s);
  CHECK(second.status == 1);
  CHECK(second.out == "");
  CHECK(second.err.rfind("ashare: error: cannot listen on 127.0.0.1:" + std::to_string(first.port()), 0) == 0);
  CHECK(request(first.port(), "/healthz").status == 200);
}

TEST_CASE("D15: SIGTERM drains: /healthz answers 503, requests in flight finish, then it stops") {
  World world;
  ServerProcess server(world.store, {"--drain-timeout", "20"});
  const auto port = server.port();

  RawConnection idle(port); // a keep-alive connection between requests: let go at once
  REQUIRE(idle.send(raw_request("/healthz")));
  REQUIRE(idle.read_response(k_wait));

  RawConnection slow(port, k_slow); // a response in flight that the client reads slowly
  REQUIRE(slow.send(world.big()));
  REQUIRE(answering(slow, port));
  const auto sent_before = slow.sent_by_server(port);

  server.process().send_signal(SIGTERM);
  // Let go while the drain goes on: the response below still completes, which a drain ended
  // by its timeout (20 s, before k_wait) would have cut.
  CHECK(idle.closed_within(k_wait));

  RawConnection checker(port); // a load balancer's health check
  REQUIRE(checker.send(raw_request("/healthz")));
  const auto health = checker.read_response(k_wait);
  REQUIRE(health);
  CHECK(health->status == 503);
  CHECK(json::parse(health->body)["status"] == "unavailable");
  CHECK(health->header("Connection") == "close");
  CHECK_FALSE(server.process().exited());

  // The response in flight completes, whole.
  const auto response = slow.read_response(k_wait);
  REQUIRE(response);
  CHECK(response->status == 200);
  CHECK(json::parse(response->body)["resultsCount"] == 1212);
  CHECK(sent_before < response->head.size() + 4 + response->body.size()); // in flight at SIGTERM
  CHECK(server.process().wait_for_exit(k_wait) == 0);
}

TEST_CASE("serve: draining is bounded by --drain-timeout") {
  World world;
  ServerProcess server(world.store, {"--drain-timeout", "1"});
  RawConnection stuck(server.port(), k_slow); // never reads its responses while the server runs
  REQUIRE(stuck.send(sixteen_big(world.big())));
  REQUIRE(answering(stuck, server.port()));
  const auto start = Clock::now();
  server.process().send_signal(SIGTERM);
  CHECK(server.process().wait_for_exit(k_wait) == 0);
  // Not before the drain timeout (the server's own clock, read at the signal): it waited for the
  // answers in flight. And then it stopped though they were not all sent: bounded by the timeout,
  // not by the client.
  CHECK(seconds_since(start) > 0.8);
  CHECK(stuck.receive_until_closed(k_wait));
  CHECK(stuck.received() < 16 * 200'000u);
}

TEST_CASE("serve: a second SIGTERM stops a draining server at once") {
  World world;
  ServerProcess server(world.store, {"--drain-timeout", "60"});
  const auto port = server.port();
  RawConnection stuck(port, k_slow); // keeps the drain going: it never reads
  REQUIRE(stuck.send(sixteen_big(world.big())));
  REQUIRE(answering(stuck, port));
  server.process().send_signal(SIGTERM);
  // Draining: /healthz says so, and the server is still there.
  CHECK(poll_until([&] { return request(port, "/healthz").status == 503; }));
  CHECK_FALSE(server.process().exited());
  server.process().send_signal(SIGTERM);
  // Stopped by the signal, well before the drain's 60 s, the answers not all sent.
  CHECK(server.process().wait_for_exit(k_wait) == 0);
  CHECK(stuck.receive_until_closed(k_wait));
  CHECK(stuck.received() < 16 * 200'000u);
}

namespace {

// A TLS client on OpenSSL that does not verify the server and tells its certificate's CN. Each
// of its reads and writes waits at most k_wait.
class TlsConnection {
public:
  explicit TlsConnection(int port) {
    m_context = SSL_CTX_new(TLS_client_method());
    m_fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    const timeval limit{std::chrono::duration_cast<std::chrono::seconds>(k_wait).count(), 0};
    ::setsockopt(m_fd, SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof limit);
    ::setsockopt(m_fd, SOL_SOCKET, SO_SNDTIMEO, &limit, sizeof limit);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<std::uint16_t>(port));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    REQUIRE(::connect(m_fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) == 0);
    m_ssl = SSL_new(m_context);
    SSL_set_fd(m_ssl, m_fd);
    REQUIRE(SSL_connect(m_ssl) == 1);
  }
  ~TlsConnection() {
    SSL_free(m_ssl);
    SSL_CTX_free(m_context);
    ::close(m_fd);
  }
  TlsConnection(const TlsConnection&) = delete;
  TlsConnection& operator=(const TlsConnection&) = delete;

  std::string common_name() const {
    X509* certificate = SSL_get1_peer_certificate(m_ssl);
    REQUIRE(certificate != nullptr);
    char name[256] = {};
    X509_NAME_get_text_by_NID(X509_get_subject_name(certificate), NID_commonName, name,
                              sizeof name);
    X509_free(certificate);
    return name;
  }

  // Send GET /healthz and return the status of the answer (0 when none came).
  int health() { return exchange(raw_request("/healthz")); }

  // Send `raw` and return the status of the answer (0 when none came); its body in `body` when
  // given.
  int exchange(const std::string& raw, std::string* body = nullptr) {
    if (SSL_write(m_ssl, raw.data(), static_cast<int>(raw.size())) <= 0) {
      return 0;
    }
    std::string in;
    char chunk[4096];
    while (true) {
      const auto end = in.find("\r\n\r\n");
      if (end != std::string::npos) {
        const auto at = in.find("Content-Length: ");
        const auto length = std::stoul(in.substr(at + 16));
        if (in.size() >= end + 4 + length) {
          if (body != nullptr) {
            *body = in.substr(end + 4, length);
          }
          return std::stoi(in.substr(9, 3));
        }
      }
      const int got = SSL_read(m_ssl, chunk, sizeof chunk);
      if (got <= 0) {
        return 0;
      }
      in.append(chunk, static_cast<std::size_t>(got));
    }
  }

private:
  SSL_CTX* m_context = nullptr;
  SSL* m_ssl = nullptr;
  int m_fd = -1;
};

void make_certificate(const std::filesystem::path& cert,
                      const std::filesystem::path& key,
                      const std::string& name) {
  const auto result = run_process({"/usr/bin/openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes",
                                   "-days", "2", "-subj", "/CN=" + name, "-keyout", key.string(),
                                   "-out", cert.string()},
                                  60s);
  REQUIRE_MESSAGE(result.status == 0, result.err);
}

} // namespace

TEST_CASE("serve: SIGHUP reloads the TLS certificate and key without dropping connections") {
  TestStore store;
  store.import({fixture("bancob_600519.SH.csv")});
  const auto cert = store.dir() / "cert.pem";
  const auto key = store.dir() / "key.pem";
  make_certificate(cert, key, "ashare-first");
  Process server({ashare_bin(), "--db", store.data_locator(), "serve", "--listen", "127.0.0.1:0",
                  "--tls-cert", cert.string(), "--tls-key", key.string()});
  const auto line = server.wait_for_stdout_line("listening on https://127.0.0.1:", k_start_timeout);
  REQUIRE(line);
  const int port = std::stoi(line->substr(line->rfind(':') + 1));

  TlsConnection before(port);
  CHECK(before.common_name() == "ashare-first");
  CHECK(before.health() == 200);

  SUBCASE("a new certificate for new connections") {
    make_certificate(cert, key, "ashare-second");
    server.send_signal(SIGHUP);
    // The server says when the new one is in place; connections accepted after that have it.
    REQUIRE(server.wait_for_stderr_line("ashare: reloaded the TLS certificate and key", k_wait));
    TlsConnection next(port);
    CHECK(next.common_name() == "ashare-second");
    CHECK(next.health() == 200);
    CHECK(before.health() == 200); // the open connection goes on with the old one
  }
  SUBCASE("a head not complete in time gets 408 over TLS too") {
    // The server runs with the default 10 s: a separate one with a short deadline.
    Process quick({ashare_bin(), "--db", store.data_locator(), "serve", "--listen", "127.0.0.1:0",
                   "--tls-cert", cert.string(), "--tls-key", key.string(), "--header-timeout",
                   "0.5"});
    const auto quick_line =
      quick.wait_for_stdout_line("listening on https://127.0.0.1:", k_start_timeout);
    REQUIRE(quick_line);
    TlsConnection slow(std::stoi(quick_line->substr(quick_line->rfind(':') + 1)));
    std::string body;
    CHECK(slow.exchange("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n", &body) == 408);
    CHECK(json::parse(body)["error"]["message"]
          == "the request head was not complete within 500 ms"); // --header-timeout, not 10 s
    quick.send_signal(SIGTERM);
    CHECK(quick.wait_for_exit(k_wait) == 0);
  }
  SUBCASE("unreadable files keep the old certificate, and say so") {
    { std::ofstream broken(key); broken << "not a key\n"; }
    server.send_signal(SIGHUP);
    REQUIRE(server.wait_for_stderr_line("ashare: error: cannot load the TLS certificate", k_wait));
    const auto err = server.stderr_text();
    CHECK(err.find("ashare: error: cannot load the TLS certificate \"" + cert.string())
          != std::string::npos);
    CHECK(err.find("; keeping the previous ones\n") != std::string::npos);
    TlsConnection next(port);
    CHECK(next.common_name() == "ashare-first");
    CHECK(next.health() == 200);
    CHECK(before.health() == 200);
  }
  server.send_signal(SIGTERM);
  CHECK(server.wait_for_exit(k_wait) == 0);
}

TEST_CASE("serve: an access log nobody reads never stops the server; dropped lines are counted") {
  World world;
  TempDir dir;
  const auto fifo = dir.path() / "stderr.fifo";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  const int reader = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  REQUIRE(reader >= 0);
  ::fcntl(reader, F_SETPIPE_SZ, 4096); // the smallest pipe: full after a few dozen lines
  Process server({"/bin/sh", "-c",
                  "exec \"$0\" --db \"$1\" serve --listen 127.0.0.1:0 2>\"$2\"", ashare_bin(),
                  world.store.data_locator(), fifo.string()});
  const auto line = server.wait_for_stdout_line("listening on http://127.0.0.1:", k_start_timeout);
  REQUIRE(line);
  const int port = std::stoi(line->substr(line->rfind(':') + 1));

  // 32,000 requests: far more lines than the pipe and the log's backlog (1 MiB) hold.
  constexpr int k_batches = 64;
  constexpr int k_per_batch = 500;
  std::string batch;
  for (int i = 0; i < k_per_batch; ++i) {
    batch += raw_request("/healthz");
  }
  RawConnection connection(port);
  for (int b = 0; b < k_batches; ++b) {
    REQUIRE(connection.send(batch));
    for (int i = 0; i < k_per_batch; ++i) {
      const auto response = connection.read_response(k_wait);
      REQUIRE(response);
      REQUIRE(response->status == 200);
    }
  }
  // Answered all the while, though nobody has read the log yet.
  CHECK(request(port, "/healthz").status == 200);

  // Stop with the pipe still full, then read it: the lines that fitted, and the count of the rest.
  server.send_signal(SIGTERM);
  std::string log;
  std::thread drain([&] {
    char chunk[65536];
    const auto deadline = Clock::now() + k_wait;
    for (auto left = k_wait; left.count() > 0;
         left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now())) {
      pollfd entry{reader, POLLIN, 0};
      if (::poll(&entry, 1, static_cast<int>(left.count())) <= 0) {
        continue; // interrupted, or the deadline: looked at again above
      }
      const ssize_t got = ::read(reader, chunk, sizeof chunk);
      if (got > 0) {
        log.append(chunk, static_cast<std::size_t>(got));
      } else if (got == 0) {
        break; // the server closed its end
      }
    }
  });
  CHECK(server.wait_for_exit(k_wait) == 0);
  drain.join();
  ::close(reader);
  std::size_t logged = 0;
  std::uint64_t dropped = 0;
  for (const auto& entry : split_lines(log)) {
    if (entry.rfind("GET /healthz 200 ", 0) == 0) {
      ++logged;
    } else if (entry.find(" lines dropped while stderr was not read") != std::string::npos) {
      dropped += std::stoull(entry.substr(std::string("ashare: access log: ").size()));
    }
  }
  CHECK(dropped > 0);
  CHECK(logged + dropped == k_batches * k_per_batch + 1);
}

TEST_CASE("serve: the settings come from flags, the environment or the config file") {
  World world;
  SUBCASE("values are checked wherever they come from") {
    struct Row {
      std::vector<std::string> args;
      std::vector<std::string> env;
      std::string message;
    };
    const std::vector<Row> rows{
        {{"--threads", "0"}, {}, "invalid --threads \"0\": expected a whole number from 1 to 1024"},
        {{}, {"ASHARE_THREADS=many"},
         "invalid --threads \"many\": expected a whole number from 1 to 1024"},
        {{"--max-connections", "-1"}, {},
         "invalid --max-connections \"-1\": expected a whole number from 1 to 1000000"},
        {{"--header-timeout", "0.05"}, {},
         "invalid --header-timeout \"0.05\": expected seconds from 0.1 to 86400, e.g. 10 or 2.5"},
        {{}, {"ASHARE_IDLE_TIMEOUT=1e3"},
         "invalid --idle-timeout \"1e3\": expected seconds from 0.1 to 86400, e.g. 10 or 2.5"},
        {{"--write-timeout", "1."}, {},
         "invalid --write-timeout \"1.\": expected seconds from 0.1 to 86400, e.g. 10 or 2.5"},
        {{"--drain-timeout", "x"}, {},
         "invalid --drain-timeout \"x\": expected seconds from 0.1 to 86400, e.g. 10 or 2.5"},
        {{}, {"ASHARE_LISTEN=nowhere"},
         "invalid --listen \"nowhere\": expected HOST:PORT, e.g. 127.0.0.1:8080"},
        {{"--cache-budget", "0"}, {},
         "invalid --cache-budget \"0\": expected a whole number from 1 to 1048576"},
        {{}, {"ASHARE_CACHE_BUDGET=1g"},
         "invalid --cache-budget \"1g\": expected a whole number from 1 to 1048576"},
    };
    for (const auto& row : rows) {
      CAPTURE(row.message);
      std::vector<std::string> argv{ashare_bin(), "--db", world.store.data_locator(), "serve"};
      argv.insert(argv.end(), row.args.begin(), row.args.end());
      const auto run = run_process(argv, k_cli_timeout, row.env);
      CHECK(run.status == 2);
      CHECK(run.out == "");
      CHECK(run.err == "ashare: error: " + row.message + "\n");
    }
  }
  SUBCASE("the config file gives them under the environment and the flags") {
    const auto config = world.store.dir() / "serve.toml";
    {
      std::ofstream out(config);
      out << "threads = \"1\"\nheader_timeout = \"0.3\"\nlisten = \"127.0.0.1:1\"\n";
    }
    // The file's listen is overridden by the environment's: a free port.
    Process server({ashare_bin(), "--db", world.store.data_locator(), "--config", config.string(),
                    "serve"},
                   {"ASHARE_LISTEN=127.0.0.1:0"});
    const auto line = server.wait_for_stdout_line("listening on http://127.0.0.1:", k_start_timeout);
    REQUIRE(line);
    const int port = std::stoi(line->substr(line->rfind(':') + 1));
    CHECK(port != 1);
    RawConnection connection(port);
    REQUIRE(connection.send("GET /healthz HTTP/1.1\r\n"));
    const auto response = connection.read_response(k_wait);
    REQUIRE(response);
    CHECK(response->status == 408); // the file's header_timeout
    CHECK(json::parse(response->body)["error"]["message"]
          == "the request head was not complete within 300 ms");
    server.send_signal(SIGTERM);
    CHECK(server.wait_for_exit(k_wait) == 0);
  }
}

TEST_CASE("serve: an open-file limit too low for --max-connections is said at start") {
  World world;
  // A hard limit of 256 descriptors: the server cannot raise it to fit 10,000 connections.
  Process server({"/bin/sh", "-c", "ulimit -n 256 && exec \"$0\" --db \"$1\" serve --listen 127.0.0.1:0",
                  ashare_bin(), world.store.data_locator()});
  const auto line = server.wait_for_stdout_line("listening on http://127.0.0.1:", k_start_timeout);
  REQUIRE(line);
  const int port = std::stoi(line->substr(line->rfind(':') + 1));
  CHECK(request(port, "/healthz").status == 200);
  // Its stderr comes through another pipe than the port line: waited for on its own.
  REQUIRE(server.wait_for_stderr_line("ashare: warning: ", k_wait));
  const auto err = server.stderr_text();
  CHECK(err.rfind("ashare: warning: the open-file limit allows ", 0) == 0);
  CHECK(err.find(" connections, not the 10000 of --max-connections (raise it with ulimit -n)\n")
        != std::string::npos);
  server.send_signal(SIGTERM);
  CHECK(server.wait_for_exit(k_wait) == 0);
}

TEST_CASE("serve: the network code runs only for serve, fetch and remote mode (issue 11, P2)") {
  World world;
  // `ashare` alone, without ashare-net beside it: what a local command needs is all inside.
  TempDir alone;
  const auto binary = alone.path() / "ashare";
  std::filesystem::copy_file(ashare_bin(), binary);
  std::filesystem::permissions(binary, std::filesystem::perms::owner_all);
  const std::string db = world.store.data_locator();

  const auto local = run_process({binary.string(), "--db", db, "bars", "000001.SZ", "2024-01-02",
                                  "2024-01-31", "--format", "csv"});
  CHECK(local.status == 0);
  CHECK(local.out.rfind("symbol,trade_date,", 0) == 0);
  CHECK(local.out.find("\n000001.SZ,2024-01-31,") != std::string::npos);
  const auto beside_network =
    world.store.cli({"bars", "000001.SZ", "2024-01-02", "2024-01-31", "--format", "csv"});
  CHECK(local.out == beside_network.out);

  // The paths tried: beside the binary, then where `cmake --install` puts it.
  const std::string not_found =
    "ashare: error: cannot run the network program ashare-net (needed for remote mode, fetch and "
    "serve):\n  "
    + (alone.path() / "ashare-net").string() + ": not found\n  "
    + (alone.path().parent_path() / "libexec" / "ashare" / "ashare-net").string()
    + ": not found\n";
  const auto serve = run_process({binary.string(), "--db", db, "serve", "--listen", "127.0.0.1:0"});
  CHECK(serve.status == 1);
  CHECK(serve.err == not_found);
  CHECK(serve.out.empty());

  // fetch moves before it takes the store's fetch lock or prints a line.
  const auto fetch = run_process({binary.string(), "--db", db, "fetch", "tdx", "--hosts",
                                  "127.0.0.1:9"});
  CHECK(fetch.status == 1);
  CHECK(fetch.err == not_found);

  const auto remote = run_process({binary.string(), "--base-url", "http://127.0.0.1:9",
                                   "--cache-db", (alone.path() / "cache.db").string(), "bars",
                                   "000001.SZ", "2024-01-02", "2024-01-31"});
  CHECK(remote.status == 1);
  CHECK(remote.err == not_found);

  // The same commands beside ashare-net: the server answers, under the process id that started.
  ServerProcess server(world.store);
  CHECK(std::filesystem::read_symlink("/proc/" + std::to_string(server.process().pid()) + "/exe")
          .filename()
        == "ashare-net");
}
