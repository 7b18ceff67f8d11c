// Remote mode through a proxy from the environment (issue 31): http_proxy carries an http
// remote's requests in absolute form, https_proxy a CONNECT tunnel in which TLS runs to the
// remote (SNI, the certificate checked against the URL's host), and no_proxy's hosts are reached
// directly. The proxy is a stand-in on 127.0.0.1 that records what it is asked; the remote's
// host name is never resolved by the client, only by the stand-in, which knows one: localhost.
#include "process.hpp"
#include "server_process.hpp"

#include <doctest/doctest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <fstream>
#include <functional>
#include <mutex>
#include <thread>

namespace bb {
namespace {

constexpr const char* k_healthz_body =
  R"({"status":"ok","as_of":"2031-02-03","schema_version":"2026-05-27"})";

// Wait at most 50 ms for `fd` to be readable.
bool readable(int fd) {
  pollfd wait{fd, POLLIN, 0};
  return ::poll(&wait, 1, 50) == 1;
}

// A listener on 127.0.0.1 whose connections, one at a time, go to `talk`; it records the head of
// each request it is asked (request line and headers).
class StandIn {
public:
  using Talk = std::function<void(int connection, StandIn& self)>;

  explicit StandIn(Talk talk) : m_talk(std::move(talk)) {
    m_listener = ::socket(AF_INET, SOCK_STREAM, 0);
    REQUIRE(m_listener >= 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    REQUIRE(::bind(m_listener, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0);
    REQUIRE(::listen(m_listener, 8) == 0);
    socklen_t length = sizeof address;
    REQUIRE(::getsockname(m_listener, reinterpret_cast<sockaddr*>(&address), &length) == 0);
    m_port = ntohs(address.sin_port);
    m_thread = std::thread([this] {
      while (!m_stop) {
        if (!readable(m_listener)) {
          continue;
        }
        const int connection = ::accept(m_listener, nullptr, nullptr);
        if (connection >= 0) {
          m_talk(connection, *this);
          ::close(connection);
        }
      }
    });
  }
  ~StandIn() {
    m_stop = true;
    m_thread.join();
    ::close(m_listener);
  }
  StandIn(const StandIn&) = delete;
  StandIn& operator=(const StandIn&) = delete;

  int port() const { return m_port; }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(m_port); }
  bool stopping() const { return m_stop; }

  // Read a request's head from `connection` (bounded by the stand-in's life); "" when it closed.
  std::string read_head(int connection) {
    std::string head;
    char buffer[4096];
    while (!m_stop && head.find("\r\n\r\n") == std::string::npos) {
      if (!readable(connection)) {
        continue;
      }
      const auto got = ::recv(connection, buffer, 1, 0); // byte by byte: nothing past the head
      if (got <= 0) {
        return "";
      }
      head.append(buffer, 1);
    }
    std::lock_guard lock(m_mutex);
    m_heads.push_back(head);
    return head;
  }

  void record_tunnelled(const std::string& bytes) {
    std::lock_guard lock(m_mutex);
    m_tunnelled += bytes;
  }

  std::vector<std::string> heads() {
    std::lock_guard lock(m_mutex);
    return m_heads;
  }
  std::string tunnelled() {
    std::lock_guard lock(m_mutex);
    return m_tunnelled;
  }

private:
  Talk m_talk;
  int m_listener = -1;
  int m_port = 0;
  std::atomic<bool> m_stop{false};
  std::mutex m_mutex;
  std::vector<std::string> m_heads;
  std::string m_tunnelled; // what the client sent through a CONNECT tunnel
  std::thread m_thread;
};

void send_all(int fd, const std::string& bytes) {
  ::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
}

// Answer every request on a connection with the remote's /healthz, then close: a remote (when
// asked directly) or an http proxy in front of one (asked in absolute form).
void answer_healthz(int connection, StandIn& self) {
  if (self.read_head(connection).empty()) {
    return;
  }
  send_all(connection, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: "
                       "close\r\nContent-Length: "
                         + std::to_string(std::string(k_healthz_body).size()) + "\r\n\r\n"
                         + k_healthz_body);
}

// An https proxy: CONNECT to localhost or 127.0.0.1 only, then bytes both ways until either
// side closes.
void tunnel(int connection, StandIn& self) {
  const auto head = self.read_head(connection);
  const auto target = head.substr(0, head.find("\r\n"));
  const auto colon = target.rfind(':');
  const auto host = target.substr(8, colon - 8); // after "CONNECT "
  if (!target.starts_with("CONNECT ") || (host != "localhost" && host != "127.0.0.1")) {
    send_all(connection, "HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n");
    return;
  }
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = htons(static_cast<std::uint16_t>(std::stoi(target.substr(colon + 1))));
  const int upstream = ::socket(AF_INET, SOCK_STREAM, 0);
  if (::connect(upstream, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
    send_all(connection, "HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n");
    ::close(upstream);
    return;
  }
  send_all(connection, "HTTP/1.1 200 Connection established\r\n\r\n");
  pollfd both[2] = {{connection, POLLIN, 0}, {upstream, POLLIN, 0}};
  char buffer[16384];
  while (!self.stopping()) {
    if (::poll(both, 2, 50) <= 0) {
      continue;
    }
    const bool from_client = (both[0].revents & (POLLIN | POLLHUP)) != 0;
    const int from = from_client ? connection : upstream;
    const auto got = ::recv(from, buffer, sizeof buffer, 0);
    if (got <= 0) {
      break;
    }
    if (from_client) {
      self.record_tunnelled(std::string(buffer, static_cast<std::size_t>(got)));
    }
    send_all(from_client ? upstream : connection, std::string(buffer, static_cast<std::size_t>(got)));
  }
  ::close(upstream);
}

std::string first_line(const std::string& head) {
  return head.substr(0, head.find("\r\n"));
}

bool has_line(const std::string& head, const std::string& line) {
  return head.find("\r\n" + line + "\r\n") != std::string::npos;
}

// Run `ashare ARGS...` on a fresh client directory with `env` ("NAME=value") added.
RunResult client(const std::vector<std::string>& args, const std::vector<std::string>& env) {
  const TempDir home;
  std::vector<std::string> argv{ashare_bin(), "--db", (home.path() / "client.db").string()};
  argv.insert(argv.end(), args.begin(), args.end());
  auto full_env = env;
  full_env.push_back("HOME=" + home.path().string());
  return run_process(argv, k_cli_timeout, full_env);
}

// A throwaway CA and a certificate for the name localhost alone, signed by it, in `dir`.
void make_localhost_pki(const std::filesystem::path& dir) {
  const auto path = [&](const char* name) { return (dir / name).string(); };
  {
    std::ofstream ext(dir / "ext.cnf");
    ext << "subjectAltName=DNS:localhost\n";
  }
  const std::vector<std::vector<std::string>> steps{
    {"req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", path("ca.key"), "-out",
     path("ca.pem"), "-days", "2", "-subj", "/CN=ashare proxy test CA"},
    {"req", "-newkey", "rsa:2048", "-nodes", "-keyout", path("server.key"), "-out",
     path("server.csr"), "-subj", "/CN=localhost"},
    {"x509", "-req", "-in", path("server.csr"), "-CA", path("ca.pem"), "-CAkey", path("ca.key"),
     "-CAcreateserial", "-out", path("server.pem"), "-days", "2", "-extfile", path("ext.cnf")},
  };
  for (const auto& step : steps) {
    std::vector<std::string> argv{"/usr/bin/openssl"};
    argv.insert(argv.end(), step.begin(), step.end());
    const auto result = run_process(argv, 60s);
    REQUIRE_MESSAGE(result.status == 0, result.err);
  }
}

} // namespace

TEST_CASE("proxy: http_proxy carries an http remote's requests, the URL whole") {
  StandIn proxy(answer_healthz);
  const std::string base_url = "http://remote.invalid:8080/api";
  for (const char* variable : {"http_proxy", "HTTP_PROXY"}) {
    CAPTURE(variable);
    const auto run = client({"--base-url", base_url, "--api-key", "ask_k", "--retries", "0", "info"},
                            {std::string(variable) + "=" + proxy.url()});
    INFO(describe(run));
    CHECK(run.status == 0);
    CHECK(run.out.find("as_of: 2031-02-03\n") != std::string::npos);
  }
  const auto heads = proxy.heads();
  REQUIRE(heads.size() == 2);
  for (const auto& head : heads) {
    CAPTURE(head);
    CHECK(first_line(head) == "GET http://remote.invalid:8080/api/healthz HTTP/1.1");
    CHECK(has_line(head, "Host: remote.invalid:8080"));
    CHECK(has_line(head, "Authorization: Bearer ask_k"));
  }
}

TEST_CASE("proxy: no_proxy's hosts are reached directly") {
  StandIn proxy(answer_healthz);
  StandIn remote(answer_healthz);
  for (const char* no_proxy : {"no_proxy=127.0.0.1", "NO_PROXY=*", "no_proxy=example.com,127.0.0.1:1"}) {
    CAPTURE(no_proxy);
    const auto run = client({"--base-url", remote.url(), "--retries", "0", "info"},
                            {"http_proxy=" + proxy.url(), no_proxy});
    INFO(describe(run));
    CHECK(run.status == 0);
    CHECK(run.out.find("as_of: 2031-02-03\n") != std::string::npos);
  }
  // An https_proxy does not apply to an http remote.
  const auto run = client({"--base-url", remote.url(), "--retries", "0", "info"},
                          {"https_proxy=" + proxy.url()});
  INFO(describe(run));
  CHECK(run.status == 0);
  CHECK(proxy.heads().empty());
  const auto heads = remote.heads();
  REQUIRE(heads.size() == 4);
  for (const auto& head : heads) {
    CHECK(first_line(head) == "GET /healthz HTTP/1.1");
  }
}

TEST_CASE("proxy: a proxy that cannot be reached is a network error naming it (exit 3)") {
  int port = 0;
  {
    StandIn gone(answer_healthz);
    port = gone.port();
  }
  const auto run = client({"--base-url", "http://remote.invalid:8080", "--retries", "0", "info"},
                          {"http_proxy=http://127.0.0.1:" + std::to_string(port)});
  INFO(describe(run));
  CHECK(run.status == 3);
  CHECK(run.err
        == "ashare: error: cannot reach http://remote.invalid:8080: proxy 127.0.0.1:"
             + std::to_string(port) + ": connection refused\n");
}

TEST_CASE("proxy: https_proxy tunnels TLS to the remote, checked against the URL's host name") {
  TestStore store;
  store.import({fixture("bancob_600519.SH.csv")});
  const auto key = store.create_key("pro", std::nullopt, "proxy");
  make_localhost_pki(store.dir());
  std::vector<std::string> argv{ashare_bin()};
  const auto stores = store.store_args();
  argv.insert(argv.end(), stores.begin(), stores.end());
  argv.insert(argv.end(), {"serve", "--listen", "127.0.0.1:0", "--tls-cert",
                           (store.dir() / "server.pem").string(), "--tls-key",
                           (store.dir() / "server.key").string()});
  Process server(argv);
  const std::string prefix = "listening on https://127.0.0.1:";
  const auto line = server.wait_for_stdout_line(prefix, k_start_timeout);
  REQUIRE(line);
  const auto port = line->substr(prefix.size());
  const auto ca = (store.dir() / "ca.pem").string();
  const std::vector<std::string> query{"bars", "600519.SH", "2024-06-17", "2024-06-21",
                                       "--format", "csv"};
  const auto local = store.cli(query);
  REQUIRE(local.status == 0);
  StandIn proxy(tunnel);

  SUBCASE("through the tunnel, the same bars as in local mode") {
    std::vector<std::string> args{"--base-url", "https://localhost:" + port, "--api-key",
                                  key.plaintext, "--ca-file", ca, "--retries", "0"};
    args.insert(args.end(), query.begin(), query.end());
    const auto run = client(args, {"https_proxy=" + proxy.url()});
    INFO(describe(run));
    CHECK(run.status == 0);
    CHECK(run.out == local.out);
    const auto heads = proxy.heads();
    REQUIRE(heads.size() == 1); // one tunnel, kept alive for every request
    CHECK(first_line(heads[0]) == "CONNECT localhost:" + port + " HTTP/1.1");
    CHECK(has_line(heads[0], "Host: localhost:" + port));
    // TLS inside: the key never crossed the proxy in the clear, and the ClientHello named the
    // host (SNI).
    const auto tunnelled = proxy.tunnelled();
    CHECK(tunnelled.find(key.plaintext) == std::string::npos);
    CHECK(tunnelled.find("localhost") != std::string::npos);
  }
  SUBCASE("the certificate names localhost, not 127.0.0.1: refused, exit 3") {
    const auto run = client({"--base-url", "https://127.0.0.1:" + port, "--ca-file", ca,
                             "--retries", "0", "info"},
                            {"https_proxy=" + proxy.url()});
    INFO(describe(run));
    CHECK(run.status == 3);
    CHECK(run.err
          == "ashare: error: cannot reach https://127.0.0.1:" + port
               + ": TLS: the server's certificate is not trusted: IP address mismatch\n");
    REQUIRE(proxy.heads().size() == 1);
    CHECK(first_line(proxy.heads()[0]) == "CONNECT 127.0.0.1:" + port + " HTTP/1.1");
  }
  server.send_signal(SIGTERM);
  CHECK(server.wait_for_exit(30s) == 0);
}

} // namespace bb
