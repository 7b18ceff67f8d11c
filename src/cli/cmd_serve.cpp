// ashare serve: the v1 HTTP/JSON API on a loopback address by default. Binds, prints
// "listening on http://HOST:PORT" once connections are accepted, stops on SIGINT or SIGTERM.
#include "cli/command.hpp"
#include "cli/http_adapter.hpp"
#include "core/api/services.hpp"

#include <CLI/CLI.hpp>
#include <csignal>
#include <iostream>
#include <memory>
#include <pthread.h>
#include <sys/socket.h>
#include <thread>

namespace ashare::cli {
namespace {

struct ServeArgs {
  std::string listen = "127.0.0.1:8080";
  std::size_t threads = 16;
  std::string tls_cert; // PEM certificate chain; with tls_key, serve HTTPS
  std::string tls_key;
};

struct Endpoint {
  std::string host;
  int port = 0;
};

std::optional<Endpoint> parse_listen(const std::string& text) {
  const auto colon = text.rfind(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == text.size()) {
    return std::nullopt;
  }
  const std::string port = text.substr(colon + 1);
  if (port.size() > 5 || port.find_first_not_of("0123456789") != std::string::npos) {
    return std::nullopt;
  }
  const int number = std::stoi(port);
  if (number > 65535) {
    return std::nullopt;
  }
  std::string host = text.substr(0, colon);
  if (host.size() > 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2); // [::1]:8080
  }
  return Endpoint{host, number};
}

// Waits for SIGINT or SIGTERM on a thread of its own (signals are blocked everywhere else), so
// that stopping the server happens outside a signal handler.
class SignalWatcher {
public:
  explicit SignalWatcher(httplib::Server& server) {
    sigemptyset(&m_signals);
    sigaddset(&m_signals, SIGINT);
    sigaddset(&m_signals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &m_signals, nullptr); // inherited by every thread started later
    m_thread = std::thread([this, &server] {
      int signal = 0;
      sigwait(&m_signals, &signal);
      server.stop();
    });
  }
  ~SignalWatcher() {
    // The server stopped on its own: wake the watcher so it can be joined.
    pthread_kill(m_thread.native_handle(), SIGTERM);
    m_thread.join();
  }
  SignalWatcher(const SignalWatcher&) = delete;
  SignalWatcher& operator=(const SignalWatcher&) = delete;

private:
  sigset_t m_signals{};
  std::thread m_thread;
};

int run_serve(const ServeArgs& args, const Config& config) {
  const auto endpoint = parse_listen(args.listen);
  if (!endpoint) {
    std::cerr << "ashare: error: invalid --listen \"" << args.listen
              << "\": expected HOST:PORT, e.g. 127.0.0.1:8080\n";
    return k_exit_usage;
  }
  api::Services services(config.db, config.keys_db);
  services.log_error = [](std::string_view detail) {
    std::cerr << "ashare: error: " << detail << std::endl;
  };
  // Open both stores now, so that a bad path fails before "listening" is printed.
  services.bars.acquire();
  services.keys.acquire();

  if (args.tls_cert.empty() != args.tls_key.empty()) {
    std::cerr << "ashare: error: HTTPS needs both --tls-cert and --tls-key\n";
    return k_exit_usage;
  }
  const bool tls = !args.tls_cert.empty();
  std::unique_ptr<httplib::Server> server_owner;
  if (tls) {
    auto https = std::make_unique<httplib::SSLServer>(args.tls_cert.c_str(), args.tls_key.c_str());
    if (!https->is_valid()) {
      std::cerr << "ashare: error: cannot load the TLS certificate \"" << args.tls_cert
                << "\" and key \"" << args.tls_key << "\" (PEM files, matching each other)\n";
      return k_exit_error;
    }
    server_owner = std::move(https);
  } else {
    server_owner = std::make_unique<httplib::Server>();
  }
  httplib::Server& server = *server_owner;
  server.set_tcp_nodelay(true); // without it a 48 KB response waits on Nagle's algorithm
  // cpp-httplib 0.11 also sets SO_REUSEPORT, which lets a second server bind a port in use and
  // silently share its connections; keep only SO_REUSEADDR, so that a busy port is an error.
  server.set_socket_options([](socket_t socket) {
    int yes = 1;
    ::setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  });
  const std::size_t threads = args.threads;
  server.new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
  install_api(server, services);

  SignalWatcher watcher(server);
  const int port = endpoint->port == 0
                     ? server.bind_to_any_port(endpoint->host)
                     : (server.bind_to_port(endpoint->host, endpoint->port) ? endpoint->port : -1);
  if (port < 0) {
    std::cerr << "ashare: error: cannot listen on " << args.listen << "\n";
    return k_exit_error;
  }
  const bool ipv6 = endpoint->host.find(':') != std::string::npos;
  std::cout << "listening on " << (tls ? "https://" : "http://") << (ipv6 ? "[" + endpoint->host + "]" : endpoint->host)
            << ":" << port << std::endl;
  const bool clean = server.listen_after_bind() || !server.is_running();
  return clean ? k_exit_ok : k_exit_error;
}

} // namespace

Action setup_serve(CLI::App& command, GlobalFlags&) {
  auto args = std::make_shared<ServeArgs>();
  command.add_option("--listen", args->listen, "Address to listen on; port 0 picks a free port")
    ->default_str("127.0.0.1:8080")
    ->type_name("HOST:PORT");
  command.add_option("--threads", args->threads, "Worker threads")
    ->default_str("16")
    ->check(CLI::Range(std::size_t{1}, std::size_t{1024}))
    ->type_name("N");
  command.add_option("--tls-cert", args->tls_cert, "Serve HTTPS with this PEM certificate (chain)")
    ->check(CLI::ExistingFile)
    ->type_name("FILE");
  command.add_option("--tls-key", args->tls_key, "The PEM private key of --tls-cert")
    ->check(CLI::ExistingFile)
    ->type_name("FILE");
  return [args](const Config& config) { return run_serve(*args, config); };
}

} // namespace ashare::cli
