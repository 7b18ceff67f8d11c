#include "server/server.hpp"

#include "server/network_thread.hpp"
#include "server/session.hpp"
#include "server/tls.hpp"

#include <utility>
#include <algorithm>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/thread_pool.hpp>
#include <csignal>
#include <malloc.h>
#include <stdexcept>
#include <sys/resource.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace ashare::server {
namespace {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;
using error_code = boost::system::error_code;

// Descriptors the process needs besides its connections: stores (three files a SQLite
// connection), the log, the acceptor, epoll.
std::size_t reserved_descriptors(std::size_t threads) {
  return 64 + 8 * threads;
}

// Raise the open-file limit to fit `wanted` connections; return how many fit.
std::size_t fit_open_file_limit(std::size_t wanted, std::size_t reserved) {
  rlimit limit{};
  if (::getrlimit(RLIMIT_NOFILE, &limit) != 0) {
    return wanted;
  }
  const rlim_t needed = static_cast<rlim_t>(wanted + reserved);
  if (limit.rlim_cur < needed) {
    limit.rlim_cur = limit.rlim_max == RLIM_INFINITY ? needed : std::min(needed, limit.rlim_max);
    ::setrlimit(RLIMIT_NOFILE, &limit);
    ::getrlimit(RLIMIT_NOFILE, &limit);
  }
  if (limit.rlim_cur >= needed) {
    return wanted;
  }
  return limit.rlim_cur > reserved ? static_cast<std::size_t>(limit.rlim_cur) - reserved : 1;
}

// Keep freed memory instead of handing it back to the kernel after every response: with glibc's
// defaults (a 128 KiB trim threshold), freeing a 48 KB body trims the thread's heap and the next
// response page-faults its memory back in, which cost a third of the throughput (issue 9 bench).
// But a cached history's JSON (about 700 KB for 3,000 bars) gets pages of its own, returned to the
// kernel when it leaves the cache, so that RSS follows --cache-budget (issue 11, P5: 222 -> 153
// MB for a 128 MiB budget over 1,500 symbols). Fewer arenas (M_ARENA_MAX 2) cost P1 a fifth.
void keep_freed_memory() {
  mallopt(M_TRIM_THRESHOLD, 64 << 20);
  mallopt(M_MMAP_THRESHOLD, 256 << 10);
}

} // namespace

struct Server::State {
  State(api::Services& services_, ServerOptions options_)
    : services(services_), options(std::move(options_)), log(STDERR_FILENO),
      workers(std::max<std::size_t>(2, options.threads)), charges(services, workers, ChargeBatcher::max_wait_for(services)),
      context{services, options, log, workers, charges}, threads(make_threads(options.threads, context)) {
    keep_freed_memory();
    if (options.tls) {
      tls = std::make_unique<TlsContextHolder>(load_tls_context(*options.tls));
    }
    max_connections = fit_open_file_limit(options.max_connections,
                                          reserved_descriptors(options.threads));
    if (max_connections < options.max_connections) {
      notes.push_back("the open-file limit allows " + std::to_string(max_connections)
                      + " connections, not the " + std::to_string(options.max_connections)
                      + " of --max-connections (raise it with ulimit -n)");
    }
    // Errors of the API (D10: logged, never sent) go through the log too, never blocking.
    services.log_error = [this](std::string_view detail) {
      log.submit("ashare: error: " + std::string(detail) + "\n", 1);
    };
    signals.add(SIGUSR1); // report_loads()
  }

  static std::vector<std::unique_ptr<NetworkThread>> make_threads(std::size_t count,
                                                                 ServerContext& context) {
    std::vector<std::unique_ptr<NetworkThread>> threads;
    for (std::size_t i = 0; i < std::max<std::size_t>(count, 1); ++i) {
      threads.push_back(std::make_unique<NetworkThread>(context));
    }
    return threads;
  }

  NetworkThread& acceptor_thread() { return *threads.front(); }

  void accept();
  void on_signal(int signal);
  void begin_drain();
  void watch_drain();
  void stop_all();
  void reload_tls();
  void report_loads();

  api::Services& services;
  ServerOptions options;
  AccessLog log;
  asio::thread_pool workers;
  ChargeBatcher charges;
  ServerContext context;
  std::vector<std::unique_ptr<NetworkThread>> threads;
  std::unique_ptr<TlsContextHolder> tls;
  std::size_t max_connections = 0;
  std::vector<std::string> notes;

  tcp::acceptor acceptor{acceptor_thread().io};
  asio::steady_timer accept_pause{acceptor_thread().io};
  asio::steady_timer drain_timer{acceptor_thread().io};
  asio::signal_set signals{acceptor_thread().io, SIGINT, SIGTERM, SIGHUP}; // and SIGUSR1
  std::size_t next_thread = 0;
  Clock::time_point drain_deadline{};
};

