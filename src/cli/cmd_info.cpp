// ashare info: where the data comes from and how current it is.
#include "cli/query_run.hpp"
#include "core/store/bar_store.hpp"

#include <CLI/CLI.hpp>
#include <filesystem>
#include <iostream>

namespace ashare::cli {
namespace {

std::string store_size(const std::filesystem::path& path) {
  std::error_code error;
  std::uintmax_t bytes = std::filesystem::file_size(path, error);
  if (error) {
    return "absent";
  }
  for (const char* suffix : {"-wal", "-shm"}) {
    bytes += std::filesystem::file_size(path.string() + suffix, error);
    if (error) {
      error.clear();
    }
  }
  return with_thousands(std::to_string(bytes)) + " bytes";
}

int run_info(const Config& config) {
  if (config.base_url) {
    auto transport = open_transport(config, config.remote);
    const auto reply = transport->get("/healthz");
    std::cout << "mode: remote\n"
              << "base_url: " << *config.base_url << "\n"
              << "api_key: " << (config.api_key ? "set" : "not set") << "\n";
    if (reply.status != 200) {
      return report_api_error(reply);
    }
    auto as_of = api::health_as_of_from_json(reply.body);
    std::cout << "as_of: " << (as_of && *as_of ? (*as_of)->iso() : "none") << "\n";
    return k_exit_ok;
  }
  store::BarStore store(config.db);
  const auto dataset = store.load_dataset_info();
  const auto symbols = store.load_symbols();
  std::int64_t bars = 0;
  for (const auto& info : symbols) {
    bars += info.bar_count;
  }
  std::cout << "mode: local\n"
            << "store: " << config.db.string() << " (" << store_size(config.db) << ")\n"
            << "keys: " << config.keys_db.string() << "\n"
            << "symbols: " << symbols.size() << "\n"
            << "bars: " << bars << "\n"
            << "as_of: " << (dataset.as_of ? dataset.as_of->iso() : "none") << "\n"
            << "source: " << (dataset.source.empty() ? "none" : dataset.source) << "\n";
  return k_exit_ok;
}

} // namespace

Action setup_info(CLI::App&, GlobalFlags&) {
  return [](const Config& config) { return run_info(config); };
}

} // namespace ashare::cli
