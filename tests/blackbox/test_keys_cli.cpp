// `ashare keys create|list|revoke|credit` (D5): the key is printed once, as the last stdout line;
// the stores and the access log never hold its plaintext. Also the global options.
#include "fixtures.hpp"

#include <algorithm>
#include <doctest/doctest.h>
#include <fstream>
#include <iterator>

using namespace bb;

namespace {

// Every regular file under `dir`, as bytes.
std::vector<std::pair<std::filesystem::path, std::string>>
read_all_files(const std::filesystem::path& dir) {
  std::vector<std::pair<std::filesystem::path, std::string>> out;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
    if (!entry.is_regular_file()) {
      continue;
    }
    std::ifstream in(entry.path(), std::ios::binary);
    out.emplace_back(entry.path(), std::string(std::istreambuf_iterator<char>(in), {}));
  }
  return out;
}

// The 32 random bytes behind a key "ask_" + base64url.
std::string key_bytes(const std::string& plaintext) {
  const std::string alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  std::string out;
  unsigned buffer = 0;
  int bits = 0;
  for (char c : plaintext.substr(4)) {
    buffer = (buffer << 6) | static_cast<unsigned>(alphabet.find(c));
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<char>((buffer >> bits) & 0xff));
    }
  }
  return out;
}

bool is_key(const std::string& text) {
  return text.size() == 47 && text.rfind("ask_", 0) == 0
         && text.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_",
                                   4) == std::string::npos;
}

} // namespace

TEST_CASE("keys create prints the key once, as the last line of stdout") {
  TestStore store;
  const auto metered =
      store.cli({"keys", "create", "--plan", "pro", "--credits", "20", "--label", "ci"});
  CHECK(metered.status == 0);
  CHECK(metered.err == "");
  const auto lines = split_lines(metered.out);
  REQUIRE(lines.size() == 5);
  CHECK(lines[0] == "id: 1");
  CHECK(lines[1] == "plan: pro");
  CHECK(lines[2] == "credits: 20");
  CHECK(lines[3] == "# the key is shown only this once; store it now");
  CHECK(is_key(lines[4]));
  CHECK(key_bytes(lines[4]).size() == 32); // 256 bits of entropy

  const auto unmetered = store.cli({"keys", "create", "--plan", "FREE"});
  CHECK(unmetered.status == 0);
  const auto lines2 = split_lines(unmetered.out);
  REQUIRE(lines2.size() == 5);
  CHECK(lines2[0] == "id: 2");
  CHECK(lines2[1] == "plan: free");
  CHECK(lines2[2] == "credits: unmetered");
  CHECK(is_key(lines2[4]));
  CHECK(lines2[4] != lines[4]);

  SUBCASE("usage errors exit 2 and create nothing") {
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{"keys", "create", "--plan", "gold"},
          std::vector<std::string>{"keys", "create"},
          std::vector<std::string>{"keys", "create", "--plan", "pro", "--credits", "-1"},
          std::vector<std::string>{"keys", "create", "--plan", "pro", "--credits", "x"},
          std::vector<std::string>{"keys"}}) {
      const auto result = store.cli(args);
      CHECK(result.status == 2);
      CHECK(result.out == "");
      CHECK_FALSE(result.err.empty());
    }
    CHECK(split_lines(store.cli({"keys", "list"}).out).size() == 3); // header + 2 keys
  }
}

TEST_CASE("keys list shows id, prefix, label, plan, credits and times, never a key") {
  TestStore store;
  const auto a = store.create_key("basic", 7, "alpha");
  const auto b = store.create_key("pro", std::nullopt, "beta");
  const auto result = store.cli({"keys", "list"});
  CHECK(result.status == 0);
  const auto lines = split_lines(result.out);
  REQUIRE(lines.size() == 3);
  CHECK(words(lines[0])
        == std::vector<std::string>{"ID", "PREFIX", "LABEL", "PLAN", "CREDITS", "CREATED", "REVOKED"});
  const auto row1 = words(lines[1]);
  const auto row2 = words(lines[2]);
  REQUIRE(row1.size() == 7);
  REQUIRE(row2.size() == 7);
  CHECK(std::vector<std::string>(row1.begin(), row1.begin() + 5)
        == std::vector<std::string>{"1", a.plaintext.substr(0, 12), "alpha", "basic", "7"});
  CHECK(is_utc_time(row1[5]));
  CHECK(row1[6] == "-");
  CHECK(std::vector<std::string>(row2.begin(), row2.begin() + 5)
        == std::vector<std::string>{"2", b.plaintext.substr(0, 12), "beta", "pro", "unmetered"});
  CHECK(is_utc_time(row2[5]));
  CHECK(row2[6] == "-");
  for (const auto& key : {a, b}) {
    CHECK(result.out.find(key.plaintext) == std::string::npos);
    CHECK(result.out.find(key.plaintext.substr(12)) == std::string::npos);
  }
}

