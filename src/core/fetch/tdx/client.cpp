#include "core/fetch/tdx/client.hpp"

#include <algorithm>
#include <utility>

namespace ashare::fetch::tdx {
namespace {

// A list page holds at most this many codes (pytdx asks for them 1,000 at a time).
constexpr std::uint16_t k_codes_per_page = 1000;

} // namespace

Client::Client(Connector& connector, ClientSettings settings)
    : m_connector(connector), m_settings(std::move(settings)) {}

void Client::fail_over(std::vector<std::string>& failures, const std::string& why) {
  failures.push_back(m_settings.hosts[m_host] + ": " + why);
  m_channel.reset();
  m_host = (m_host + 1) % m_settings.hosts.size();
}

Error Client::all_failed(const std::vector<std::string>& failures) const {
  // Each host that can never answer once, then the last three failures of the others.
  std::string said;
  for (const auto& [host, why] : m_unusable) {
    said += "; " + why;
  }
  const auto attempts = failures.size() + m_unusable.size();
  const auto first = failures.size() > 3 ? failures.size() - 3 : 0;
  for (std::size_t i = first; i < failures.size(); ++i) {
    said += (i == first ? "; the last: " : "; ") + failures[i];
  }
  return make_error(ErrorCode::service_unavailable,
                    "every TDX host failed (" + std::to_string(attempts)
                        + (attempts == 1 ? " attempt" : " attempts") + said + ")");
}

Result<Channel*> Client::channel(std::vector<std::string>& failures) {
  const auto& hosts = m_settings.hosts;
  const auto rounds = static_cast<std::size_t>(std::max(1, m_settings.rounds));
  while (!m_channel) {
    if (hosts.empty()) {
      return make_error(ErrorCode::invalid_input, "no TDX host to ask (tdx_hosts is empty)");
    }
    if (m_unusable.size() == hosts.size() || failures.size() >= (hosts.size() - m_unusable.size()) * rounds) {
      return all_failed(failures);
    }
    if (m_unusable.count(m_host) != 0) {
      m_host = (m_host + 1) % hosts.size();
      continue;
    }
    auto opened = m_connector.connect(hosts[m_host]);
    if (!opened && opened.error().code == ErrorCode::invalid_input) {
      // Asking it again cannot help: no TDX server there, or no address at all.
      m_unusable.emplace(m_host, opened.error().message);
      m_host = (m_host + 1) % hosts.size();
      continue;
    }
    if (!opened) {
      fail_over(failures, "cannot connect: " + opened.error().message);
      continue;
    }
    m_channel = std::move(*opened);
  }
  return m_channel.get();
}

template <class T>
Result<T> Client::call(Method method,
                       const std::function<std::vector<std::uint8_t>(std::uint32_t)>& make,
                       const std::function<Result<T>(std::span<const std::uint8_t>)>& read) {
  std::vector<std::string> failures;
  for (;;) {
    auto open = channel(failures);
    if (!open) {
      return open.error();
    }
    if (m_settings.pacer != nullptr) {
      m_settings.pacer->before_call();
    }
    ++m_sequence;
    ++m_requests;
    auto reply = (*open)->exchange(make(m_sequence));
    if (!reply) {
      fail_over(failures, reply.error().message);
      continue;
    }
    if (reply->head.sequence != m_sequence || reply->head.method != static_cast<std::uint16_t>(method)) {
      fail_over(failures, "a reply to another request (sequence " + std::to_string(reply->head.sequence)
                              + ", method " + std::to_string(reply->head.method) + ")");
      continue;
    }
    auto value = read(reply->body);
    if (!value) {
      fail_over(failures, value.error().message);
      continue;
    }
    m_answered_by = m_settings.hosts[m_host];
    return value;
  }
}

Result<std::vector<RawBar>> Client::daily_bars(Market market, const std::string& code,
                                               std::optional<domain::Date> from, BarLayout layout) {
  std::vector<RawBar> bars; // oldest first
  for (std::uint16_t start = 0;; start = static_cast<std::uint16_t>(start + k_max_bars_per_call)) {
    auto page = call<std::vector<RawBar>>(
        Method::security_bars,
        [&](std::uint32_t sequence) {
          return security_bars_request(sequence, market, code, k_daily_in_shares, start,
                                       k_max_bars_per_call);
        },
        [layout](std::span<const std::uint8_t> body) { return parse_security_bars(body, layout); });
    if (!page) {
      return page.error();
    }
    const bool short_page = page->size() < k_max_bars_per_call;
    const bool reached = from && !page->empty() && !(*from < page->front().day);
    page->insert(page->end(), bars.begin(), bars.end());
    bars = std::move(*page);
    if (short_page || reached || start > 0xffff - 2 * k_max_bars_per_call) {
      break;
    }
  }
  if (from) {
    std::erase_if(bars, [&](const RawBar& bar) { return bar.day < *from; });
  }
  return bars;
}

Result<std::vector<XdxrEvent>> Client::ex_rights(Market market, const std::string& code) {
  return call<std::vector<XdxrEvent>>(
      Method::xdxr_info, [&](std::uint32_t sequence) { return xdxr_request(sequence, market, code); },
      [](std::span<const std::uint8_t> body) { return parse_xdxr_info(body); });
}

Result<std::vector<ListedCode>> Client::listed_codes(Market market) {
  std::vector<ListedCode> codes;
  for (std::uint32_t start = 0; start <= 0xffff; start += k_codes_per_page) {
    auto page = call<std::vector<ListedCode>>(
        Method::security_list,
        [&](std::uint32_t sequence) {
          return security_list_request(sequence, market, static_cast<std::uint16_t>(start));
        },
        [](std::span<const std::uint8_t> body) { return parse_security_list(body); });
    if (!page) {
      return page.error();
    }
    codes.insert(codes.end(), page->begin(), page->end());
    if (page->size() < k_codes_per_page) {
      break;
    }
  }
  return codes;
}

} // namespace ashare::fetch::tdx
