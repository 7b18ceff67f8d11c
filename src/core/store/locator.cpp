#include "core/store/locator.hpp"

#include <algorithm>
#include <cctype>

namespace ashare::store {
namespace {

// Return whether `text` starts with `prefix` (lower case) in any case.
bool starts_with_ignoring_case(std::string_view text, std::string_view prefix) {
  return text.size() >= prefix.size()
         && std::equal(prefix.begin(), prefix.end(), text.begin(), [](char lower, char c) {
              return std::tolower(static_cast<unsigned char>(c)) == lower;
            });
}

} // namespace

bool is_postgres_locator(std::string_view locator) {
  // Case-sensitive, as libpq reads the scheme.
  return locator.starts_with("postgresql://") || locator.starts_with("postgres://");
}

std::string redacted_locator(std::string_view locator) {
  if (!is_postgres_locator(locator)) {
    return std::string(locator);
  }
  std::string out(locator);
  // user:password@ in the authority, which ends at the first '/', '?' or '#' after "://".
  const std::size_t authority = out.find("://") + 3;
  const std::size_t authority_end = std::min(out.find_first_of("/?#", authority), out.size());
  const std::size_t at = out.rfind('@', authority_end);
  if (at != std::string::npos && at >= authority) {
    const std::size_t colon = out.find(':', authority);
    if (colon < at) {
      out.replace(colon + 1, at - colon - 1, "***");
    }
  }
  // password=... among the parameters.
  const std::size_t query = out.find('?');
  for (std::size_t at_key = query; at_key != std::string::npos && at_key < out.size();) {
    const std::size_t key = at_key + 1;
    const std::size_t end = std::min(out.find('&', key), out.size());
    if (starts_with_ignoring_case(std::string_view(out).substr(key, end - key), "password=")) {
      out.replace(key + 9, end - key - 9, "***");
    }
    at_key = out.find('&', key);
  }
  return out;
}

} // namespace ashare::store
