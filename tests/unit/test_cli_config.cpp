// The configuration of one run (issue 4, "Two modes, one behaviour"): resolve_config's precedence
// flag > environment > config file > default for every setting, the default paths,
// config_file_path, parse_config_file and load_config_file's permission check.
#include "fake_environment.hpp"
#include "support/temp_dir.hpp"

#include "cli/config.hpp"

#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <sys/stat.h>
#include <vector>

using namespace ashare;
using namespace ashare::cli;

namespace {

using Variables = std::map<std::string, std::string>;

// An Environment over a fixed map: nothing else is set.
// Write `text` to `path` and give it `mode`.
void write_file(const std::filesystem::path& path, const std::string& text, mode_t mode) {
  {
    std::ofstream out(path, std::ios::binary);
    out << text;
  }
  REQUIRE(::chmod(path.c_str(), mode) == 0);
}

// One setting as the three layers name it, and how to read it back from a Config.
struct Setting {
  const char* name;
  std::optional<std::string> GlobalFlags::*flag;
  const char* environment;
  const char* file_key;
  std::optional<std::string> (*resolved)(const Config&);
  std::optional<std::string> fallback; // the default under HOME=/home/u and no XDG_DATA_HOME
};

const Setting k_settings[] = {
    {"db", &GlobalFlags::db, "ASHARE_DB", "db",
     [](const Config& c) -> std::optional<std::string> { return c.db.string(); },
     "/home/u/.local/share/ashare/ashare.db"},
    {"keys_db", &GlobalFlags::keys_db, "ASHARE_KEYS_DB", "keys_db",
     [](const Config& c) -> std::optional<std::string> { return c.keys_db.string(); },
     "/home/u/.local/share/ashare/ashare-keys.db"},
    {"cache_db", &GlobalFlags::cache_db, "ASHARE_CACHE_DB", "cache_db",
     [](const Config& c) -> std::optional<std::string> { return c.cache_db.string(); },
     "/home/u/.local/share/ashare/ashare-cache.db"},
    {"base_url", &GlobalFlags::base_url, "ASHARE_BASE_URL", "base_url",
     [](const Config& c) { return c.base_url; }, std::nullopt},
    {"api_key", &GlobalFlags::api_key, "ASHARE_API_KEY", "api_key",
     [](const Config& c) { return c.api_key; }, std::nullopt},
    {"format", &GlobalFlags::format, "ASHARE_FORMAT", "format",
     [](const Config& c) { return c.format; }, std::nullopt},
    {"plan", &GlobalFlags::plan, "ASHARE_PLAN", "plan",
     [](const Config& c) -> std::optional<std::string> { return c.plan; }, "free"},
    // serve's settings (issue 9): resolved as text, parsed and checked by the command.
    {"listen", &GlobalFlags::listen, "ASHARE_LISTEN", "listen",
     [](const Config& c) { return c.serve.listen; }, std::nullopt},
    {"threads", &GlobalFlags::threads, "ASHARE_THREADS", "threads",
     [](const Config& c) { return c.serve.threads; }, std::nullopt},
    {"max_connections", &GlobalFlags::max_connections, "ASHARE_MAX_CONNECTIONS",
     "max_connections", [](const Config& c) { return c.serve.max_connections; }, std::nullopt},
    {"header_timeout", &GlobalFlags::header_timeout, "ASHARE_HEADER_TIMEOUT", "header_timeout",
     [](const Config& c) { return c.serve.header_timeout; }, std::nullopt},
    {"idle_timeout", &GlobalFlags::idle_timeout, "ASHARE_IDLE_TIMEOUT", "idle_timeout",
     [](const Config& c) { return c.serve.idle_timeout; }, std::nullopt},
    {"write_timeout", &GlobalFlags::write_timeout, "ASHARE_WRITE_TIMEOUT", "write_timeout",
     [](const Config& c) { return c.serve.write_timeout; }, std::nullopt},
    {"drain_timeout", &GlobalFlags::drain_timeout, "ASHARE_DRAIN_TIMEOUT", "drain_timeout",
     [](const Config& c) { return c.serve.drain_timeout; }, std::nullopt},
};

} // namespace

