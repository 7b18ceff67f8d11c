// SqlSession (store/sql_session.hpp) on a SQLite connection: a named statement is prepared once
// and reused, a statement without a name prepared for its one run.
#pragma once

#include "core/store/reused_statement.hpp"
#include "core/store/sql_session.hpp"

#include <SQLiteCpp/Database.h>

namespace ashare::store {

class SqliteSqlSession final : public SqlSession {
public:
  // Run statements on `db`, which must outlive this.
  explicit SqliteSqlSession(SQLite::Database& db) : m_db(db) {}

  const SqlDialect& dialect() const override;
  void run(const SqlStatement& statement,
           std::span<const SqlValue> params,
           const SqlRowReader& each_row) override;
  using SqlSession::run;

private:
  SQLite::Database& m_db;
  StatementCache m_statements; // by SQL; named statements only
};

} // namespace ashare::store
