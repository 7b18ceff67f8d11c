// The query string of a request: decoded name/value pairs in request order, looked up by name,
// and re-encoded for `next_url` (D8).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ashare::api {

struct QueryParam {
  std::string name;
  std::string value;
};

class QueryParams {
public:
  QueryParams() = default;

  // Parse a raw query string (without '?'): '&'-separated, '+' and %XX decoded.
  static QueryParams parse(std::string_view raw);

  // Return the value of the first parameter called `name`, or nullopt.
  std::optional<std::string_view> find(std::string_view name) const;

  // Set parameter `name` to `value` (replacing every occurrence, or appending).
  void set(std::string_view name, std::string_view value);

  // Return the parameters encoded as a query string (without '?').
  std::string encode() const;

  const std::vector<QueryParam>& items() const { return m_items; }

private:
  std::vector<QueryParam> m_items;
};

// Return `text` with every byte outside the RFC 3986 unreserved set percent-encoded.
std::string percent_encode(std::string_view text);

// Return `text` with '+' as space and %XX decoded; malformed escapes are kept as written.
std::string percent_decode(std::string_view text);

// Return path segment `segment` with %XX decoded ('+' stays '+'); malformed escapes are kept.
std::string percent_decode_path(std::string_view segment);

} // namespace ashare::api