TEST_CASE("cli::resolve_config: flag > environment > config file > default, for every setting") {
  // nullopt: the layer does not give the setting; "": it gives an empty value (counts as unset).
  struct Row {
    std::optional<std::string> flag;
    std::optional<std::string> env;
    std::optional<std::string> file;
    const char* expected; // "flag", "env", "file" or "default"
  };
  const Row rows[] = {
      {std::nullopt, std::nullopt, std::nullopt, "default"},
      {std::nullopt, std::nullopt, "/f/value", "file"},
      {std::nullopt, "/e/value", std::nullopt, "env"},
      {std::nullopt, "/e/value", "/f/value", "env"},
      {"/l/value", std::nullopt, std::nullopt, "flag"},
      {"/l/value", std::nullopt, "/f/value", "flag"},
      {"/l/value", "/e/value", std::nullopt, "flag"},
      {"/l/value", "/e/value", "/f/value", "flag"},
      // Empty values count as unset, in every layer.
      {"", "/e/value", "/f/value", "env"},
      {"", "", "/f/value", "file"},
      {std::nullopt, "", "/f/value", "file"},
      {"", std::nullopt, std::nullopt, "default"},
      {"", "", "", "default"},
      {std::nullopt, std::nullopt, "", "default"},
  };
  for (const auto& setting : k_settings) {
    SUBCASE(setting.name) {
      for (const auto& row : rows) {
        CAPTURE(row.flag.value_or("<none>"));
        CAPTURE(row.env.value_or("<none>"));
        CAPTURE(row.file.value_or("<none>"));
        GlobalFlags flags;
        flags.*setting.flag = row.flag;
        Variables variables{{"HOME", "/home/u"}};
        if (row.env) {
          variables[setting.environment] = *row.env;
        }
        ConfigFile file;
        if (row.file) {
          file[setting.file_key] = *row.file;
        }
        const Config config = resolve_config(flags, test::environment_of(variables), file);
        const std::string expected = row.expected;
        const std::optional<std::string> want = expected == "flag"   ? row.flag
                                                : expected == "env"  ? row.env
                                                : expected == "file" ? row.file
                                                                     : setting.fallback;
        CHECK(setting.resolved(config) == want);
      }
    }
  }
}

TEST_CASE("cli::resolve_config: one setting's layer does not leak into another's") {
  GlobalFlags flags;
  flags.format = "json";
  const Config config = resolve_config(
      flags,
      test::environment_of({{"HOME", "/home/u"},
                            {"ASHARE_BASE_URL", "https://e.example"},
                            {"ASHARE_PLAN", "basic"}}),
      ConfigFile{{"api_key", "ask_file"}, {"format", "csv"}, {"db", "/f/a.db"}, {"plan", "pro"}});
  CHECK(config.db == "/f/a.db");
  CHECK(config.keys_db == "/f/a-keys.db");
  CHECK(config.base_url == "https://e.example");
  CHECK(config.api_key == "ask_file");
  CHECK(config.format == "json");
  CHECK(config.plan == "basic");
}

TEST_CASE("cli::resolve_config: a PostgreSQL store keeps its keys there and its cache local") {
  GlobalFlags flags;
  flags.db = "postgresql://ashare@db.example/prod";
  const Config config =
      resolve_config(flags, test::environment_of({{"HOME", "/home/u"}}), ConfigFile{});
  CHECK(config.keys_db == "postgresql://ashare@db.example/prod");
  CHECK(config.cache_db == "/home/u/.local/share/ashare/ashare-cache.db");
  flags.keys_db = "/k/keys.db";
  CHECK(resolve_config(flags, test::environment_of({{"HOME", "/home/u"}}), ConfigFile{}).keys_db
        == "/k/keys.db");
}

