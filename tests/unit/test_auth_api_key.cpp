#include "testutil.hpp"

#include "core/auth/api_key.hpp"

#include <doctest/doctest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <set>
#include <string>

using namespace ashare;

namespace {

std::string hex(std::string_view bytes) {
  constexpr std::string_view digits = "0123456789abcdef";
  std::string out;
  for (char c : bytes) {
    const auto byte = static_cast<unsigned char>(c);
    out.push_back(digits[byte >> 4]);
    out.push_back(digits[byte & 0xf]);
  }
  return out;
}

bool is_base64url(std::string_view text) {
  return text.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
         == std::string_view::npos;
}

} // namespace

TEST_CASE("D5: auth::generate_key") {
  SUBCASE("is \"ask_\" and the unpadded base64url of 32 random bytes") {
    test::SequenceRandom sequence; // bytes 00 01 02 ... 1f
    const auto key = auth::generate_key(sequence);
    CHECK(key.plaintext == "ask_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8");
    CHECK(key.prefix == "ask_AAECAwQF");

    test::ConstantRandom ones(std::byte{0xff});
    CHECK(auth::generate_key(ones).plaintext == "ask_" + std::string(42, '_') + "8");
  }

  SUBCASE("the system generator gives 256-bit keys that differ") {
    auth::SystemRandom random;
    std::set<std::string> keys;
    for (int i = 0; i < 100; ++i) {
      const auto key = auth::generate_key(random);
      REQUIRE(key.plaintext.size() == 4 + 43);
      CHECK(key.plaintext.starts_with("ask_"));
      CHECK(is_base64url(key.plaintext.substr(4)));
      CHECK(key.plaintext.starts_with(key.prefix));
      CHECK(key.prefix.size() == 12);
      keys.insert(key.plaintext);
    }
    CHECK(keys.size() == 100);
  }
}

TEST_CASE("D5: auth::key_digest is SHA-256") {
  const auto abc = auth::key_digest("abc");
  REQUIRE(abc.size() == 32);
  CHECK(hex(abc) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(hex(auth::key_digest(""))
        == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(auth::key_digest("ask_a") != auth::key_digest("ask_b"));
}

TEST_CASE("D5: auth::parse_bearer") {
  SUBCASE("the scheme word is case-insensitive; the credential is trimmed") {
    const struct {
      const char* header;
      const char* credential;
    } table[] = {
        {"Bearer ask_abc", "ask_abc"},     {"bearer ask_abc", "ask_abc"},
        {"BEARER ask_abc", "ask_abc"},     {"BeArEr ask_abc", "ask_abc"},
        {"Bearer   ask_abc  ", "ask_abc"}, {"Bearer\task_abc", "ask_abc"},
    };
    for (const auto& row : table) {
      CAPTURE(std::string_view(row.header));
      const auto credential = auth::parse_bearer(row.header);
      REQUIRE(credential.has_value());
      CHECK(*credential == row.credential);
    }
  }

  SUBCASE("other schemes and empty credentials are rejected") {
    for (const char* header :
         {"Basic YWxhZGRpbjpvcGVuc2VzYW1l", "Token ask_abc", "Bearer", "Bearer ", "Bearer    ",
          "Bearerask_abc", "", "ask_abc", "Bearer:ask_abc", "Bearers ask_abc"}) {
      CAPTURE(std::string_view(header));
      CHECK_FALSE(auth::parse_bearer(header).has_value());
    }
  }
}

TEST_CASE("D10: auth::generate_uuid") {
  SUBCASE("fixed bytes give the exact UUIDv4 text") {
    test::SequenceRandom sequence; // bytes 00 01 ... 0f
    CHECK(auth::generate_uuid(sequence) == "00010203-0405-4607-8809-0a0b0c0d0e0f");
    test::ConstantRandom ones(std::byte{0xff});
    CHECK(auth::generate_uuid(ones) == "ffffffff-ffff-4fff-bfff-ffffffffffff");
    test::ConstantRandom zeros(std::byte{0x00});
    CHECK(auth::generate_uuid(zeros) == "00000000-0000-4000-8000-000000000000");
  }

  SUBCASE("system ids have the version 4 nibble and the RFC 4122 variant, and differ") {
    auth::SystemRandom random;
    std::set<std::string> ids;
    for (int i = 0; i < 1000; ++i) {
      const auto id = auth::generate_uuid(random);
      REQUIRE(id.size() == 36);
      CHECK(id[8] == '-');
      CHECK(id[13] == '-');
      CHECK(id[18] == '-');
      CHECK(id[23] == '-');
      CHECK(id[14] == '4');
      CHECK(std::string_view("89ab").find(id[19]) != std::string_view::npos);
      CHECK(id.find_first_not_of("0123456789abcdef-") == std::string::npos);
      ids.insert(id);
    }
    CHECK(ids.size() == 1000);
  }
}

TEST_CASE("auth::BufferedSystemRandom: fresh bytes in every thread and after a fork") {
  auth::BufferedSystemRandom random;
  std::set<std::string> ids;
  for (int i = 0; i < 2000; ++i) { // several refills of the per-thread pool
    ids.insert(auth::generate_uuid(random));
  }
  CHECK(ids.size() == 2000);

  // A forked child must not hand out the bytes its parent buffered (two processes, one id).
  (void)auth::generate_uuid(random); // the pool holds bytes now
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    const auto id = auth::generate_uuid(random);
    const auto written = ::write(fds[1], id.data(), id.size());
    ::_exit(written == static_cast<ssize_t>(id.size()) ? 0 : 1);
  }
  const auto parent_id = auth::generate_uuid(random);
  std::string child_id(36, '\0');
  REQUIRE(::read(fds[0], child_id.data(), child_id.size()) == 36);
  int status = 0;
  ::waitpid(child, &status, 0);
  ::close(fds[0]);
  ::close(fds[1]);
  CHECK(WIFEXITED(status));
  CHECK(child_id != parent_id);
}
