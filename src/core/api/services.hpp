// What the API handlers work with: the store connections, the catalog cache and the random source
// for request ids. Built once by `ashare serve` (or by a test) and shared by all worker threads.
#pragma once

#include "core/api/bars_cache.hpp"
#include "core/auth/api_key.hpp"
#include "core/query/catalog.hpp"
#include "core/store/bar_store.hpp"
#include "core/store/connection_pool.hpp"
#include "core/store/key_store.hpp"

#include <filesystem>
#include <functional>
#include <string_view>

namespace ashare::api {

struct Services {
  // Open pools over the data store at `data_path` and the key store at `keys_path`.
  Services(std::filesystem::path data_path, std::filesystem::path keys_path)
    : bars(std::move(data_path)), keys(std::move(keys_path)) {}

  store::ConnectionPool<store::BarStore> bars;
  store::ConnectionPool<store::KeyStore> keys;
  query::CatalogCache catalog;
  // Whole histories with their bars' JSON and series: about 650 bytes a bar, so 256 MiB hold
  // about 400,000 bars.
  BarsCache bars_cache{256u << 20};
  auth::SystemRandom random; // thread-safe
  // Receives the detail of an unexpected failure answered with 500 (D10: never sent to clients).
  std::function<void(std::string_view detail)> log_error = [](std::string_view) {};
};

} // namespace ashare::api