TEST_CASE("cli::resolve_config: default paths of the data store and the key store") {
  struct Row {
    const char* what;
    Variables env;
    std::optional<std::string> db_flag;
    ConfigFile file;
    const char* db;
    const char* keys_db;
  };
  const Row rows[] = {
      {"XDG_DATA_HOME",
       {{"XDG_DATA_HOME", "/xdg"}, {"HOME", "/home/u"}},
       std::nullopt,
       {},
       "/xdg/ashare/ashare.db",
       "/xdg/ashare/ashare-keys.db"},
      {"HOME",
       {{"HOME", "/home/u"}},
       std::nullopt,
       {},
       "/home/u/.local/share/ashare/ashare.db",
       "/home/u/.local/share/ashare/ashare-keys.db"},
      {"empty XDG_DATA_HOME falls back to HOME",
       {{"XDG_DATA_HOME", ""}, {"HOME", "/home/u"}},
       std::nullopt,
       {},
       "/home/u/.local/share/ashare/ashare.db",
       "/home/u/.local/share/ashare/ashare-keys.db"},
      {"no HOME: the current directory",
       {},
       std::nullopt,
       {},
       "./.local/share/ashare/ashare.db",
       "./.local/share/ashare/ashare-keys.db"},
      {"empty HOME: the current directory",
       {{"HOME", ""}},
       std::nullopt,
       {},
       "./.local/share/ashare/ashare.db",
       "./.local/share/ashare/ashare-keys.db"},
      // keys_db is derived from the resolved db, whichever layer gave it.
      {"db flag",
       {{"HOME", "/home/u"}},
       "/d/store.sqlite",
       {},
       "/d/store.sqlite",
       "/d/store-keys.sqlite"},
      {"db environment",
       {{"HOME", "/home/u"}, {"ASHARE_DB", "/e/x.db"}},
       std::nullopt,
       {},
       "/e/x.db",
       "/e/x-keys.db"},
      {"db config file",
       {{"HOME", "/home/u"}},
       std::nullopt,
       {{"db", "rel/data.db"}},
       "rel/data.db",
       "rel/data-keys.db"},
      {"db without extension", {{"HOME", "/home/u"}}, "/d/noext", {}, "/d/noext", "/d/noext-keys"},
      {"keys_db given: not derived",
       {{"HOME", "/home/u"}, {"ASHARE_KEYS_DB", "/k/keys.db"}},
       "/d/a.db",
       {},
       "/d/a.db",
       "/k/keys.db"},
      {"keys_db in the file, db from the flag",
       {{"HOME", "/home/u"}},
       "/d/a.db",
       {{"keys_db", "/fk/k.db"}},
       "/d/a.db",
       "/fk/k.db"},
  };
  for (const auto& row : rows) {
    CAPTURE(row.what);
    GlobalFlags flags;
    flags.db = row.db_flag;
    const Config config = resolve_config(flags, test::environment_of(row.env), row.file);
    CHECK(config.db.string() == row.db);
    CHECK(config.keys_db.string() == row.keys_db);
  }
}

TEST_CASE("cli::default_keys_path") {
  const std::pair<const char*, const char*> rows[] = {
      {"ashare.db", "ashare-keys.db"},
      {"/var/lib/ashare/ashare.db", "/var/lib/ashare/ashare-keys.db"},
      {"/d/store.sqlite", "/d/store-keys.sqlite"},
      {"/d/noext", "/d/noext-keys"},
      {"/d/two.dots.db", "/d/two.dots-keys.db"},
  };
  for (const auto& [db, keys] : rows) {
    CAPTURE(db);
    CHECK(default_keys_path(db).string() == keys);
  }
}

TEST_CASE("cli::config_file_path: --config, then XDG_CONFIG_HOME, then HOME") {
  struct Row {
    const char* what;
    std::optional<std::string> config_flag;
    Variables env;
    const char* expected;
  };
  const Row rows[] = {
      {"--config", "/c/my.toml", {{"XDG_CONFIG_HOME", "/x"}, {"HOME", "/home/u"}}, "/c/my.toml"},
      {"relative --config", "my.toml", {{"HOME", "/home/u"}}, "my.toml"},
      {"empty --config counts as unset", "", {{"XDG_CONFIG_HOME", "/x"}}, "/x/ashare/config.toml"},
      {"XDG_CONFIG_HOME",
       std::nullopt,
       {{"XDG_CONFIG_HOME", "/x"}, {"HOME", "/home/u"}},
       "/x/ashare/config.toml"},
      {"HOME", std::nullopt, {{"HOME", "/home/u"}}, "/home/u/.config/ashare/config.toml"},
      {"empty XDG_CONFIG_HOME",
       std::nullopt,
       {{"XDG_CONFIG_HOME", ""}, {"HOME", "/home/u"}},
       "/home/u/.config/ashare/config.toml"},
      {"neither", std::nullopt, {}, "./.config/ashare/config.toml"},
  };
  for (const auto& row : rows) {
    CAPTURE(row.what);
    GlobalFlags flags;
    flags.config = row.config_flag;
    CHECK(config_file_path(flags, test::environment_of(row.env)).string() == row.expected);
  }
}