void Server::State::accept() {
  NetworkThread& target = *threads[next_thread++ % threads.size()];
  acceptor.async_accept(target.io, [this, &target](const error_code& ec, tcp::socket socket) {
    if (ec == asio::error::operation_aborted) {
      return; // the acceptor closed: stopping
    }
    if (ec) {
      // Out of descriptors (or another transient failure): wait for connections to close
      // instead of spinning on the same error.
      accept_pause.expires_after(std::chrono::milliseconds(50));
      accept_pause.async_wait([this](const error_code& waited) {
        if (!waited) {
          accept();
        }
      });
      return;
    }
    // Beyond the cap a connection is closed at once (issue 9: answered or closed, never a crash).
    if (context.open_connections.load(std::memory_order_relaxed) >= max_connections) {
      error_code ignored;
      socket.close(ignored);
      accept();
      return;
    }
    context.open_connections.fetch_add(1, std::memory_order_relaxed);
    error_code ignored;
    socket.set_option(tcp::no_delay(true), ignored); // a 48 KB answer must not wait on Nagle
    auto context_for_tls = tls ? tls->current() : nullptr;
    asio::post(target.io, [&target, socket = std::move(socket),
                           context_for_tls = std::move(context_for_tls)]() mutable {
      start_session(target, std::move(socket), std::move(context_for_tls));
    });
    accept();
  });
}

void Server::State::on_signal(int signal) {
  if (signal == SIGHUP) {
    reload_tls();
  } else if (signal == SIGUSR1) {
    report_loads();
  } else if (services.draining.load()) {
    stop_all(); // a second SIGINT or SIGTERM: stop now
    return;
  } else {
    begin_drain();
  }
  signals.async_wait([this](const error_code& ec, int next) {
    if (!ec) {
      on_signal(next);
    }
  });
}

void Server::State::reload_tls() {
  if (!tls) {
    return;
  }
  // Reading the files may block: not on a network thread.
  asio::post(workers, [this] {
    try {
      tls->replace(load_tls_context(*options.tls));
      log.submit("ashare: reloaded the TLS certificate and key\n", 1);
    } catch (const std::exception& error) {
      log.submit("ashare: error: " + std::string(error.what()) + "; keeping the previous ones\n", 1);
    }
  });
}

// Say how many of the histories asked for are not loaded yet: 0 once memory holds what requests
// made worth keeping. Histories load off the requests' path (issue 35), so a client cannot tell
// when a warm-up it asked for is done; a test asks this instead of waiting (issue 43).
void Server::State::report_loads() {
  const auto pending = services.filler.pending();
  log.submit("ashare: histories not yet loaded: " + std::to_string(pending) + "\n", 1);
}

void Server::State::begin_drain() {
  drain_deadline = Clock::now() + options.timeouts.drain;
  services.draining.store(true);
  // Let go of idle connections now rather than at the next sweep.
  for (auto& thread : threads) {
    asio::post(thread->io, [&thread = *thread] { thread.sweep(); });
  }
  watch_drain();
}

void Server::State::watch_drain() {
  if (context.open_connections.load() == 0 || Clock::now() >= drain_deadline) {
    stop_all();
    return;
  }
  drain_timer.expires_after(std::chrono::milliseconds(20));
  drain_timer.async_wait([this](const error_code& ec) {
    if (!ec) {
      watch_drain();
    }
  });
}

void Server::State::stop_all() {
  error_code ignored;
  acceptor.close(ignored);
  signals.cancel(ignored);
  for (auto& thread : threads) {
    thread->io.stop();
  }
}

Server::Server(api::Services& services, ServerOptions options)
  : m_state(std::make_unique<State>(services, std::move(options))) {}

Server::~Server() = default;

const std::vector<std::string>& Server::notes() const {
  return m_state->notes;
}

unsigned short Server::listen() {
  auto& state = *m_state;
  error_code ec;
  auto address = asio::ip::make_address(state.options.host, ec);
  tcp::endpoint endpoint;
  if (!ec) {
    endpoint = tcp::endpoint(address, state.options.port);
  } else {
    tcp::resolver resolver(state.acceptor_thread().io);
    const auto results = resolver.resolve(state.options.host, std::to_string(state.options.port),
                                          ec);
    if (ec || results.empty()) {
      throw std::runtime_error("cannot resolve \"" + state.options.host + "\"");
    }
    endpoint = results.begin()->endpoint();
  }
  auto& acceptor = state.acceptor;
  acceptor.open(endpoint.protocol(), ec);
  if (!ec) {
    // SO_REUSEADDR only: a restart binds past TIME_WAIT, but a port in use stays an error.
    acceptor.set_option(tcp::acceptor::reuse_address(true), ec);
  }
  if (!ec) {
    acceptor.bind(endpoint, ec);
  }
  if (!ec) {
    acceptor.listen(asio::socket_base::max_listen_connections, ec);
  }
  if (ec) {
    throw std::runtime_error(ec.message());
  }
  return acceptor.local_endpoint().port();
}

void Server::run() {
  auto& state = *m_state;
  std::signal(SIGPIPE, SIG_IGN); // a peer gone mid-write is an error code, not a signal
  state.signals.async_wait([&state](const error_code& ec, int signal) {
    if (!ec) {
      state.on_signal(signal);
    }
  });
  state.accept();
  std::vector<std::thread> running;
  for (std::size_t i = 0; i < state.threads.size(); ++i) {
    auto& thread = *state.threads[i];
    thread.start_sweep();
    if (i > 0) {
      running.emplace_back([&thread] { thread.io.run(); });
    }
  }
  state.acceptor_thread().io.run();
  for (auto& thread : running) {
    thread.join();
  }
  // Requests deferred to the workers finish (their answers go nowhere now), then the last lines.
  state.workers.join();
  for (auto& thread : state.threads) {
    thread->flush_log();
  }
  state.log.stop(std::chrono::milliseconds(1000));
}

} // namespace ashare::server
