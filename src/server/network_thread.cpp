#include "server/network_thread.hpp"

#include "server/response_head.hpp"

namespace ashare::server {
namespace {

constexpr auto k_sweep_interval = std::chrono::milliseconds(100);
constexpr std::size_t k_log_flush_bytes = 64 * 1024;

} // namespace

Connection::Connection(NetworkThread& thread) : m_thread(thread) {
  m_position = m_thread.connections.insert(m_thread.connections.end(), this);
}

Connection::~Connection() {
  m_thread.connections.erase(m_position);
  m_thread.server.open_connections.fetch_sub(1, std::memory_order_relaxed);
}

NetworkThread::NetworkThread(ServerContext& server_context)
  : server(server_context), date(http_date(std::chrono::system_clock::now())) {}

void NetworkThread::start_sweep() {
  m_sweep_timer.expires_after(k_sweep_interval);
  m_sweep_timer.async_wait([this](const boost::system::error_code& ec) {
    if (!ec) {
      sweep();
      start_sweep();
    }
  });
}

void NetworkThread::sweep() {
  now = Clock::now();
  date = http_date(std::chrono::system_clock::now());
  flush_log();
  const bool draining = server.services.draining.load(std::memory_order_relaxed);
  // A connection may leave the list while visited (never synchronously, but be safe).
  for (auto it = connections.begin(); it != connections.end();) {
    Connection* connection = *it++;
    connection->sweep(now, draining);
  }
}

void NetworkThread::log_request(std::string_view method,
                                std::string_view path,
                                int status,
                                std::chrono::microseconds took,
                                std::string_view request_id) {
  append_access_line(m_log, method, path, status, took, request_id);
  ++m_log_lines;
  if (m_log.size() >= k_log_flush_bytes) {
    flush_log();
  }
}

void NetworkThread::flush_log() {
  if (m_log_lines > 0) {
    server.log.submit(std::move(m_log), m_log_lines);
    m_log.clear();
    m_log_lines = 0;
  }
}

} // namespace ashare::server
