#include "cli/config.hpp"

#include <cstdlib>

namespace ashare::cli {
namespace {

std::optional<std::string> non_empty(std::optional<std::string> value) {
  if (value && value->empty()) {
    return std::nullopt;
  }
  return value;
}

std::filesystem::path default_db_path(const Environment& environment) {
  if (const auto xdg = non_empty(environment("XDG_DATA_HOME"))) {
    return std::filesystem::path(*xdg) / "ashare" / "ashare.db";
  }
  const auto home = non_empty(environment("HOME"));
  return std::filesystem::path(home.value_or(".")) / ".local" / "share" / "ashare" / "ashare.db";
}

} // namespace

Environment process_environment() {
  return [](std::string_view name) -> std::optional<std::string> {
    const char* value = std::getenv(std::string(name).c_str());
    if (value == nullptr) {
      return std::nullopt;
    }
    return std::string(value);
  };
}

std::filesystem::path default_keys_path(const std::filesystem::path& db) {
  return db.parent_path() / (db.stem().string() + "-keys" + db.extension().string());
}

Config resolve_config(const GlobalFlags& flags, const Environment& environment) {
  Config config;
  if (const auto db = non_empty(flags.db)) {
    config.db = *db;
  } else if (const auto env = non_empty(environment("ASHARE_DB"))) {
    config.db = *env;
  } else {
    config.db = default_db_path(environment);
  }
  if (const auto keys = non_empty(flags.keys_db)) {
    config.keys_db = *keys;
  } else if (const auto env = non_empty(environment("ASHARE_KEYS_DB"))) {
    config.keys_db = *env;
  } else {
    config.keys_db = default_keys_path(config.db);
  }
  return config;
}

} // namespace ashare::cli
