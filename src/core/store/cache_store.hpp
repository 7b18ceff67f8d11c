// The cache store of remote mode, a SQLite file of its own beside the data store: the raw bars
// fetched from each remote (keyed by base URL, fetched with adjusted=false), the date ranges
// fetched per symbol, the anchor factor of each symbol (D8: the factor of the remote's latest bar)
// and, per remote, its as_of and when it was last asked. Local mode never opens it.
#pragma once

#include "core/domain/bar.hpp"
#include "core/domain/date.hpp"
#include "core/store/bar_store.hpp"

#include <SQLiteCpp/Database.h>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace ashare::store {

// What the cache knows of one remote as a whole.
struct RemoteState {
  std::optional<domain::Date> as_of;         // the remote's as_of; nullopt: never learned
  std::optional<std::int64_t> checked_at_ms; // Unix ms of the last /healthz; nullopt: never
  std::string source;                        // meta.source of the latest bars answer
};

// A range of calendar days of which every remote bar is cached.
struct CoveredRange {
  domain::Date first;
  domain::Date last;
  domain::Date fetched_as_of; // the remote's as_of when it was fetched
};

// The anchor factor of a symbol (D8), learned when the remote's as_of was `as_of`.
struct Anchor {
  double factor = 1;
  domain::Date as_of;
};

// A 200 of the remote kept with its ETag, to revalidate with If-None-Match (D17).
struct TaggedAnswer {
  std::string etag;
  std::string body;
};

// One page fetched for one symbol: its bars and the range they cover, saved together.
struct FetchedPage {
  std::string symbol;
  std::vector<domain::Bar> bars; // raw
  domain::Date first;            // every remote bar of [first, last] is in `bars`
  domain::Date last;
  domain::Date as_of; // the remote's as_of in the answer's meta
  std::optional<std::string> source; // the remote's source of the symbol, when its answer said
};

// What the cache holds of one symbol, for `ashare info`.
struct CachedSymbol {
  std::string symbol;
  std::int64_t bar_count = 0;
  std::vector<CoveredRange> coverage; // as stored, one row per fetch
};

class CacheStore {
public:
  // Open (and create or migrate) the cache store at `path`.
  explicit CacheStore(const std::filesystem::path& path);

  // Return what the cache knows of the remote `base_url` (empty when nothing).
  RemoteState load_remote(const std::string& base_url);

  // Record that the remote `base_url` said at `checked_at_ms` that its as_of is `as_of`.
  void save_check(const std::string& base_url,
                  std::optional<domain::Date> as_of,
                  std::int64_t checked_at_ms);

  // Record the as_of and source a bars answer of `base_url` carried; as_of only moves forward.
  void save_answer_meta(const std::string& base_url, domain::Date as_of, const std::string& source);

  // Save `page` of `base_url` in one transaction: its bars (replacing any of the same days) and
  // its covered range, so a coverage row never exists without its bars.
  void save_page(const std::string& base_url, const FetchedPage& page);

  // Return the coverage rows of `symbol` at `base_url`, one per fetch, in no particular order.
  std::vector<CoveredRange> load_coverage(const std::string& base_url, const std::string& symbol);

  // Return up to `limit` cached bars of `symbol` at `base_url` with trade_date in [`from`, `to`],
  // ordered by `order`.
  std::vector<domain::Bar> load_bars(const std::string& base_url,
                                     const std::string& symbol,
                                     domain::Date from,
                                     domain::Date to,
                                     domain::SortOrder order,
                                     std::int64_t limit);

  // Return the `field` prices and factors of every cached bar of `symbol`, ascending by date.
  PriceSeries
  load_price_series(const std::string& base_url, const std::string& symbol, PriceField field);

  // Return the source the remote `base_url` reported for `symbol`, or nullopt when never learned.
  std::optional<std::string> find_symbol_source(const std::string& base_url,
                                                const std::string& symbol);

  // Return the anchor of `symbol` at `base_url`, or nullopt when never learned.
  std::optional<Anchor> find_anchor(const std::string& base_url, const std::string& symbol);

  // Record the anchor of `symbol` at `base_url`.
  void save_anchor(const std::string& base_url, const std::string& symbol, const Anchor& anchor);

  // Return the answer of `base_url` to `target` kept by save_tagged_answer(), or nullopt.
  std::optional<TaggedAnswer> find_tagged_answer(const std::string& base_url,
                                                 const std::string& target);

  // Keep `answer`, the remote `base_url`'s 200 to `target`, in place of any earlier one.
  void save_tagged_answer(const std::string& base_url,
                          const std::string& target,
                          const TaggedAnswer& answer);

  // Return every symbol with cached bars or coverage at `base_url`, ordered by symbol.
  std::vector<CachedSymbol> load_symbols(const std::string& base_url);

  // Return the names of every symbol with cached bars or coverage at `base_url`, ordered, for
  // shell completion (cheaper than load_symbols: no counts, no coverage).
  std::vector<std::string> load_symbol_names(const std::string& base_url);

  SQLite::Database& database() { return m_db; }

private:
  SQLite::Database m_db;
};

} // namespace ashare::store
