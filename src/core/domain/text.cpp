#include "core/domain/text.hpp"

#include <cstdint>

namespace ashare::domain {
namespace {

void append_byte(std::string& out, unsigned char byte) {
  constexpr std::string_view hex = "0123456789abcdef";
  out += "\\x";
  out.push_back(hex[byte >> 4]);
  out.push_back(hex[byte & 0xf]);
}

// Return the length of the well-formed UTF-8 sequence of two to four bytes at the start of
// `text` (RFC 3629: no overlong forms, no surrogates, at most U+10FFFF), or 0.
std::size_t sequence_length(std::string_view text) {
  const auto byte = [&text](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  const auto continuation = [&](std::size_t i) {
    return i < text.size() && (byte(i) & 0xc0) == 0x80;
  };
  const unsigned char lead = byte(0);
  if (lead >= 0xc2 && lead <= 0xdf) {
    return continuation(1) ? 2 : 0;
  }
  if (lead >= 0xe0 && lead <= 0xef) {
    if (!continuation(1) || !continuation(2)) {
      return 0;
    }
    const unsigned char second = byte(1);
    const bool overlong = lead == 0xe0 && second < 0xa0;
    const bool surrogate = lead == 0xed && second >= 0xa0;
    return overlong || surrogate ? 0 : 3;
  }
  if (lead >= 0xf0 && lead <= 0xf4) {
    if (!continuation(1) || !continuation(2) || !continuation(3)) {
      return 0;
    }
    const unsigned char second = byte(1);
    const bool overlong = lead == 0xf0 && second < 0x90;
    const bool too_large = lead == 0xf4 && second >= 0x90;
    return overlong || too_large ? 0 : 4;
  }
  return 0;
}

} // namespace

std::string printable(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const auto byte = static_cast<unsigned char>(text[i]);
    if (byte >= 0x20 && byte < 0x7f) {
      out.push_back(text[i++]);
      continue;
    }
    const std::size_t length = byte < 0x80 ? 0 : sequence_length(text.substr(i));
    // U+0080-U+009F (C2 80-C2 9F) are the C1 controls: escaped like C0.
    const bool c1 = length == 2 && byte == 0xc2 && static_cast<unsigned char>(text[i + 1]) < 0xa0;
    if (length == 0 || c1) {
      append_byte(out, byte);
      ++i;
      continue;
    }
    out.append(text.substr(i, length));
    i += length;
  }
  return out;
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') {
    return c - '0';
  }
  if (c >= 'a' && c <= 'f') {
    return c - 'a' + 10;
  }
  if (c >= 'A' && c <= 'F') {
    return c - 'A' + 10;
  }
  return -1;
}

} // namespace ashare::domain
