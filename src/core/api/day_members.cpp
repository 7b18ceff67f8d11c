#include "core/api/day_members.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <string_view>

namespace ashare::api {
namespace {

// Days are kept in chunks of 512 from 1990-01-01 (before the exchanges opened) for 112 years,
// each chunk written when a day of it is first asked: a process asks a few (24 KB each).
constexpr int k_chunk_days = 512;
constexpr int k_chunks = 80;
constexpr std::int32_t k_first_day = 7305; // 1990-01-01, in days since 1970-01-01

// A day's members, and in the last byte their length.
using DayText = std::array<char, k_day_members_room>;
using Chunk = std::array<DayText, k_chunk_days>;

char* write_members(char* out, domain::Date date) {
  constexpr std::string_view k_date = "\"trade_date\":\"";
  constexpr std::string_view k_t = "\",\"t\":";
  out = std::copy(k_date.begin(), k_date.end(), out);
  date.write_iso(out);
  out = std::copy(k_t.begin(), k_t.end(), out + 10);
  return date.write_t_ms(out);
}

std::unique_ptr<const Chunk> make_chunk(int chunk) {
  auto out = std::make_unique<Chunk>();
  for (int i = 0; i < k_chunk_days; ++i) {
    auto& text = (*out)[static_cast<std::size_t>(i)];
    const domain::Date date(std::chrono::sys_days(std::chrono::days(k_first_day + chunk * k_chunk_days + i)));
    char* const end = write_members(text.data(), date);
    text.back() = static_cast<char>(end - text.data());
  }
  return out;
}

const Chunk& chunk_of(int chunk) {
  static std::array<std::once_flag, k_chunks> written;
  static std::array<std::unique_ptr<const Chunk>, k_chunks> chunks;
  const auto index = static_cast<std::size_t>(chunk);
  std::call_once(written[index], [&] { chunks[index] = make_chunk(chunk); });
  return *chunks[index];
}

} // namespace

char* write_day_members(char* out, domain::Date date) {
  const auto day = static_cast<std::int32_t>(date.days().time_since_epoch().count()) - k_first_day;
  if (day < 0 || day >= k_chunks * k_chunk_days) {
    return write_members(out, date);
  }
  const auto& text = chunk_of(day / k_chunk_days)[static_cast<std::size_t>(day % k_chunk_days)];
  std::memcpy(out, text.data(), text.size());
  return out + static_cast<unsigned char>(text.back());
}

} // namespace ashare::api
