// One network thread of the server: its io_context, the connections it serves, and what those
// share without locks (a coarse clock, the Date header, the access-log buffer). A sweep every
// 100 ms refreshes the clock and the date, hands the log buffer over and closes the connections
// whose deadline has passed: deadlines are checked here, never by a timer per read (issue 9).
#pragma once

#include "core/api/services.hpp"
#include "server/access_log.hpp"
#include "server/charge_batcher.hpp"
#include "server/gzip_cache.hpp"
#include "server/options.hpp"

#include <utility>
#include <atomic>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/thread_pool.hpp>
#include <chrono>
#include <list>
#include <string>

namespace ashare::server {

using Clock = std::chrono::steady_clock;

// What each network thread may hold of compressed answers (GzipCache): about 700 one-year bars
// answers at 11.5 KB each.
inline constexpr std::size_t k_gzip_cache_bytes = std::size_t{8} << 20;

// What every connection of the server shares.
struct ServerContext {
  api::Services& services;
  const ServerOptions& options;
  AccessLog& log;
  boost::asio::thread_pool& workers; // where deferred requests are finished (api/dispatch.hpp)
  ChargeBatcher& charges;            // where metered requests are charged
  std::atomic<std::size_t> open_connections{0};
};

struct NetworkThread;

// A connection as the sweep sees it. It registers with its thread when made and leaves when
// destroyed, both on that thread.
class Connection {
public:
  explicit Connection(NetworkThread& thread);
  virtual ~Connection();
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  // Act on the sweep at `now`: close when the deadline has passed, or when `draining` and no
  // request is in flight.
  virtual void sweep(Clock::time_point now, bool draining) = 0;

protected:
  NetworkThread& m_thread;

private:
  std::list<Connection*>::iterator m_position;
};

struct NetworkThread {
  explicit NetworkThread(ServerContext& server);

  // Start the sweep; the io_context runs until stopped.
  void start_sweep();

  // Sweep now: refresh the clock and the date, hand the log over, visit every connection.
  void sweep();

  // Append the access-log line of a request; hands the buffer over when it grows large.
  void log_request(std::string_view method,
                   std::string_view path,
                   int status,
                   std::chrono::microseconds took,
                   std::string_view request_id);

  // Hand the access-log buffer to the log's writer.
  void flush_log();

  ServerContext& server;
  std::list<Connection*> connections;
  Clock::time_point now = Clock::now(); // coarse: refreshed by the sweep
  std::string date;                     // the Date header's value, refreshed by the sweep
  GzipCache gzip_cache{k_gzip_cache_bytes}; // D17: compressed answers of this thread, by ETag
  // Declared after `connections`: destroying it destroys the connections its handlers still own,
  // which leave that list.
  boost::asio::io_context io{1}; // run by this thread only

private:
  boost::asio::steady_timer m_sweep_timer{io};
  std::string m_log;
  std::size_t m_log_lines = 0;
};

} // namespace ashare::server
