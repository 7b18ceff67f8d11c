#include "cli/config.hpp"

#include "core/store/locator.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <sys/stat.h>

namespace ashare::cli {
namespace {

// One configuration setting: its flag, environment variable and config-file key.
struct Setting {
  std::optional<std::string> GlobalFlags::*flag;
  std::string_view environment;
  std::string_view file_key; // empty: not a config-file key
};

constexpr std::array k_settings{
  Setting{&GlobalFlags::db, "ASHARE_DB", "db"},
  Setting{&GlobalFlags::keys_db, "ASHARE_KEYS_DB", "keys_db"},
  Setting{&GlobalFlags::cache_db, "ASHARE_CACHE_DB", "cache_db"},
  Setting{&GlobalFlags::base_url, "ASHARE_BASE_URL", "base_url"},
  Setting{&GlobalFlags::api_key, "ASHARE_API_KEY", "api_key"},
  Setting{&GlobalFlags::format, "ASHARE_FORMAT", "format"},
  Setting{&GlobalFlags::convention, "ASHARE_CONVENTION", "convention"},
  Setting{&GlobalFlags::plan, "ASHARE_PLAN", "plan"},
  Setting{&GlobalFlags::listen, "ASHARE_LISTEN", "listen"},
  Setting{&GlobalFlags::threads, "ASHARE_THREADS", "threads"},
  Setting{&GlobalFlags::max_connections, "ASHARE_MAX_CONNECTIONS", "max_connections"},
  Setting{&GlobalFlags::header_timeout, "ASHARE_HEADER_TIMEOUT", "header_timeout"},
  Setting{&GlobalFlags::idle_timeout, "ASHARE_IDLE_TIMEOUT", "idle_timeout"},
  Setting{&GlobalFlags::write_timeout, "ASHARE_WRITE_TIMEOUT", "write_timeout"},
  Setting{&GlobalFlags::drain_timeout, "ASHARE_DRAIN_TIMEOUT", "drain_timeout"},
  Setting{&GlobalFlags::cache_budget, "ASHARE_CACHE_BUDGET", "cache_budget"},
  Setting{&GlobalFlags::rate_limit, "ASHARE_RATE_LIMIT", "rate_limit"},
  Setting{&GlobalFlags::tushare_token, "ASHARE_TUSHARE_TOKEN", "tushare_token"},
  Setting{&GlobalFlags::tushare_url, "ASHARE_TUSHARE_URL", "tushare_url"},
  Setting{&GlobalFlags::tdx_hosts, "ASHARE_TDX_HOSTS", "tdx_hosts"},
  Setting{&GlobalFlags::szse_url, "ASHARE_SZSE_URL", "szse_url"},
  Setting{&GlobalFlags::indices, "ASHARE_INDICES", "indices"},
  Setting{&GlobalFlags::members, "ASHARE_MEMBERS", "members"},
};

// Return the config-file keys, comma-separated, in table order.
std::string known_keys() {
  std::string out;
  for (const auto& setting : k_settings) {
    if (!setting.file_key.empty()) {
      out += out.empty() ? "" : ", ";
      out += setting.file_key;
    }
  }
  return out;
}

std::optional<std::string> non_empty(std::optional<std::string> value) {
  if (value && value->empty()) {
    return std::nullopt;
  }
  return value;
}

// Return the value of `setting`: flag, else environment, else config file.
std::optional<std::string> lookup(const Setting& setting,
                                  const GlobalFlags& flags,
                                  const Environment& environment,
                                  const ConfigFile& file) {
  if (auto flag = non_empty(flags.*setting.flag)) {
    return flag;
  }
  if (auto env = non_empty(environment(setting.environment))) {
    return env;
  }
  if (setting.file_key.empty()) {
    return std::nullopt;
  }
  const auto it = file.find(std::string(setting.file_key));
  return it == file.end() ? std::nullopt : non_empty(it->second);
}

std::filesystem::path home(const Environment& environment) {
  return non_empty(environment("HOME")).value_or(".");
}

std::filesystem::path default_db_path(const Environment& environment) {
  if (const auto xdg = non_empty(environment("XDG_DATA_HOME"))) {
    return std::filesystem::path(*xdg) / "ashare" / "ashare.db";
  }
  return home(environment) / ".local" / "share" / "ashare" / "ashare.db";
}

std::string_view trim(std::string_view text) {
  const auto first = text.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) {
    return {};
  }
  const auto last = text.find_last_not_of(" \t\r");
  return text.substr(first, last - first + 1);
}

Error config_error(const std::string& path, int line, const std::string& message) {
  std::string text = path;
  text += ":";
  text += std::to_string(line);
  text += ": ";
  text += message;
  return make_error(ErrorCode::invalid_input, std::move(text));
}

} // namespace

