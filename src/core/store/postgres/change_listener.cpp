#include "core/store/postgres/change_listener.hpp"

#include "core/store/postgres/connection.hpp"
#include "core/store/postgres/libpq.hpp"

#include <chrono>
#include <poll.h>

namespace ashare::store::postgres {

ChangeListener::ChangeListener(std::string uri, std::string channel, ChangeCounter& counter)
  : m_uri(std::move(uri)), m_channel(std::move(channel)), m_counter(counter),
    m_thread([this](std::stop_token stop) { run(stop); }) {}

ChangeListener::~ChangeListener() = default; // the jthread asks run() to stop and joins it

void ChangeListener::run(const std::stop_token& stop) {
  const auto& pq = libpq();
  while (!stop.stop_requested()) {
    try {
      Connection connection(m_uri);
      connection.exec("LISTEN " + m_channel);
      m_counter.bump();
      pollfd socket{pq.socket(connection.raw()), POLLIN, 0};
      while (!stop.stop_requested() && connection.healthy()) {
        ::poll(&socket, 1, k_poll_interval_ms);
        if (pq.consume_input(connection.raw()) == 0) {
          break; // the connection broke: connect again
        }
        bool heard = false;
        while (PGnotify* notice = pq.notifies(connection.raw())) {
          heard = true;
          pq.freemem(notice);
        }
        if (heard) {
          m_counter.bump();
        }
      }
    } catch (const std::exception&) {
      // The server is unreachable (D15): try again shortly; readers fall back on the generation
      // row, which fails for them too until it is back.
    }
    for (int waited = 0; waited < 3 && !stop.stop_requested(); ++waited) {
      std::this_thread::sleep_for(std::chrono::milliseconds(k_poll_interval_ms));
    }
  }
}

} // namespace ashare::store::postgres
