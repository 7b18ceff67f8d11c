// API keys (D5): generated from a cryptographically secure source, recognisable by their prefix,
// and stored only as a SHA-256 digest.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace ashare::auth {

// Fills buffers with random bytes. Abstract so that tests can supply fixed bytes.
class RandomSource {
public:
  virtual ~RandomSource() = default;
  // Fill `out` with random bytes; throws std::runtime_error when the source fails.
  virtual void fill(std::span<std::byte> out) = 0;
};

// The system's CSPRNG (getrandom(2)).
class SystemRandom final : public RandomSource {
public:
  void fill(std::span<std::byte> out) override;
};

// The system's CSPRNG read in blocks: each thread keeps a few KiB of getrandom output and hands
// it out, so that a request id (16 bytes) costs no system call (about 1 µs each, measured
// as 4% of a server's CPU). A forked child refills before use, so no two processes share bytes.
class BufferedSystemRandom final : public RandomSource {
public:
  void fill(std::span<std::byte> out) override;
};

inline constexpr std::string_view k_key_prefix = "ask_";

// How many characters of a key are its public prefix: shown by `keys list`, and what a server
// looks a key up by, so that no lookup compares the secret part (issue 13).
inline constexpr std::size_t k_key_prefix_length = 12;

struct NewKey {
  std::string plaintext; // "ask_" followed by 43 base64url characters (256 random bits)
  std::string prefix;    // the first k_key_prefix_length characters
};

// Return a new key from 32 bytes of `random`.
NewKey generate_key(RandomSource& random);

// Return the 32-byte SHA-256 digest of `key`.
std::string key_digest(std::string_view key);

// Return the public prefix of `key`: its first k_key_prefix_length characters (all when shorter).
std::string_view key_lookup_prefix(std::string_view key);

// Return whether digests `a` and `b` are equal, in a time that depends on their sizes only.
bool digests_equal(std::string_view a, std::string_view b);

// Return the credential of an `Authorization` header value "Bearer <key>" (scheme word in any
// case); nullopt for any other scheme or an empty credential.
std::optional<std::string_view> parse_bearer(std::string_view header);

// Return a UUIDv4 text (128 bits, 122 random) from `random`, for request ids (D10).
std::string generate_uuid(RandomSource& random);

} // namespace ashare::auth
