// FNV-1a over 64 bits: a hash that is the same in every process, build and replica (std::hash is
// not promised to be), for what must match across them: ETags (D17) and the export's history
// fingerprints. Not a defence against anyone choosing collisions.
#pragma once

#include <cstdint>
#include <string_view>

namespace ashare {

class Fnv1a {
public:
  // Add the bytes of `bytes`.
  Fnv1a& add_bytes(std::string_view bytes) {
    for (const char c : bytes) {
      add_byte(static_cast<unsigned char>(c));
    }
    return *this;
  }

  // Add the 8 bytes of `value`, least significant first.
  Fnv1a& add_u64(std::uint64_t value) {
    for (int i = 0; i < 8; ++i) {
      add_byte(static_cast<unsigned char>((value >> (8 * i)) & 0xffU));
    }
    return *this;
  }

  // Add `byte`.
  Fnv1a& add_byte(unsigned char byte) {
    m_state = (m_state ^ byte) * 0x100000001b3ULL;
    return *this;
  }

  std::uint64_t value() const { return m_state; }

private:
  std::uint64_t m_state = 0xcbf29ce484222325ULL;
};

} // namespace ashare
