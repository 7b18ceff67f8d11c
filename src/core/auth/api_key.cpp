#include "core/auth/api_key.hpp"

#include <array>
// The low-level SHA-256 interface (deprecated in OpenSSL 3 for EVP, not removed) needs no
// provider: linked statically it adds 30 KB and no start-up work to `ashare`, where EVP and the
// one-shot SHA256() bring in OpenSSL's provider machinery (issue 11, P2).
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/crypto.h>
#include <openssl/sha.h>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <pthread.h>
#include <sys/random.h>
#include <stdexcept>

namespace ashare::auth {
namespace {

constexpr std::string_view k_base64url =
  "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

std::string base64url(std::span<const std::byte> bytes) {
  std::string out;
  unsigned buffer = 0;
  int bits = 0;
  for (std::byte b : bytes) {
    buffer = (buffer << 8) | std::to_integer<unsigned>(b);
    bits += 8;
    while (bits >= 6) {
      bits -= 6;
      out.push_back(k_base64url[(buffer >> bits) & 0x3f]);
    }
  }
  if (bits > 0) {
    out.push_back(k_base64url[(buffer << (6 - bits)) & 0x3f]);
  }
  return out;
}

bool is_space(char c) {
  return c == ' ' || c == '\t';
}

} // namespace

void SystemRandom::fill(std::span<std::byte> out) {
  // getrandom(2) reads the kernel's CSPRNG, which OpenSSL's generator is seeded from; asking it
  // directly spares a one-shot command setting that generator up (about 0.4 ms, issue 11).
  std::size_t done = 0;
  while (done < out.size()) {
    const auto got = ::getrandom(out.data() + done, out.size() - done, 0);
    if (got < 0 && errno == EINTR) {
      continue;
    }
    if (got <= 0) {
      throw std::runtime_error("the system random generator failed");
    }
    done += static_cast<std::size_t>(got);
  }
}

namespace {

// Counts forks, so that a child never hands out bytes its parent buffered (getpid() would cost a
// system call per request).
std::atomic<unsigned> g_forks{0};

unsigned forks_so_far() {
  static const bool registered = [] {
    ::pthread_atfork(nullptr, nullptr, [] { g_forks.fetch_add(1, std::memory_order_relaxed); });
    return true;
  }();
  (void)registered;
  return g_forks.load(std::memory_order_relaxed);
}

} // namespace

void BufferedSystemRandom::fill(std::span<std::byte> out) {
  struct Pool {
    std::array<std::byte, 4096> bytes{};
    std::size_t used = 4096;
    unsigned forks = 0;
  };
  thread_local Pool pool;
  if (out.size() > pool.bytes.size()) {
    SystemRandom().fill(out);
    return;
  }
  const unsigned forks = forks_so_far();
  if (pool.used + out.size() > pool.bytes.size() || pool.forks != forks) {
    SystemRandom().fill(pool.bytes);
    pool.used = 0;
    pool.forks = forks;
  }
  std::memcpy(out.data(), pool.bytes.data() + pool.used, out.size());
  // Bytes handed out are not kept: a later reader of this memory learns nothing.
  std::memset(pool.bytes.data() + pool.used, 0, out.size());
  pool.used += out.size();
}

NewKey generate_key(RandomSource& random) {
  std::array<std::byte, 32> bytes{};
  random.fill(bytes);
  std::string plaintext = std::string(k_key_prefix) + base64url(bytes);
  std::string prefix = plaintext.substr(0, k_key_prefix_length);
  return NewKey{std::move(plaintext), std::move(prefix)};
}

std::string_view key_lookup_prefix(std::string_view key) {
  return key.substr(0, k_key_prefix_length);
}

bool digests_equal(std::string_view a, std::string_view b) {
  return a.size() == b.size() && CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

std::string key_digest(std::string_view key) {
  std::string digest(SHA256_DIGEST_LENGTH, '\0');
  SHA256_CTX context;
  SHA256_Init(&context);
  SHA256_Update(&context, key.data(), key.size());
  SHA256_Final(reinterpret_cast<unsigned char*>(digest.data()), &context);
  return digest;
}

std::optional<std::string_view> parse_bearer(std::string_view header) {
  constexpr std::string_view scheme = "bearer";
  if (header.size() <= scheme.size() || !is_space(header[scheme.size()])) {
    return std::nullopt;
  }
  for (std::size_t i = 0; i < scheme.size(); ++i) {
    const char c = header[i];
    if ((c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c) != scheme[i]) {
      return std::nullopt;
    }
  }
  std::string_view credential = header.substr(scheme.size());
  while (!credential.empty() && is_space(credential.front())) {
    credential.remove_prefix(1);
  }
  while (!credential.empty() && is_space(credential.back())) {
    credential.remove_suffix(1);
  }
  if (credential.empty()) {
    return std::nullopt;
  }
  return credential;
}

std::string generate_uuid(RandomSource& random) {
  std::array<std::byte, 16> bytes{};
  random.fill(bytes);
  bytes[6] = (bytes[6] & std::byte{0x0f}) | std::byte{0x40}; // version 4
  bytes[8] = (bytes[8] & std::byte{0x3f}) | std::byte{0x80}; // RFC 4122 variant
  constexpr std::string_view hex = "0123456789abcdef";
  std::string out;
  out.reserve(36);
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) {
      out.push_back('-');
    }
    const auto value = std::to_integer<unsigned>(bytes[i]);
    out.push_back(hex[value >> 4]);
    out.push_back(hex[value & 0xf]);
  }
  return out;
}

} // namespace ashare::auth
