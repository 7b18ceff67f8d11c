// tushare_standin: a stand-in for api.tushare.pro on 127.0.0.1, for ashare's black-box tests and
// benchmarks of `ashare fetch tushare` (issue 32; D18). It answers daily, adj_factor, trade_cal,
// stock_basic and suspend_d from the real CSV rows in tests/data/tushare_standin (or a generated
// market), misbehaves on request (POST /_control) and logs every call (GET /_log).
// Usage and control keys: tests/standin/README.md.
#include "market.hpp"
#include "tushare_api.hpp"
#include "support/build_paths.hpp"

#include <arpa/inet.h>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <netinet/in.h>
#include <optional>
#include <pthread.h>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

#include <httplib.h>

namespace {

const char* const k_usage =
    "usage: tushare_standin [--port N] [--data DIR] [--token TOKEN] [--daily-cap N]\n"
    "                       [--generate N [--generate-from YYYYMMDD] [--generate-to YYYYMMDD]\n"
    "                        [--generate-funds N] [--generate-indices 0|1] [--seed N]]\n"
    "                       [--control JSON]...\n";

struct Options {
  int port = 0;
  std::string data_dir =
      (std::filesystem::path(ashare::test::source_dir()) / "tests/data/tushare_standin").string();
  standin::ApiOptions api;
  standin::GenerateSpec generate;
  std::vector<std::string> controls;
};

std::string date_arg(std::string text) {
  std::erase(text, '-');
  return text;
}

std::optional<Options> parse_options(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (flag == "--help" || i + 1 >= argc) {
      return std::nullopt;
    }
    const std::string value = argv[++i];
    if (flag == "--port") {
      options.port = std::stoi(value);
    } else if (flag == "--data") {
      options.data_dir = value;
    } else if (flag == "--token") {
      options.api.token = value;
    } else if (flag == "--daily-cap") {
      options.api.daily_cap = std::stoi(value);
    } else if (flag == "--generate") {
      options.generate.symbols = std::stoi(value);
    } else if (flag == "--generate-from") {
      options.generate.from = date_arg(value);
    } else if (flag == "--generate-to") {
      options.generate.to = date_arg(value);
    } else if (flag == "--generate-funds") {
      options.generate.funds = std::stoi(value);
    } else if (flag == "--generate-indices") {
      options.generate.indices = value == "1";
    } else if (flag == "--seed") {
      options.generate.seed = std::stoull(value);
    } else if (flag == "--control") {
      options.controls.push_back(value);
    } else {
      return std::nullopt;
    }
  }
  return options;
}

// Close the connection a request came on, without a reply (the `drop` fault): cpp-httplib gives
// handlers no socket, so find it by its two ports.
void drop_connection(const httplib::Request& request) {
  for (int fd = 3; fd < 65536; ++fd) {
    sockaddr_in local{};
    sockaddr_in peer{};
    socklen_t local_size = sizeof local;
    socklen_t peer_size = sizeof peer;
    if (getsockname(fd, reinterpret_cast<sockaddr*>(&local), &local_size) == 0
        && getpeername(fd, reinterpret_cast<sockaddr*>(&peer), &peer_size) == 0
        && local.sin_family == AF_INET && ntohs(local.sin_port) == request.local_port
        && ntohs(peer.sin_port) == request.remote_port) {
      shutdown(fd, SHUT_RDWR);
      return;
    }
  }
}

std::int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

void add_routes(httplib::Server& server, standin::TushareApi& api) {
  server.Post("/_control", [&api](const httplib::Request& request, httplib::Response& response) {
    const auto settings = nlohmann::json::parse(request.body, nullptr, false);
    if (const auto error = api.control(settings)) {
      response.status = 400;
      response.set_content(nlohmann::json{{"error", *error}}.dump(), "application/json");
      return;
    }
    response.set_content(R"({"ok":true})", "application/json");
  });
  server.Get("/_log", [&api](const httplib::Request&, httplib::Response& response) {
    response.set_content(api.log().dump(), "application/json");
  });
  // Tushare's clients post to the base URL itself; any path is answered the same.
  server.Post(".*", [&api](const httplib::Request& request, httplib::Response& response) {
    const auto outcome = api.call(request.body, now_ms());
    if (!outcome.held.empty()) {
      // The line a test waits on: the client is known to be inside this call until it releases.
      std::cout << "holding " << outcome.held << std::endl;
      api.wait_for_release();
    }
    if (outcome.delay_ms > 0) {
      std::this_thread::sleep_for(std::chrono::milliseconds(outcome.delay_ms));
    }
    if (outcome.action == standin::Outcome::Action::drop) {
      drop_connection(request);
      return;
    }
    response.set_content(outcome.body, "application/json");
  });
}

} // namespace

int main(int argc, char** argv) try {
  const auto options = parse_options(argc, argv);
  if (!options) {
    std::cerr << k_usage;
    return 2;
  }
  auto market = standin::load_market(options->data_dir);
  if (options->generate.symbols > 0) {
    standin::generate_market(market, options->generate);
  }
  standin::TushareApi api(std::move(market), options->api);
  for (const auto& control : options->controls) {
    if (const auto error = api.control(nlohmann::json::parse(control, nullptr, false))) {
      std::cerr << "tushare_standin: --control: " << *error << "\n";
      return 2;
    }
  }

  // SIGTERM and SIGINT are taken by one thread (sigwait), which stops the server; the server's
  // threads inherit the blocked mask. SIGPIPE is ignored: a dropped connection must not kill us.
  std::signal(SIGPIPE, SIG_IGN);
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGTERM);
  sigaddset(&stop_signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

  httplib::Server server;
  // As the servers in front of the real API do (nginx's tcp_nodelay is on by default): without it
  // a reply written in two pieces waits on Nagle and the client's delayed ACK, 40 ms a call.
  server.set_tcp_nodelay(true);
  add_routes(server, api);
  const int port = options->port == 0 ? server.bind_to_any_port("127.0.0.1")
                                      : (server.bind_to_port("127.0.0.1", options->port)
                                             ? options->port
                                             : -1);
  if (port <= 0) {
    std::cerr << "tushare_standin: cannot listen on 127.0.0.1:" << options->port << "\n";
    return 1;
  }
  std::cout << "listening on 127.0.0.1:" << port << std::endl;
  std::thread stopper([&server, &stop_signals] {
    int signal = 0;
    sigwait(&stop_signals, &signal);
    server.stop();
  });
  const bool ok = server.listen_after_bind();
  if (stopper.joinable()) {
    if (!ok) {
      pthread_kill(stopper.native_handle(), SIGTERM);
    }
    stopper.join();
  }
  return ok ? 0 : 1;
} catch (const std::exception& e) {
  std::cerr << "tushare_standin: " << e.what() << "\n";
  return 1;
}