TEST_CASE("cli::parse_config_file") {
  SUBCASE("accepted files") {
    struct Row {
      const char* text;
      ConfigFile expected;
    };
    const Row rows[] = {
        {"", {}},
        {"# only a comment\n\n   # indented comment\n\t\n", {}},
        {"db = \"/a/b.db\"\n", {{"db", "/a/b.db"}}},
        {"db=\"/a/b.db\"", {{"db", "/a/b.db"}}}, // no spaces, no final newline
        {"  plan = 'basic'   # trailing comment\n", {{"plan", "basic"}}},
        {"format = \"csv\"\r\nplan = \"pro\"\r\n", {{"format", "csv"}, {"plan", "pro"}}},
        {"api_key = \"ask_a#b\"\n", {{"api_key", "ask_a#b"}}}, // '#' inside quotes is data
        {"base_url = \"https://h.example:8443/prefix\"\n",
         {{"base_url", "https://h.example:8443/prefix"}}},
        {"keys_db = \"\"\n", {{"keys_db", ""}}},
        {"base_url = \"u\"\napi_key = \"k\"\ndb = \"d\"\nkeys_db = \"kd\"\nformat = \"json\"\n"
         "plan = \"free\"\n",
         {{"base_url", "u"},
          {"api_key", "k"},
          {"db", "d"},
          {"keys_db", "kd"},
          {"format", "json"},
          {"plan", "free"}}},
    };
    for (const auto& row : rows) {
      CAPTURE(row.text);
      const auto file = parse_config_file(row.text, "/c/config.toml");
      REQUIRE(file.ok());
      CHECK(*file == row.expected);
    }
  }

  SUBCASE("rejected files: INVALID_INPUT with path:line") {
    struct Row {
      const char* text;
      const char* message;
    };
    const Row rows[] = {
        {"# colour\ndb = \"x\"\ncolour = \"red\"\n",
         "/c/config.toml:3: unknown key \"colour\" (known: db, keys_db, cache_db, base_url, "
         "api_key, format, convention, plan, listen, threads, max_connections, header_timeout, "
         "idle_timeout, write_timeout, drain_timeout, cache_budget, rate_limit, tushare_token, tushare_url, tdx_hosts, szse_url, indices, members)"},
        {"db = /a/b.db\n", "/c/config.toml:1: the value of \"db\" must be a quoted string"},
        {"\nplan = pro\n", "/c/config.toml:2: the value of \"plan\" must be a quoted string"},
        {"db = \"unterminated\n", "/c/config.toml:1: the value of \"db\" must be a quoted string"},
        {"format = \"csv\" json\n",
         "/c/config.toml:1: unexpected text after the value of \"format\""},
        {"db\n", "/c/config.toml:1: expected key = \"value\""},
        {"[ashare]\ndb = \"x\"\n", "/c/config.toml:1: expected key = \"value\""},
    };
    for (const auto& row : rows) {
      CAPTURE(row.text);
      const auto file = parse_config_file(row.text, "/c/config.toml");
      REQUIRE_FALSE(file.ok());
      CHECK(file.error().code == ErrorCode::invalid_input);
      CHECK(file.error().message == row.message);
    }
  }
}

TEST_CASE("cli::load_config_file: a file holding api_key must not be readable by group or others") {
  const test::TempDir dir;
  const auto path = dir.path() / "config.toml";
  const std::string refusal = "config file " + path.string()
                              + " holds an API key and is readable by group or others; fix it "
                                "with: chmod 600 "
                              + path.string();
  struct Row {
    const char* text;
    mode_t mode;
    bool accepted;
  };
  const Row rows[] = {
      {"api_key = \"ask_secret\"\ndb = \"/d.db\"\n", 0644, false},
      {"api_key = \"ask_secret\"\ndb = \"/d.db\"\n", 0640, false},
      {"api_key = \"ask_secret\"\ndb = \"/d.db\"\n", 0604, false},
      {"api_key = \"ask_secret\"\ndb = \"/d.db\"\n", 0620, false}, // group may write: refused too
      {"api_key = \"ask_secret\"\ndb = \"/d.db\"\n", 0600, true},
      {"api_key = \"ask_secret\"\ndb = \"/d.db\"\n", 0400, true},
      {"db = \"/d.db\"\n", 0644, true}, // no API key: nothing to protect
      {"# api_key = \"commented out\"\ndb = \"/d.db\"\n", 0644, true},
  };
  for (const auto& row : rows) {
    CAPTURE(row.text);
    CAPTURE(row.mode);
    write_file(path, row.text, row.mode);
    const auto file = load_config_file(path);
    if (row.accepted) {
      REQUIRE(file.ok());
      CHECK(file->at("db") == "/d.db");
      CHECK(file->count("api_key") == (std::string(row.text).rfind("api_key", 0) == 0 ? 1u : 0u));
    } else {
      REQUIRE_FALSE(file.ok());
      CHECK(file.error().code == ErrorCode::invalid_input);
      CHECK(file.error().message == refusal);
      CHECK(file.error().message.find("chmod 600") != std::string::npos);
    }
    std::filesystem::remove(path);
  }
}

