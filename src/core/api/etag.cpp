#include "core/api/etag.hpp"

#include <array>
#include <cstdint>
#include <optional>

namespace ashare::api {
namespace {

// FNV-1a, 64 bits: stable across processes and replicas (std::hash is not promised to be), and
// cheap next to the request; a collision would need two states of one store to meet in 64 bits.
class Fnv1a {
public:
  Fnv1a& add(std::string_view text) {
    for (const char c : text) {
      m_state = (m_state ^ static_cast<unsigned char>(c)) * 0x100000001b3ULL;
    }
    // A separator, so that ("ab", "c") and ("a", "bc") differ.
    m_state = (m_state ^ 0xffU) * 0x100000001b3ULL;
    return *this;
  }
  std::string hex() const {
    constexpr std::string_view digits = "0123456789abcdef";
    std::string out(16, '0');
    for (int i = 0; i < 16; ++i) {
      out[static_cast<std::size_t>(15 - i)] = digits[(m_state >> (4 * i)) & 0xfU];
    }
    return out;
  }

private:
  std::uint64_t m_state = 0xcbf29ce484222325ULL;
};

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
  hash.add(dataset.store_id)
    .add(dataset.as_of ? dataset.as_of->iso() : "-")
    .add(auth::plan_limits(caller.plan).name)
    .add(caller.metered ? "metered" : "unmetered")
    .add(canonical_target);
  return "W/\"" + std::to_string(dataset.generation) + "-" + hash.hex() + "\"";
}

std::string body_etag(std::string_view body) {
  return "W/\"" + Fnv1a().add(body).hex() + "\"";
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
