// How both store files keep dates: YYYYMMDD integers (readable in the sqlite3 shell, ordered).
#pragma once

#include "core/domain/date.hpp"

#include <cassert>
#include <cstdint>

namespace ashare::store {

// Return the date of stored integer `yyyymmdd`; the stores only ever hold real dates.
inline domain::Date stored_date(std::int64_t yyyymmdd) {
  const auto date = domain::Date::from_yyyymmdd(yyyymmdd);
  assert(date);
  return date.value_or(domain::Date{});
}

} // namespace ashare::store