std::vector<std::string> split_comma_list(std::string_view text) {
  std::vector<std::string> items;
  std::stringstream split{std::string(text)};
  for (std::string item; std::getline(split, item, ',');) {
    item.erase(0, item.find_first_not_of(' '));
    item.erase(item.find_last_not_of(' ') + 1);
    if (!item.empty()) {
      items.push_back(std::move(item));
    }
  }
  return items;
}

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

std::filesystem::path default_cache_path(const std::filesystem::path& db) {
  return db.parent_path() / (db.stem().string() + "-cache" + db.extension().string());
}

std::filesystem::path config_file_path(const GlobalFlags& flags, const Environment& environment) {
  if (const auto path = non_empty(flags.config)) {
    return *path;
  }
  if (const auto xdg = non_empty(environment("XDG_CONFIG_HOME"))) {
    return std::filesystem::path(*xdg) / "ashare" / "config.toml";
  }
  return home(environment) / ".config" / "ashare" / "config.toml";
}

Result<ConfigFile> parse_config_file(std::string_view text, const std::string& path) {
  ConfigFile file;
  std::istringstream in{std::string(text)};
  std::string raw;
  int line = 0;
  while (std::getline(in, raw)) {
    ++line;
    const std::string_view content = trim(raw);
    if (content.empty() || content.front() == '#') {
      continue;
    }
    const auto equals = content.find('=');
    if (equals == std::string_view::npos) {
      return config_error(path, line, "expected key = \"value\"");
    }
    const std::string key(trim(content.substr(0, equals)));
    std::string_view value = trim(content.substr(equals + 1));
    const bool quoted = value.size() >= 2
                        && ((value.front() == '"' && value.find('"', 1) != value.npos)
                            || (value.front() == '\'' && value.find('\'', 1) != value.npos));
    if (!quoted) {
      return config_error(path, line, "the value of \"" + key + "\" must be a quoted string");
    }
    const char quote = value.front();
    const auto close = value.find(quote, 1);
    const std::string_view rest = trim(value.substr(close + 1));
    if (!rest.empty() && rest.front() != '#') {
      return config_error(path, line, "unexpected text after the value of \"" + key + "\"");
    }
    bool known = false;
    for (const auto& setting : k_settings) {
      known = known || (!setting.file_key.empty() && setting.file_key == key);
    }
    if (!known) {
      return config_error(path, line, "unknown key \"" + key + "\" (known: " + known_keys() + ")");
    }
    file[key] = std::string(value.substr(1, close - 1));
  }
  return file;
}

bool holds_password(std::string_view locator) {
  const auto lower = [](std::string_view text) {
    std::string out(text);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
  };
  const std::string text = lower(locator);
  for (const std::string_view scheme : {"postgresql://", "postgres://"}) {
    if (text.rfind(scheme, 0) != 0) {
      continue;
    }
    // postgresql://user:secret@host/db?password=secret: a password in the user info or a query.
    const auto rest = std::string_view(text).substr(scheme.size());
    const auto authority = rest.substr(0, rest.find_first_of("/?#"));
    const auto at = authority.rfind('@');
    if (at != std::string_view::npos
        && authority.substr(0, at).find(':') != std::string_view::npos) {
      return true;
    }
    const auto query = rest.find('?');
    if (query == std::string_view::npos) {
      return false;
    }
    const auto params = "&" + std::string(rest.substr(query + 1));
    return params.find("&password=") != std::string::npos;
  }
  // libpq's key=value form: "host=/run/pg dbname=ashare password=secret".
  for (std::size_t at = text.find("password"); at != std::string::npos;
       at = text.find("password", at + 1)) {
    std::size_t after = at + 8;
    while (after < text.size() && text[after] == ' ') {
      ++after;
    }
    if ((at == 0 || text[at - 1] == ' ') && after < text.size() && text[after] == '=') {
      return true;
    }
  }
  return false;
}

