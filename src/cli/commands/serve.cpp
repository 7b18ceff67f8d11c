// ashare serve: the v1 HTTP/JSON API on a loopback address by default. Resolves its settings
// (flag > environment > config file > default), binds, prints "listening on http://HOST:PORT"
// once connections are accepted, and serves on the event-driven server of src/server until
// SIGINT or SIGTERM, which drain it.
#include "cli/commands/command.hpp"
#include "cli/listen_address.hpp"
#include "cli/net/module.hpp"
#include "core/auth/rate_limiter.hpp"

#include <CLI/CLI.hpp>
#include <array>
#include <charconv>
#include <iostream>
#include <memory>
#include <thread>

namespace ashare::cli {
namespace {

struct ServeArgs {
  std::string tls_cert; // PEM certificate chain; with tls_key, serve HTTPS
  std::string tls_key;
};

// Return the whole number `text` of setting `name` within [min, max], or a usage message.
Result<std::size_t> parse_count(std::string_view name,
                                const std::string& text,
                                std::size_t min,
                                std::size_t max) {
  std::size_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < min || value > max) {
    return make_error(ErrorCode::invalid_input,
                      "invalid " + std::string(name) + " \"" + text
                        + "\": expected a whole number from " + std::to_string(min) + " to "
                        + std::to_string(max));
  }
  return value;
}

// Return the seconds `text` of setting `name` (digits, an optional fraction) as milliseconds,
// from 0.1 s to a day, or a usage message.
Result<std::chrono::milliseconds> parse_seconds(std::string_view name, const std::string& text) {
  const auto dot = text.find('.');
  const std::string whole = text.substr(0, dot);
  const std::string fraction = dot == std::string::npos ? "" : text.substr(dot + 1);
  const bool digits = !whole.empty() && whole.size() <= 6
                      && whole.find_first_not_of("0123456789") == std::string::npos
                      && fraction.size() <= 3
                      && fraction.find_first_not_of("0123456789") == std::string::npos
                      && (dot == std::string::npos || !fraction.empty());
  std::int64_t millis = -1;
  if (digits) {
    millis = std::stoll(whole) * 1000 + (fraction.empty() ? 0 : std::stoll((fraction + "00").substr(0, 3)));
  }
  if (millis < 100 || millis > 86'400'000) {
    return make_error(ErrorCode::invalid_input,
                      "invalid " + std::string(name) + " \"" + text
                        + "\": expected seconds from 0.1 to 86400, e.g. 10 or 2.5");
  }
  return std::chrono::milliseconds(millis);
}

std::size_t default_threads() {
  return std::max(1u, std::thread::hardware_concurrency());
}

// The settings that are whole numbers, and those that are seconds (flag > env > file, resolved).
struct CountSetting {
  std::string_view flag;
  const std::optional<std::string> ServeConfig::*text;
  std::size_t server::ServerOptions::*value;
  std::size_t min;
  std::size_t max;
};
constexpr std::array k_count_settings{
  CountSetting{"--threads", &ServeConfig::threads, &server::ServerOptions::threads, 1, 1024},
  CountSetting{"--max-connections", &ServeConfig::max_connections,
               &server::ServerOptions::max_connections, 1, 1'000'000},
};

struct TimeoutSetting {
  std::string_view flag;
  const std::optional<std::string> ServeConfig::*text;
  std::chrono::milliseconds server::Timeouts::*value;
};
constexpr std::array k_timeout_settings{
  TimeoutSetting{"--header-timeout", &ServeConfig::header_timeout, &server::Timeouts::header},
  TimeoutSetting{"--idle-timeout", &ServeConfig::idle_timeout, &server::Timeouts::idle},
  TimeoutSetting{"--write-timeout", &ServeConfig::write_timeout, &server::Timeouts::write},
  TimeoutSetting{"--drain-timeout", &ServeConfig::drain_timeout, &server::Timeouts::drain},
};

// Return the server options of `serve` from `args` and the resolved settings, or a usage message.
Result<server::ServerOptions> server_options(const ServeArgs& args, const ServeConfig& serve) {
  server::ServerOptions options;
  const std::string listen = serve.listen.value_or("127.0.0.1:8080");
  const auto endpoint = parse_listen(listen);
  if (!endpoint) {
    return make_error(ErrorCode::invalid_input,
                      "invalid --listen \"" + listen + "\": expected HOST:PORT, e.g. 127.0.0.1:8080");
  }
  options.host = endpoint->host;
  options.port = static_cast<unsigned short>(endpoint->port);
  options.threads = default_threads();
  for (const auto& setting : k_count_settings) {
    if (const auto& text = serve.*setting.text) {
      auto value = parse_count(setting.flag, *text, setting.min, setting.max);
      if (!value) {
        return value.error();
      }
      options.*setting.value = *value;
    }
  }
  for (const auto& setting : k_timeout_settings) {
    if (const auto& text = serve.*setting.text) {
      auto value = parse_seconds(setting.flag, *text);
      if (!value) {
        return value.error();
      }
      options.timeouts.*setting.value = *value;
    }
  }
  if (args.tls_cert.empty() != args.tls_key.empty()) {
    return make_error(ErrorCode::invalid_input, "HTTPS needs both --tls-cert and --tls-key");
  }
  if (!args.tls_cert.empty()) {
    options.tls = server::TlsFiles{args.tls_cert, args.tls_key};
  }
  return options;
}

// The history cache's budget by default, in MiB (issue 11: `--cache-budget`).
constexpr std::size_t k_default_cache_budget_mib = 256;

int run_serve(const ServeArgs& args, const Config& config) {
  const auto options = server_options(args, config.serve);
  if (!options) {
    return fail(options.error().message, k_exit_usage);
  }
  if (const auto warning =
        plaintext_warning({options->host, options->port}, options->tls.has_value())) {
    warn(*warning);
  }
  auto budget_mib = config.serve.cache_budget
                      ? parse_count("--cache-budget", *config.serve.cache_budget, 1, 1'048'576)
                      : Result<std::size_t>(k_default_cache_budget_mib);
  if (!budget_mib) {
    return fail(budget_mib.error().message, k_exit_usage);
  }
  net::ServeSettings settings{config.db.string(), config.keys_db.string(), *budget_mib << 20,
                              std::nullopt, *options};
  if (config.serve.rate_limit && *config.serve.rate_limit != "off") {
    const auto rates = auth::parse_plan_rates(*config.serve.rate_limit);
    if (!rates) {
      return fail(rates.error().message, k_exit_usage);
    }
    settings.rate_limit = *rates;
  }
  // The module opens both stores before it listens, so that a bad path fails before "listening"
  // is printed, and builds the API's services beside the server that uses them.
  return net::module().serve(settings);
}

// The options of `serve` that an environment variable or the config file may also give: kept as
// text in GlobalFlags, resolved by resolve_config, checked by run_serve.
struct ServeOption {
  std::string_view flag;
  std::optional<std::string> GlobalFlags::*value;
  std::string_view help;
  std::string_view shown_default; // "" when --help shows none
  std::string_view type_name;
  bool value_optional = false; // the flag alone is allowed (--rate-limit: "on")
};

constexpr std::array k_serve_options{
  ServeOption{"--listen", &GlobalFlags::listen,
              "Address to listen on; port 0 picks a free port (env ASHARE_LISTEN)",
              "127.0.0.1:8080", "HOST:PORT"},
  ServeOption{"--threads", &GlobalFlags::threads,
              "Network threads, one event loop each (env ASHARE_THREADS; default: the number "
              "of cores)",
              "", "N"},
  ServeOption{"--max-connections", &GlobalFlags::max_connections,
              "Open connections at most; more are closed at once (env ASHARE_MAX_CONNECTIONS)",
              "10000", "N"},
  ServeOption{"--header-timeout", &GlobalFlags::header_timeout,
              "Seconds for a request's head to arrive, else 408 (env ASHARE_HEADER_TIMEOUT)", "10",
              "SECONDS"},
  ServeOption{"--idle-timeout", &GlobalFlags::idle_timeout,
              "Seconds a keep-alive connection may wait for its next request (env "
              "ASHARE_IDLE_TIMEOUT)",
              "60", "SECONDS"},
  ServeOption{"--write-timeout", &GlobalFlags::write_timeout,
              "Seconds for a client to read its response, else it is dropped (env "
              "ASHARE_WRITE_TIMEOUT)",
              "30", "SECONDS"},
  ServeOption{"--drain-timeout", &GlobalFlags::drain_timeout,
              "Seconds that requests in flight get to finish after SIGINT or SIGTERM (env "
              "ASHARE_DRAIN_TIMEOUT)",
              "5", "SECONDS"},
  ServeOption{"--cache-budget", &GlobalFlags::cache_budget,
              "MiB of whole histories kept in memory, the least recently used leaving first "
              "(env ASHARE_CACHE_BUDGET)",
              "256", "MIB"},
  ServeOption{"--rate-limit", &GlobalFlags::rate_limit,
              "Limit each key's requests a second by plan (D14: free 5, basic 50, pro 500, "
              "bursts of twice that; PLAN=N sets one, 0 lifts it; env ASHARE_RATE_LIMIT: on, "
              "off or PLAN=N,...)",
              "on", "[PLAN=N,...]", true},
};

} // namespace

Action setup_serve(CLI::App& command, GlobalFlags& flags) {
  for (const auto& option : k_serve_options) {
    auto* added = command.add_option(std::string(option.flag), flags.*option.value,
                                     std::string(option.help));
    if (option.value_optional) {
      added->expected(0, 1);
    }
    if (!option.shown_default.empty()) {
      added->default_str(std::string(option.shown_default));
    }
    added->type_name(std::string(option.type_name));
  }
  auto args = std::make_shared<ServeArgs>();
  command.add_option("--tls-cert", args->tls_cert, "Serve HTTPS with this PEM certificate (chain)")
    ->check(CLI::ExistingFile)
    ->type_name("FILE");
  command.add_option("--tls-key", args->tls_key, "The PEM private key of --tls-cert")
    ->check(CLI::ExistingFile)
    ->type_name("FILE");
  return [args](const Config& config) { return run_serve(*args, config); };
}

} // namespace ashare::cli
