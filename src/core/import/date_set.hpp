// A set of dates kept as one bit per calendar day over the span it has seen: how an import
// remembers which dates of a symbol a file held (a duplicate row is an error), in about 46 bytes
// per symbol and year whatever the number of rows.
#pragma once

#include "core/domain/date.hpp"

#include <cstdint>
#include <vector>

namespace ashare::import {

class DateSet {
public:
  // Add `date`; return false when it was already in the set.
  bool insert(domain::Date date) {
    const std::int64_t day = day_number(date);
    if (m_words.empty()) {
      m_first_day = day - (day % 64 + 64) % 64;
    }
    if (day < m_first_day) {
      const std::int64_t words = (m_first_day - day + 63) / 64;
      m_words.insert(m_words.begin(), static_cast<std::size_t>(words), 0);
      m_first_day -= words * 64;
    }
    const auto offset = static_cast<std::size_t>(day - m_first_day);
    if (offset / 64 >= m_words.size()) {
      m_words.resize(offset / 64 + 1, 0);
    }
    const std::uint64_t bit = std::uint64_t{1} << (offset % 64);
    const bool is_new = (m_words[offset / 64] & bit) == 0;
    m_words[offset / 64] |= bit;
    return is_new;
  }

  // Return whether `date` is in the set.
  bool contains(domain::Date date) const {
    const std::int64_t day = day_number(date);
    if (m_words.empty() || day < m_first_day) {
      return false;
    }
    const auto offset = static_cast<std::size_t>(day - m_first_day);
    return offset / 64 < m_words.size() && (m_words[offset / 64] >> (offset % 64) & 1) != 0;
  }

private:
  static std::int64_t day_number(domain::Date date) {
    return date.days().time_since_epoch().count();
  }

  std::int64_t m_first_day = 0; // the day of bit 0 of m_words[0], a multiple of 64
  std::vector<std::uint64_t> m_words;
};

} // namespace ashare::import