TEST_CASE("keys revoke and keys credit") {
  TestStore store;
  const auto key = store.create_key("pro", 5, "one");
  const auto other = store.create_key("pro", std::nullopt, "two");
  const std::string prefix = key.plaintext.substr(0, 12);

  SUBCASE("credit by id and by key") {
    auto result = store.cli({"keys", "credit", "1", "10"});
    CHECK(result.status == 0);
    CHECK(result.out == "key 1: 15 credits\n");
    result = store.cli({"keys", "credit", key.plaintext, "3"});
    CHECK(result.status == 0);
    CHECK(result.out == "key 1: 18 credits\n");
    CHECK(store.listed_credits(1) == "18");
  }
  SUBCASE("credit errors") {
    auto result = store.cli({"keys", "credit", "2", "10"});
    CHECK(result.status == 1);
    CHECK(result.err
          == "ashare: error: key 2 is unmetered: it needs no credits (create a metered key "
             "with --credits N)\n");
    result = store.cli({"keys", "credit", "99", "10"});
    CHECK(result.status == 1);
    CHECK(result.err
          == "ashare: error: no key \"99\": give a key id (see `ashare keys list`) or the "
             "whole key\n");
    CHECK(store.cli({"keys", "credit", "1", "0"}).status == 2);
    CHECK(store.cli({"keys", "credit", "1", "-4"}).status == 2);
    CHECK(store.listed_credits(1) == "5");
  }
  SUBCASE("revoke by id, again, and by key") {
    auto result = store.cli({"keys", "revoke", "1"});
    CHECK(result.status == 0);
    CHECK(result.out == "revoked key 1 (" + prefix + ")\n");
    result = store.cli({"keys", "revoke", "1"});
    CHECK(result.status == 0);
    CHECK(result.out.rfind("key 1 was already revoked at ", 0) == 0);
    const auto list = split_lines(store.cli({"keys", "list"}).out);
    REQUIRE(list.size() == 3);
    const auto revoked = words(list[1]);
    REQUIRE(revoked.size() == 7);
    CHECK(is_utc_time(revoked[6]));
    CHECK(list[2].back() == '-');
    result = store.cli({"keys", "revoke", other.plaintext});
    CHECK(result.status == 0);
    CHECK(result.out == "revoked key 2 (" + other.plaintext.substr(0, 12) + ")\n");
  }
  SUBCASE("revoke of an unknown key") {
    const auto result = store.cli({"keys", "revoke", "ask_doesnotexist"});
    CHECK(result.status == 1);
    CHECK(result.err
          == "ashare: error: no key \"ask_doesnotexist\": give a key id (see `ashare keys "
             "list`) or the whole key\n");
  }
}

