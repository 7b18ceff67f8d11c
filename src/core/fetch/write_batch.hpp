// Writing a fetch's units (a market's day, a symbol's span: fetch/provider.hpp) into the store
// (D18) through the importers' one writer of bars (import/file_loader.hpp). A unit's bars and its
// record (ledger rows, suspensions, absence marks) always commit in one transaction. Units that
// arrive while that transaction is open may join it (group commit): a fast source is then written
// at the importer's pace, one summary update per symbol a batch instead of a day, and a fetch cut
// short still keeps whole units only.
#pragma once

#include "core/error.hpp"
#include "core/import/file_loader.hpp"
#include "core/import/importer.hpp"
#include "core/store/bar_store.hpp"

#include <chrono>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ashare::fetch {

// What a commit stored.
struct Committed {
  std::size_t units = 0;
  std::int64_t rows = 0;
};

class WriteBatch {
public:
  // Write into `store`, recording `source` as the bars' source.
  WriteBatch(store::BarStore& store, std::string source);
  WriteBatch(const WriteBatch&) = delete;
  WriteBatch& operator=(const WriteBatch&) = delete;
  // Roll back the units added and not committed.
  ~WriteBatch();

  // Write `rows` (one unit's bars, their factors set, each symbol's from `origins`) into the open
  // transaction, opening one; `record` saves what commits with the unit, just before the commit.
  void add(std::vector<import::ParsedRow>&& rows,
           const std::map<std::string, import::FactorOrigin>& origins,
           std::function<void(store::BarStore&)> record);

  // Return the number of units added since the last commit.
  std::size_t units() const { return m_records.size(); }

  // Return how long ago the first unit not yet committed was added (zero when none is).
  std::chrono::steady_clock::duration age() const;

  // Commit the units added since the last commit (none: nothing happens). The importer's refusal
  // (factors of another scale) is an error, and rolls every one of them back.
  Result<Committed> commit();

private:
  store::BarStore& m_store;
  import::ImportOptions m_options; // the loader keeps a reference
  import::ParsedFile m_file;       // no rows: what the loader asks of the file they come from
  std::optional<import::FileLoader> m_loader; // opened by the first unit with rows
  std::map<std::string, import::FactorOrigin> m_origins;
  std::vector<std::function<void(store::BarStore&)>> m_records; // a unit each, in order
  std::int64_t m_rows = 0;
  std::chrono::steady_clock::time_point m_opened;
};

} // namespace ashare::fetch
