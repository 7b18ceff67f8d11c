#include "burst.hpp"

#include "http.hpp"

#include <latch>
#include <nlohmann/json.hpp>
#include <thread>

namespace bb {

std::vector<Outcome> burst(const std::vector<int>& ports,
                           const std::string& target,
                           const std::string& key,
                           std::size_t count) {
  std::vector<Outcome> outcomes(count);
  std::latch start(static_cast<std::ptrdiff_t>(count));
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < count; ++i) {
    threads.emplace_back([&, i] {
      start.arrive_and_wait();
      const auto reply = request(ports[i % ports.size()], target, key);
      auto& out = outcomes[i];
      out.status = reply.status;
      out.remaining = reply.header("X-Credits-Remaining");
      out.error = reply.transport_error;
      if (reply.status == 200) {
        const auto body = nlohmann::json::parse(reply.body, nullptr, false);
        if (body.is_object() && body["meta"].contains("credits_charged")) {
          out.charged = body["meta"]["credits_charged"].get<std::int64_t>();
        }
      }
    });
  }
  for (auto& thread : threads) {
    thread.join();
  }
  return outcomes;
}

} // namespace bb