TEST_CASE("D5: the plaintext of a key appears nowhere in the store files or the access log") {
  TestStore store;
  store.import({fixture("bancob_600519.SH.csv")});
  std::vector<Key> keys{store.create_key("pro", 100, "metered"),
                        store.create_key("free", std::nullopt, "plain")};
  ServerProcess server(store);
  for (const auto& key : keys) {
    for (int i = 0; i < 3; ++i) {
      const auto reply =
          request(server.port(), bars_target("2024-01-02", "2024-01-05", "symbol=600519.SH"),
                  key.plaintext);
      REQUIRE(reply.status == 200);
    }
  }
  REQUIRE(store.cli({"keys", "credit", std::to_string(keys[0].id), "5"}).status == 0);
  REQUIRE(store.cli({"keys", "revoke", keys[1].plaintext}).status == 0);
  await_revoked(store, server.port(), bars_target("2024-01-02", "2024-01-05", "symbol=600519.SH"),
                keys[1].plaintext);
  REQUIRE(request(server.port(), bars_target("2024-01-02", "2024-01-05", "symbol=600519.SH"),
                  keys[1].plaintext)
              .status
          == 401);

  const auto check_files = [&](const char* when) {
    CAPTURE(when);
    const auto files = read_all_files(store.dir());
    bool saw_key_store = false;
    for (const auto& [path, bytes] : files) {
      CAPTURE(path.string());
      saw_key_store = saw_key_store || path.filename() == "ashare-keys.db";
      for (const auto& key : keys) {
        CHECK(bytes.find(key.plaintext) == std::string::npos);
        CHECK(bytes.find(key.plaintext.substr(12))
              == std::string::npos); // beyond the listed prefix
        CHECK(bytes.find(key_bytes(key.plaintext)) == std::string::npos); // nor its raw bytes
      }
    }
    if (store.keys_on_server()) {
      // Keys on PostgreSQL (issue 14): what the database holds of them, every column as text.
      const auto rows =
          store.sql("SELECT prefix, encode(digest, 'hex'), label, plan FROM api_keys");
      for (const auto& key : keys) {
        CHECK(rows.find(key.plaintext) == std::string::npos);
        CHECK(rows.find(key.plaintext.substr(12)) == std::string::npos);
      }
      saw_key_store = rows.find(keys[0].plaintext.substr(0, 12)) != std::string::npos;
    }
    CHECK(saw_key_store);
    return files.size();
  };
  // While the server runs, the -wal and -shm files exist too (of both stores on SQLite, of
  // neither on PostgreSQL: the access log is the one file there).
  const auto files_while_running = check_files("server running");
  if (!store.data_on_server()) {
    CHECK(files_while_running >= 4);
  }
  const auto stopped = server.stop();
  CHECK(stopped == 0);
  check_files("server stopped");
  const auto log = server.process().stderr_text();
  CHECK(split_lines(log).size() >= 7);
  for (const auto& key : keys) {
    CHECK(log.find(key.plaintext) == std::string::npos);
    CHECK(log.find(key.plaintext.substr(12)) == std::string::npos);
  }
}

TEST_CASE("global options: --db before or after the subcommand, ASHARE_DB, --keys-db, --version") {
  TestStore store;
  const auto db = store.dir() / "env" / "store.db";
  SUBCASE("--db after the subcommand") {
    const auto result =
        run_process({ashare_bin(), "keys", "create", "--plan", "pro", "--db", db.string()});
    CHECK(result.status == 0);
    CHECK(std::filesystem::exists(store.dir() / "env" / "store-keys.db"));
  }
  SUBCASE("ASHARE_DB, and --keys-db overriding where keys go") {
    const auto keys_db = store.dir() / "elsewhere.db";
    const auto result = run_process(
        {ashare_bin(), "keys", "create", "--plan", "pro", "--keys-db", keys_db.string()},
        k_cli_timeout, {"ASHARE_DB=" + db.string()});
    CHECK(result.status == 0);
    CHECK(std::filesystem::exists(keys_db));
    CHECK_FALSE(std::filesystem::exists(store.dir() / "env" / "store-keys.db"));
    const auto imported =
        run_process({ashare_bin(), "import", fixture("bancob_600036.SH.csv").string()},
                    k_cli_timeout, {"ASHARE_DB=" + db.string()});
    CHECK(imported.status == 0);
    CHECK(std::filesystem::exists(db));
  }
  SUBCASE("--version and --help exit 0") {
    const auto version = run_process({ashare_bin(), "--version"});
    CHECK(version.status == 0);
    // "ashare X.Y.Z (store schema N, key store schema M)"
    CHECK(split_lines(version.out).size() == 1);
    const auto version_words = words(version.out);
    REQUIRE(version_words.size() >= 2);
    CHECK(version_words[0] == "ashare");
    CHECK(version_words[1].find_first_not_of("0123456789.") == std::string::npos);
    CHECK(std::count(version_words[1].begin(), version_words[1].end(), '.') == 2);
    for (const std::vector<std::string>& args : {std::vector<std::string>{"--help"},
                                                 {"import", "--help"},
                                                 {"keys", "--help"},
                                                 {"keys", "create", "--help"},
                                                 {"serve", "--help"}}) {
      std::vector<std::string> argv{ashare_bin()};
      argv.insert(argv.end(), args.begin(), args.end());
      const auto result = run_process(argv);
      CHECK(result.status == 0);
      CHECK(result.out.find("Usage:") != std::string::npos);
    }
    CHECK(run_process({ashare_bin()}).status == 2);
    CHECK(run_process({ashare_bin(), "frobnicate"}).status == 2);
  }
}
