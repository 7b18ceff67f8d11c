#include "core/store/postgres/sql_session.hpp"

#include <string>
#include <vector>

namespace ashare::store::postgres {
namespace {

// A row of a result, which arrives as text.
class PostgresRow final : public SqlRow {
public:
  PostgresRow(const Result& result, int row) : m_result(result), m_row(row) {}
  bool is_null(int column) const override { return m_result.is_null(m_row, column); }
  std::int64_t int64(int column) const override { return m_result.int64(m_row, column); }
  std::string_view text(int column) const override { return m_result.text(m_row, column); }

private:
  const Result& m_result;
  int m_row;
};

Param param_of(const SqlValue& value) {
  if (const auto* integer = value.integer()) {
    return Param(*integer);
  }
  if (const auto* text = value.text()) {
    return Param(std::string(*text));
  }
  return Param(std::nullopt);
}

} // namespace

const SqlDialect& PostgresSqlSession::dialect() const {
  static const SqlDialect postgres{" COLLATE \"C\""};
  return postgres;
}

void PostgresSqlSession::run(const SqlStatement& statement,
                             std::span<const SqlValue> params,
                             const SqlRowReader& each_row) {
  if (m_before_each) {
    m_before_each();
  }
  std::vector<Param> values;
  values.reserve(params.size());
  for (const auto& param : params) {
    values.push_back(param_of(param));
  }
  const auto result = statement.name.empty()
                        ? m_connection.exec(statement.sql, values)
                        : m_connection.run(statement.name.c_str(), statement.sql.c_str(), values);
  for (int row = 0; each_row && row < result.rows(); ++row) {
    each_row(PostgresRow(result, row));
  }
}

} // namespace ashare::store::postgres
