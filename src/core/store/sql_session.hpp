// The few SQL operations the market record (store/market_record.hpp) needs of a backend's
// connection, so that its statements are written once for SQLite and PostgreSQL: run a statement
// with parameters and read its rows. Each data store provides one on the connection its bars use
// (store/sqlite_sql_session.hpp, store/postgres/sql_session.hpp), so what runs through it joins
// the store's transactions.
//
// The SQL both backends read: parameters are `$1`, `$2`, ... (SQLite takes them as named
// parameters, bound by name); text, integers and NULL only (a boolean is the integer 0 or 1,
// which PostgreSQL reads as a boolean column's value). What still differs is SqlDialect's.
#pragma once

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>

namespace ashare::store {

// What a backend's SQL spells differently, appended where the statement needs it.
struct SqlDialect {
  // Follows a text column in ORDER BY to order by its bytes, as std::string compares:
  // PostgreSQL's default collation need not, SQLite's (BINARY) does.
  std::string byte_order;
};

// A statement's parameter: NULL, an integer or text (viewed: it must outlive the call).
class SqlValue {
public:
  SqlValue(std::nullopt_t) {}
  SqlValue(std::int64_t value) : m_value(value) {}
  SqlValue(int value) : m_value(std::int64_t{value}) {}
  SqlValue(std::string_view text) : m_value(text) {}
  SqlValue(const std::string& text) : m_value(std::string_view(text)) {}
  SqlValue(const char* text) : m_value(std::string_view(text)) {}
  SqlValue(std::optional<std::int64_t> value) {
    if (value) {
      m_value = *value;
    }
  }

  bool is_null() const { return std::holds_alternative<std::monostate>(m_value); }
  // Return the integer, or nullptr when this is not one.
  const std::int64_t* integer() const { return std::get_if<std::int64_t>(&m_value); }
  // Return the text, or nullptr when this is not text.
  const std::string_view* text() const { return std::get_if<std::string_view>(&m_value); }

private:
  std::variant<std::monostate, std::int64_t, std::string_view> m_value;
};

// One row of a statement's result, valid while the callback that receives it runs.
class SqlRow {
public:
  virtual bool is_null(int column) const = 0;
  virtual std::int64_t int64(int column) const = 0;
  virtual std::string_view text(int column) const = 0;

  // Return the integer in `column`, or nullopt when it is NULL.
  std::optional<std::int64_t> optional_int64(int column) const {
    return is_null(column) ? std::nullopt : std::optional(int64(column));
  }

protected:
  ~SqlRow() = default;
};

// A statement: its SQL, and the name it is prepared under on a connection (kept for the
// connection's life), or "" for one run once (SQL built per call, as a batch of rows).
struct SqlStatement {
  std::string name;
  std::string sql;
};

using SqlRowReader = std::function<void(const SqlRow&)>;

class SqlSession {
public:
  virtual ~SqlSession() = default;

  // Return how this backend spells what SqlDialect names.
  virtual const SqlDialect& dialect() const = 0;

  // Run `statement` with `params` ($1 is params[0]) and hand each row of its result to
  // `each_row` (which may be empty when the statement returns none). Throws the backend's
  // exception when the statement fails.
  virtual void run(const SqlStatement& statement,
                   std::span<const SqlValue> params,
                   const SqlRowReader& each_row) = 0;

  // Run as above with the braced list `params`.
  void run(const SqlStatement& statement,
           std::initializer_list<SqlValue> params,
           const SqlRowReader& each_row = {}) {
    run(statement, std::span(params.begin(), params.size()), each_row);
  }
};

} // namespace ashare::store
