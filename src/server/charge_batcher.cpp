#include "server/charge_batcher.hpp"

#include "core/store/store_unavailable.hpp"

#include <boost/asio/post.hpp>

namespace ashare::server {

void ChargeBatcher::submit(store::ChargeRequest charge, Done done) {
  bool start = false;
  {
    std::lock_guard lock(m_mutex);
    m_charges.push_back(charge);
    m_done.push_back(std::move(done));
    start = !std::exchange(m_running, true);
  }
  if (start) {
    boost::asio::post(m_workers, [this] { run(); });
  }
}

void ChargeBatcher::run() {
  std::vector<store::ChargeRequest> charges;
  std::vector<Done> done;
  while (true) {
    {
      std::lock_guard lock(m_mutex);
      if (m_charges.empty()) {
        m_running = false;
        return;
      }
      charges.swap(m_charges);
      done.swap(m_done);
    }
    std::vector<store::ChargeResult> results;
    bool unreachable = false;
    try {
      results = api::apply_charges(m_services, charges);
    } catch (const store::StoreUnavailable& error) {
      unreachable = true;
      m_services.log_error(std::string("charging credits: ") + error.what());
    } catch (const std::exception& error) {
      m_services.log_error(std::string("charging credits: ") + error.what());
    }
    for (std::size_t i = 0; i < done.size(); ++i) {
      done[i](results.empty() ? std::nullopt : std::optional(results[i]), unreachable);
    }
    charges.clear();
    done.clear();
  }
}

} // namespace ashare::server
