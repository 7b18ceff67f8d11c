#include "core/api/etag.hpp"

#include "core/fnv1a.hpp"

#include <array>
#include <cstdint>
#include <optional>

namespace ashare::api {
namespace {

// Add `text` to `hash` with a separator after it, so that ("ab", "c") and ("a", "bc") differ.
Fnv1a& add_field(Fnv1a& hash, std::string_view text) {
  return hash.add_bytes(text).add_byte(0xff);
}

// Return `value` as 16 lower-case hex digits.
std::string hex16(std::uint64_t value) {
  constexpr std::string_view digits = "0123456789abcdef";
  std::string out(16, '0');
  for (int i = 0; i < 16; ++i) {
    out[static_cast<std::size_t>(15 - i)] = digits[(value >> (4 * i)) & 0xfU];
  }
  return out;
}

// Return the opaque value of the entity tag at the start of `list` (quotes included) and remove
// it with the separators after it; nullopt when `list` does not start with one.
std::optional<std::string_view> take_opaque_tag(std::string_view& list) {
  if (list.starts_with("W/")) {
    list.remove_prefix(2);
  }
  if (list.empty() || list.front() != '"') {
    return std::nullopt;
  }
  const auto close = list.find('"', 1);
  if (close == std::string_view::npos) {
    return std::nullopt;
  }
  const auto tag = list.substr(0, close + 1);
  list.remove_prefix(close + 1);
  return tag;
}

std::string_view trim_separators(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t' || text.front() == ',')) {
    text.remove_prefix(1);
  }
  return text;
}

} // namespace

std::string data_etag(const store::DatasetInfo& dataset,
                      std::string_view canonical_target,
                      const Caller& caller) {
  Fnv1a hash;
  add_field(hash, dataset.store_id);
  add_field(hash, dataset.as_of ? dataset.as_of->iso() : "-");
  add_field(hash, auth::plan_limits(caller.plan).name);
  add_field(hash, caller.metered ? "metered" : "unmetered");
  add_field(hash, canonical_target);
  return "W/\"" + std::to_string(dataset.generation) + "-" + hex16(hash.value()) + "\"";
}

std::string body_etag(std::string_view body) {
  Fnv1a hash;
  return "W/\"" + hex16(add_field(hash, body).value()) + "\"";
}

bool etag_matches(std::string_view if_none_match, std::string_view etag) {
  std::string_view wanted = etag;
  if (wanted.starts_with("W/")) {
    wanted.remove_prefix(2);
  }
  std::string_view list = trim_separators(if_none_match);
  if (list == "*" || list.starts_with("* ") || list.starts_with("*,")) {
    return true;
  }
  while (!list.empty()) {
    const auto tag = take_opaque_tag(list);
    if (!tag) {
      return false;
    }
    if (*tag == wanted) {
      return true;
    }
    list = trim_separators(list);
  }
  return false;
}

} // namespace ashare::api
