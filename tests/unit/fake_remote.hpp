// The remote of remote mode's unit tests (STYLE 7: a tiny fake behind http::Gateway): the core's
// own API (api::dispatch_trusted, which is what `ashare serve` answers) over a store of its own on
// a plan of choice, recording every target it is sent; a test may answer some targets itself.
#pragma once

#include "testutil.hpp"

#include "core/api/caller.hpp"
#include "core/api/dispatch.hpp"
#include "core/api/services.hpp"
#include "core/http/gateway.hpp"
#include "core/store/sqlite_bar_store.hpp"

#include <algorithm>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ashare::test {

class FakeRemote final : public http::Gateway {
public:
  // A remote holding the three bancob fixtures (600519.SH, 600036.SH, 002594.SZ: 2023-09-25 to
  // 2025-10-23, factors that step) and the canonical CSV `extra`, answering as a key of `plan`
  // would be answered.
  explicit FakeRemote(auth::Plan plan = auth::Plan::pro, std::string_view extra = "")
      : m_plan(plan) {
    {
      store::SqliteBarStore store(m_dir / "remote.db");
      for (const char* name :
           {"bancob_600519.SH.csv", "bancob_600036.SH.csv", "bancob_002594.SZ.csv"}) {
        import_fixture(store, name);
      }
      if (!extra.empty()) {
        import_text(store, extra, import_options(false, "fixture"));
      }
    }
    m_services = std::make_unique<api::Services>(m_dir / "remote.db", m_dir / "remote-keys.db");
  }

  // Answer a GET of `call.target`, recording it. A call with If-None-Match records its tag in
  // `conditions`, and the API answers 304 while it names the answer (D17); it is answered as a
  // plain GET when `ignores_etags`.
  http::Outcome send(const http::Call& call) override {
    const auto condition = std::find_if(call.headers.begin(), call.headers.end(),
                                        [](const http::Header& h) { return h.name == "If-None-Match"; });
    if (condition != call.headers.end()) {
      conditions.push_back(condition->value);
      if (!ignores_etags) {
        targets.push_back(call.target);
        return direct(call.target, condition->value);
      }
    }
    targets.push_back(call.target);
    if (answer) {
      if (auto reply = answer(call.target)) {
        return *reply;
      }
    }
    return direct(call.target);
  }

  // Import canonical CSV `text` into the remote's store (its generation moves).
  void import_more(std::string_view text) {
    store::SqliteBarStore store(m_dir / "remote.db");
    import_text(store, text, import_options(false, "fixture"));
  }

  // Return what the API itself answers to `target`, without recording it.
  http::Reply direct(const std::string& target, const std::string& if_none_match = "") {
    api::Request request;
    request.method = "GET";
    const auto question = target.find('?');
    request.path = target.substr(0, question);
    request.query = question == std::string::npos ? "" : target.substr(question + 1);
    if (!if_none_match.empty()) {
      request.if_none_match = if_none_match;
    }
    const auto response =
        api::dispatch_trusted(request, *m_services, api::Caller{0, m_plan, false});
    const auto* etag = response.find_header("ETag");
    return http::Reply{response.status, response.body.str(), etag != nullptr ? *etag : ""};
  }

  // Return how many targets sent since `mark` (an index into `targets`) start with `prefix`.
  std::size_t count_since(std::size_t mark, std::string_view prefix) const {
    std::size_t count = 0;
    for (std::size_t i = mark; i < targets.size(); ++i) {
      count += targets[i].starts_with(prefix) ? 1 : 0;
    }
    return count;
  }

  std::vector<std::string> targets;    // every target sent, in order
  std::vector<std::string> conditions; // the If-None-Match of every conditional request, in order
  bool ignores_etags = false;          // answer conditional requests as plain ones
  // Answers a target instead of the API when it returns a reply (a refusal, a failure).
  std::function<std::optional<http::Reply>(const std::string& target)> answer;

private:
  TempDir m_dir;
  auth::Plan m_plan;
  std::unique_ptr<api::Services> m_services;
};

// Return canonical CSV of 900001.SH with a bar on each of the 600 calendar days from 2024-01-01
// (to 2025-08-22): more than the Free plan's limit of 500 within its reach.
inline std::string daily_bars_csv() {
  std::string csv = "symbol,trade_date,open,high,low,close,volume,turnover,change_pct,factor\n";
  auto day = date("2024-01-01");
  for (int i = 0; i < 600; ++i, day = day.plus_days(1)) {
    csv += "900001.SH," + day.iso() + ",10,11,9,10,100,1000,0,1\n";
  }
  return csv;
}

// A time after the fixtures' last session close (2025-10-23, a Thursday): 2025-10-24 09:00 UTC+8.
inline constexpr std::int64_t k_fake_now_ms = 1761267600000;

} // namespace ashare::test
