// The stand-in's fault switches (issue 32): what `POST /_control` and `--control` set, so one
// server can misbehave in a chosen way between two fetch runs. Thread-safe.
#pragma once

#include <condition_variable>
#include <map>
#include <cstdint>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace standin {

// What a counted fault does to the call it takes.
enum class FaultKind { error_reply, malformed, drop };

// A fault taken by one call: an error reply (`code`, `msg`), a truncated body or a dropped
// connection.
struct CallFault {
  FaultKind kind = FaultKind::error_reply;
  int code = 0;
  std::string msg;
};

// A row made invalid on one day (D16 bounds): `kind` is "negative_close" or "high_below_low".
struct BadRow {
  std::string ts_code; // "" = the day's first row
  std::string kind;
};

// The day-level faults of `daily`, by trade_date (YYYYMMDD).
struct DayFaults {
  bool empty = false;
  bool partial = false;         // only the first half of the day's rows
  bool split = false;           // the day paged in two, whatever the cap
  bool closed_day_bar = false;  // a bar although the calendar says closed
  std::optional<BadRow> bad_row;
};

class Faults {
public:
  // Apply the control object `settings` (keys in tests/standin/README.md); return an error
  // message naming the bad key or value, or nullopt. `reset` applies first; on an error, keys before the bad one may have applied.
  std::optional<std::string> apply(const nlohmann::json& settings);

  // Take the first counted fault that matches `api_name` (or "*"), counting it down.
  std::optional<CallFault> take(const std::string& api_name);

  // Return whether the token may not call `api_name` (code -2002).
  bool is_forbidden(const std::string& api_name) const;

  // Return whether `api_name` is answered as an API the service does not know (code 40101).
  bool is_unknown(const std::string& api_name) const;

  // Return the delay before answering `api_name`, in ms (0 when none).
  int slow_ms(const std::string& api_name) const;

  // Return the faults of `trade_date`, and every day that has closed_day_bar set.
  DayFaults day(const std::string& trade_date) const;
  std::vector<std::string> closed_day_bars() const;

  // Return the daily cap a `daily_cap` control set, if any.
  std::optional<int> daily_cap() const;

  // Return whether a call of `api_name` is to be held before its reply (the `hold` switch), and
  // take the switch: one call is held per `hold`.
  bool take_hold(const std::string& api_name);

  // Wait until a `release` (or a `reset`) lets the held calls reply.
  void wait_for_release();

private:
  struct Counted {
    std::string api;
    int remaining = 1;
    CallFault fault;
  };

  std::optional<std::string> apply_key(const std::string& key, const nlohmann::json& value);
  std::optional<std::string> add_counted(const std::string& key, const nlohmann::json& value);
  std::optional<std::string> add_days(const std::string& key, const nlohmann::json& value);

  mutable std::mutex m_mutex;
  std::vector<Counted> m_counted;
  std::set<std::string> m_forbidden;
  std::set<std::string> m_unknown;
  std::map<std::string, int> m_slow_ms; // by api_name or "*"
  std::map<std::string, DayFaults> m_days;
  std::optional<int> m_daily_cap;
  std::optional<std::string> m_hold; // the API whose next call is held, or "*"
  std::uint64_t m_releases = 0;      // release and reset controls so far
  std::condition_variable m_released;
};

} // namespace standin
