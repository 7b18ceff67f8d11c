#include "server/charge_batcher.hpp"

#include <boost/asio/post.hpp>

namespace ashare::server {
namespace {

// Charges in one transaction at most: a larger queue is taken in several.
constexpr std::size_t k_max_batch = 512;

} // namespace

void ChargeBatcher::submit(api::ChargeNeeded charge, Resume resume) {
  bool start = false;
  {
    std::lock_guard lock(m_mutex);
    m_queue.push_back(Pending{std::move(charge), std::move(resume)});
    start = !std::exchange(m_running, true);
  }
  if (start) {
    boost::asio::post(m_workers, [this] { run(); });
  }
}

void ChargeBatcher::run() {
  std::vector<Pending> batch;
  while (true) {
    {
      std::lock_guard lock(m_mutex);
      if (m_queue.empty()) {
        m_running = false;
        return;
      }
      if (m_queue.size() <= k_max_batch) {
        batch.swap(m_queue);
      } else {
        batch.assign(std::make_move_iterator(m_queue.begin()),
                     std::make_move_iterator(m_queue.begin() + k_max_batch));
        m_queue.erase(m_queue.begin(), m_queue.begin() + k_max_batch);
      }
    }
    std::vector<const api::ChargeNeeded*> charges;
    charges.reserve(batch.size());
    for (const auto& pending : batch) {
      charges.push_back(&pending.charge);
    }
    std::vector<store::ChargeResult> results;
    std::string failure;
    try {
      results = api::apply_charges(m_services, charges);
    } catch (const std::exception& error) {
      failure = error.what(); // nothing was charged: every request of the batch gets a 500
    }
    for (std::size_t i = 0; i < batch.size(); ++i) {
      api::Response response;
      try {
        if (!failure.empty()) {
          throw std::runtime_error(failure);
        }
        response = batch[i].charge.finish(results[i]);
      } catch (const std::exception& error) {
        m_services.log_error(std::string("charging credits: ") + error.what());
        response = api::error_response(ErrorCode::internal,
                                       "internal error; the server logged the details", m_services);
      }
      batch[i].resume(std::move(response));
    }
    batch.clear();
  }
}

} // namespace ashare::server
