#include "core/auth/rate_limiter.hpp"

#include <charconv>
#include <cmath>
#include <string>

namespace ashare::auth {

Result<PlanRates> parse_plan_rates(std::string_view text) {
  PlanRates rates = k_default_plan_rates;
  if (text == "on") {
    return rates;
  }
  const auto invalid = [&] {
    return make_error(ErrorCode::invalid_input,
                      "invalid --rate-limit \"" + std::string(text)
                        + "\": expected PLAN=N[,PLAN=N], e.g. free=10,pro=0 (N requests a second, "
                          "0 for no limit)");
  };
  std::size_t start = 0;
  while (start < text.size()) {
    const auto end = std::min(text.find(',', start), text.size());
    const auto item = text.substr(start, end - start);
    const auto equals = item.find('=');
    if (equals == std::string_view::npos) {
      return invalid();
    }
    const auto plan = parse_plan(item.substr(0, equals));
    const auto number = item.substr(equals + 1);
    std::int64_t rate = 0;
    const auto [stop, error] = std::from_chars(number.data(), number.data() + number.size(), rate);
    if (!plan || number.empty() || error != std::errc() || stop != number.data() + number.size()
        || rate < 0 || rate > 1'000'000) {
      return invalid();
    }
    rates[static_cast<std::size_t>(*plan)] = rate;
    start = end + 1;
    if (end + 1 == text.size()) {
      return invalid(); // a trailing comma
    }
  }
  return rates;
}

void RateLimiter::enable(const PlanRates& rates) {
  std::lock_guard lock(m_mutex);
  m_rates = rates;
  m_enabled = true;
}

std::optional<std::int64_t>
RateLimiter::take(std::int64_t key_id, Plan plan, Clock::time_point now) {
  if (!m_enabled) {
    return std::nullopt;
  }
  const auto rate = static_cast<double>(m_rates[static_cast<std::size_t>(plan)]);
  if (rate <= 0) {
    return std::nullopt;
  }
  const double capacity = 2 * rate; // D14: bursts of up to twice the rate
  std::lock_guard lock(m_mutex);
  auto [it, added] = m_buckets.try_emplace(key_id, Bucket{capacity, now});
  Bucket& bucket = it->second;
  if (!added && now > bucket.updated) {
    const std::chrono::duration<double> elapsed = now - bucket.updated;
    bucket.tokens = std::min(capacity, bucket.tokens + elapsed.count() * rate);
    bucket.updated = now;
  }
  if (bucket.tokens >= 1) {
    bucket.tokens -= 1;
    return std::nullopt;
  }
  // The whole seconds until one token has come back, at least one (RFC 9110 Retry-After).
  const double wait = (1 - bucket.tokens) / rate;
  return std::max<std::int64_t>(1, static_cast<std::int64_t>(std::ceil(wait)));
}

} // namespace ashare::auth
