#include "core/remote/sync.hpp"

#include "core/api/json.hpp"

#include <algorithm>

namespace ashare::remote {
namespace {

bool has_code(const http::Reply& reply, ErrorCode code) {
  const auto error = api::error_from_json(reply.body);
  return error && error->code == code;
}

} // namespace

DateRange sync_window(auth::Plan plan,
                      domain::Date as_of,
                      std::optional<domain::Date> from,
                      std::optional<domain::Date> to) {
  DateRange window{auth::earliest_reachable(plan, as_of).value_or(domain::k_first_session), as_of};
  if (from) {
    window.first = *from;
  }
  if (to) {
    window.last = std::min(*to, as_of);
  }
  return window;
}

std::vector<SyncGroup> missing_work(CacheFiller& filler,
                                    const std::vector<std::string>& symbols,
                                    DateRange window,
                                    std::size_t& cached) {
  std::vector<SyncGroup> groups;
  for (const auto& symbol : symbols) {
    const auto missing = missing_ranges(filler.coverage(symbol), window.first, window.last);
    cached += missing.empty() ? 1 : 0;
    for (const auto& range : missing) {
      auto group = std::find_if(groups.begin(), groups.end(),
                                [&](const SyncGroup& g) { return g.range == range; });
      if (group == groups.end()) {
        groups.push_back(SyncGroup{range, {}});
        group = std::prev(groups.end());
      }
      group->symbols.push_back(symbol);
    }
  }
  return groups;
}

Refusal fetch_groups(CacheFiller& filler,
                     const std::vector<SyncGroup>& groups,
                     auth::Plan plan,
                     FetchStats& stats,
                     const SyncProgress& progress) {
  auto batch = static_cast<std::size_t>(auth::plan_limits(plan).max_symbols);
  for (const auto& group : groups) {
    std::size_t next = 0;
    while (next < group.symbols.size()) {
      const std::size_t take = std::min(batch, group.symbols.size() - next);
      const std::vector<std::string> chunk(
          group.symbols.begin() + static_cast<std::ptrdiff_t>(next),
          group.symbols.begin() + static_cast<std::ptrdiff_t>(next + take));
      auto refusal = filler.fetch(chunk, group.range, stats);
      if (refusal && take > 1 && has_code(*refusal, ErrorCode::plan_limit)) {
        batch = take / 2; // the remote's plan takes fewer symbols than we thought
        continue;
      }
      if (refusal && take == 1 && has_code(*refusal, ErrorCode::invalid_symbol)) {
        stats.unknown.push_back(chunk.front());
      } else if (refusal) {
        return refusal;
      }
      next += take;
      progress(take, stats);
    }
  }
  return std::nullopt;
}

} // namespace ashare::remote
