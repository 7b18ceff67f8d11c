#include "core/store/sqlite_sql_session.hpp"

#include <string>

namespace ashare::store {
namespace {

// A row of the statement on its current step.
class SqliteRow final : public SqlRow {
public:
  explicit SqliteRow(SQLite::Statement& statement) : m_statement(statement) {}
  bool is_null(int column) const override { return m_statement.getColumn(column).isNull(); }
  std::int64_t int64(int column) const override { return m_statement.getColumn(column).getInt64(); }
  std::string_view text(int column) const override {
    const auto value = m_statement.getColumn(column);
    const char* text = value.getText(); // before getBytes(), as SQLite asks
    return {text, static_cast<std::size_t>(value.getBytes())};
  }

private:
  SQLite::Statement& m_statement;
};

// Bind `params` to `statement` by name ($1, $2, ...: SQLite numbers named parameters in order of
// first appearance, which the SQL need not follow) and step through its rows.
void run_statement(SQLite::Statement& statement,
                   std::span<const SqlValue> params,
                   const SqlRowReader& each_row) {
  for (std::size_t i = 0; i < params.size(); ++i) {
    const auto name = "$" + std::to_string(i + 1);
    const int index = statement.getIndex(name.c_str());
    if (const auto* integer = params[i].integer()) {
      statement.bind(index, *integer);
    } else if (const auto* text = params[i].text()) {
      statement.bind(index, std::string(*text));
    } else {
      statement.bind(index);
    }
  }
  const SqliteRow row(statement);
  while (statement.executeStep()) {
    if (each_row) {
      each_row(row);
    }
  }
}

} // namespace

const SqlDialect& SqliteSqlSession::dialect() const {
  static const SqlDialect sqlite{""};
  return sqlite;
}

void SqliteSqlSession::run(const SqlStatement& statement,
                           std::span<const SqlValue> params,
                           const SqlRowReader& each_row) {
  if (statement.name.empty()) {
    SQLite::Statement once(m_db, statement.sql);
    run_statement(once, params, each_row);
    return;
  }
  ReusedStatement reused(m_statements, m_db, statement.sql); // reset when done
  run_statement(*reused, params, each_row);
}

} // namespace ashare::store
