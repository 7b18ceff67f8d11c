// A SQLite statement prepared once per connection and reused (store/sqlite_bar_store.hpp),
// for the writes and reads an import or a fetch repeats per symbol, per listing or per day.
#pragma once

#include <SQLiteCpp/Database.h>
#include <SQLiteCpp/Statement.h>

#include <memory>
#include <string>
#include <unordered_map>

namespace ashare::store {

// The statements of one connection, by their SQL.
using StatementCache = std::unordered_map<std::string, std::unique_ptr<SQLite::Statement>>;

// A statement of the per-symbol writes and reads (an import, a fetch a day at a time: issue 32)
// prepared once per connection and reused, with its bindings cleared; reset when this goes out of
// scope, since a statement left in the middle of its rows would hold the connection's read
// snapshot open.
class ReusedStatement {
public:
  ReusedStatement(StatementCache& cache,
                  SQLite::Database& db,
                  const std::string& sql) {
    auto& slot = cache[sql];
    if (!slot) {
      slot = std::make_unique<SQLite::Statement>(db, sql);
    }
    m_statement = slot.get();
    m_statement->clearBindings();
  }
  ~ReusedStatement() {
    try {
      m_statement->reset();
    } catch (const SQLite::Exception&) {
      // The error was the step's, reported there; reset only repeats it.
    }
  }
  ReusedStatement(const ReusedStatement&) = delete;
  ReusedStatement& operator=(const ReusedStatement&) = delete;
  SQLite::Statement* operator->() { return m_statement; }
  SQLite::Statement& operator*() { return *m_statement; }

private:
  SQLite::Statement* m_statement = nullptr;
};

} // namespace ashare::store