TEST_CASE("cli::holds_password: the locators that carry a database password (issue 13)") {
  const std::pair<const char*, bool> rows[] = {
    {"/home/u/.local/share/ashare/ashare.db", false},
    {"postgresql://ashare@db.example/ashare", false},
    {"postgresql:///ashare?host=/run/postgresql", false},
    {"postgresql://ashare:s3cret@db.example:5432/ashare", true},
    {"POSTGRES://ashare:s3cret@db.example/ashare", true},
    {"postgres://:s3cret@/ashare?host=/tmp", true},
    {"postgresql://ashare@db.example/ashare?sslmode=require&password=s3cret", true},
    {"postgresql://ashare@db.example/ashare?password=s3cret", true},
    {"postgresql://db.example/ashare?mypassword=x", false},
    {"host=/run/postgresql dbname=ashare password=s3cret", true},
    {"host=/run/postgresql dbname=ashare password = s3cret", true},
    {"password=s3cret", true},
    {"host=/run/postgresql dbname=ashare", false},
    {"/data/passwords/ashare.db", false},
  };
  for (const auto& [locator, expected] : rows) {
    CAPTURE(std::string(locator));
    CHECK(holds_password(locator) == expected);
  }
}

TEST_CASE("cli::load_config_file: a file holding a database password must be 0600 as for a key") {
  const test::TempDir dir;
  const auto path = dir.path() / "config.toml";
  for (const char* key : {"db", "keys_db", "cache_db"}) {
    CAPTURE(std::string(key));
    const auto text = std::string(key) + " = \"postgresql://ashare:s3cret@db.example/ashare\"\n";
    write_file(path, text, 0644);
    const auto refused = load_config_file(path);
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.error().message
          == "config file " + path.string()
               + " holds a database password and is readable by group or others; fix it with: "
                 "chmod 600 "
               + path.string());
    std::filesystem::remove(path);
    write_file(path, text, 0600);
    CHECK(load_config_file(path).ok());
    std::filesystem::remove(path);
  }
  write_file(path, "db = \"postgresql://ashare@db.example/ashare\"\n", 0644);
  CHECK(load_config_file(path).ok()); // no password: .pgpass or the environment has it
}

TEST_CASE("cli::load_config_file: an absent file is empty, a malformed one names path:line") {
  const test::TempDir dir;
  const auto absent = load_config_file(dir.path() / "absent.toml");
  REQUIRE(absent.ok());
  CHECK(absent->empty());

  const auto path = dir.path() / "bad.toml";
  write_file(path, "db = \"/d.db\"\nbogus = \"1\"\n", 0600);
  const auto bad = load_config_file(path);
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().message
        == path.string()
               + ":2: unknown key \"bogus\" (known: db, keys_db, cache_db, base_url, api_key, "
                 "format, convention, plan, listen, threads, max_connections, header_timeout, "
                 "idle_timeout, write_timeout, drain_timeout, cache_budget, rate_limit, tushare_token, tushare_url, tdx_hosts, szse_url, indices, members)");
}

TEST_CASE("cli::resolve_config: convention, flag > environment > file, checked once (D13)") {
  const auto convention_of = [](std::optional<std::string> flag, Variables variables,
                                ConfigFile file) {
    GlobalFlags flags;
    flags.convention = std::move(flag);
    variables.emplace("HOME", "/home/u");
    return resolve_config(flags, test::environment_of(std::move(variables)), file).convention;
  };
  const auto unset = convention_of(std::nullopt, {}, {});
  REQUIRE(unset);
  CHECK_FALSE(unset->has_value()); // the API's default, talib
  CHECK(*convention_of(std::nullopt, {}, {{"convention", "TDX"}}) == "tdx");
  CHECK(*convention_of(std::nullopt, {{"ASHARE_CONVENTION", "talib"}}, {{"convention", "tdx"}})
        == "talib");
  CHECK(*convention_of("Tdx", {{"ASHARE_CONVENTION", "talib"}}, {}) == "tdx");
  const auto bad = convention_of(std::nullopt, {{"ASHARE_CONVENTION", "wilder"}}, {});
  REQUIRE_FALSE(bad);
  CHECK(bad.error().message == "invalid convention \"wilder\": expected talib or tdx");
  CHECK(parse_config_file("convention = \"tdx\"\n", "c.toml"));
}