Result<ConfigFile> load_config_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return ConfigFile{};
  }
  std::ostringstream text;
  text << in.rdbuf();
  auto file = parse_config_file(text.str(), path.string());
  if (!file) {
    return file;
  }
  const auto secret = [&]() -> std::string {
    if (file->count("api_key") > 0) {
      return "an API key";
    }
    if (file->count("tushare_token") > 0) {
      return "a Tushare token";
    }
    for (const char* key : {"db", "keys_db", "cache_db"}) {
      if (const auto it = file->find(key); it != file->end() && holds_password(it->second)) {
        return "a database password";
      }
    }
    return "";
  }();
  struct stat info {};
  if (!secret.empty() && ::stat(path.c_str(), &info) == 0
      && (info.st_mode & (S_IRWXG | S_IRWXO)) != 0) {
    return make_error(ErrorCode::invalid_input,
                      "config file " + path.string() + " holds " + secret
                        + " and is readable by group or others; fix it with: chmod 600 "
                        + path.string());
  }
  return file;
}

Result<std::string> parse_convention(const std::string& text) {
  std::string lower = text;
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (lower == "talib" || lower == "tdx") {
    return lower;
  }
  return make_error(ErrorCode::invalid_input,
                    "invalid convention \"" + text + "\": expected talib or tdx");
}

Result<Format> parse_format(const std::string& text) {
  constexpr std::pair<std::string_view, Format> k_formats[] = {
    {"table", Format::table}, {"csv", Format::csv}, {"json", Format::json}, {"ndjson", Format::ndjson}};
  for (const auto& [name, format] : k_formats) {
    if (text == name) {
      return format;
    }
  }
  return make_error(ErrorCode::invalid_input,
                    "invalid format \"" + text + "\": expected table, csv, json or ndjson");
}

Config resolve_config(const GlobalFlags& flags, const Environment& environment, const ConfigFile& file) {
  const auto value = [&](std::optional<std::string> GlobalFlags::*flag) {
    for (const auto& setting : k_settings) {
      if (setting.flag == flag) {
        return lookup(setting, flags, environment, file);
      }
    }
    return std::optional<std::string>{};
  };
  Config config;
  config.db = value(&GlobalFlags::db).value_or(default_db_path(environment).string());
  // A database server's keys default to the same database (tables of their own), and the
  // remote-mode cache stays a local file beside where the default store would be (issue 14).
  const bool on_server = store::is_postgres_locator(config.db.string());
  config.keys_db = value(&GlobalFlags::keys_db)
                     .value_or(on_server ? config.db.string() : default_keys_path(config.db).string());
  config.cache_db =
    value(&GlobalFlags::cache_db)
      .value_or(default_cache_path(on_server ? default_db_path(environment) : config.db).string());
  config.base_url = value(&GlobalFlags::base_url);
  config.api_key = value(&GlobalFlags::api_key);
  config.format = value(&GlobalFlags::format);
  if (const auto convention = value(&GlobalFlags::convention)) {
    auto parsed = parse_convention(*convention);
    config.convention = parsed ? Result<std::optional<std::string>>(*parsed) : parsed.error();
  }
  config.plan = value(&GlobalFlags::plan).value_or("free");
  if (config.format) {
    auto format = parse_format(*config.format);
    config.output_format = format ? Result<std::optional<Format>>(*format) : format.error();
  }
  config.remote_plan = auth::parse_plan(config.plan);
  config.serve = ServeConfig{value(&GlobalFlags::listen),          value(&GlobalFlags::threads),
                             value(&GlobalFlags::max_connections), value(&GlobalFlags::header_timeout),
                             value(&GlobalFlags::idle_timeout),    value(&GlobalFlags::write_timeout),
                             value(&GlobalFlags::drain_timeout),   value(&GlobalFlags::cache_budget),
                             value(&GlobalFlags::rate_limit)};
  config.sources.tushare_token = value(&GlobalFlags::tushare_token);
  if (auto url = value(&GlobalFlags::tushare_url)) {
    config.sources.tushare_url = *url;
  }
  if (auto hosts = value(&GlobalFlags::tdx_hosts)) {
    config.sources.tdx_hosts = split_comma_list(*hosts);
  }
  if (auto url = value(&GlobalFlags::szse_url)) {
    config.sources.szse_url = *url;
  }
  config.sources.indices = value(&GlobalFlags::indices);
  config.sources.members = value(&GlobalFlags::members);
  return config;
}

} // namespace ashare::cli
