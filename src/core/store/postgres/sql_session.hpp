// SqlSession (store/sql_session.hpp) on a PostgreSQL connection: a named statement is prepared
// once per connection, a statement without a name sent with its parameters for its one run.
#pragma once

#include "core/store/postgres/connection.hpp"
#include "core/store/sql_session.hpp"

#include <functional>

namespace ashare::store::postgres {

class PostgresSqlSession final : public SqlSession {
public:
  // Run statements on `connection`, calling `before_each` first (PostgresBarStore writes the
  // rows it holds back, so that a statement sees them). Both must outlive this.
  PostgresSqlSession(Connection& connection, std::function<void()> before_each)
    : m_connection(connection), m_before_each(std::move(before_each)) {}

  const SqlDialect& dialect() const override;
  void run(const SqlStatement& statement,
           std::span<const SqlValue> params,
           const SqlRowReader& each_row) override;
  using SqlSession::run;

private:
  Connection& m_connection;
  std::function<void()> m_before_each;
};

} // namespace ashare::store::postgres
