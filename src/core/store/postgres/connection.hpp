// One connection to a PostgreSQL server through libpq (store/postgres/libpq.hpp), with what the
// stores need of it: statements with text parameters, prepared once per connection, results read
// as text, transactions, and errors that say whether the server is unreachable (D15) without ever
// showing a password (the locator is redacted in every message).
#pragma once

#include "core/store/store_unavailable.hpp"

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

struct pg_conn;
struct pg_result;

namespace ashare::store::postgres {

// A statement that the server refused (a constraint, a syntax error, a serialization failure):
// the connection stays usable.
class StatementError : public std::runtime_error {
public:
  StatementError(const std::string& message, std::string sqlstate)
    : std::runtime_error(message), m_sqlstate(std::move(sqlstate)) {}
  const std::string& sqlstate() const { return m_sqlstate; }

private:
  std::string m_sqlstate;
};

// A statement's parameter: text as PostgreSQL reads it, or NULL.
class Param {
public:
  Param(std::nullopt_t) {}
  Param(std::string text) : m_text(std::move(text)) {}
  Param(const char* text) : m_text(text) {}
  Param(std::int64_t value) : m_text(std::to_string(value)) {}
  Param(int value) : m_text(std::to_string(value)) {}
  template <class T> Param(const std::optional<T>& value) {
    if (value) {
      *this = Param(*value);
    }
  }
  // Return bytes as a bytea literal in hex ("\x00ff...").
  static Param bytes(std::string_view raw);

  const char* c_str() const { return m_text ? m_text->c_str() : nullptr; }

private:
  std::optional<std::string> m_text;
};

// A statement's rows, as text.
class Result {
public:
  explicit Result(pg_result* result) : m_result(result) {}
  Result(Result&& other) noexcept : m_result(std::exchange(other.m_result, nullptr)) {}
  Result& operator=(Result&& other) noexcept;
  ~Result();

  int rows() const;
  // Return the rows an INSERT, UPDATE or DELETE changed.
  std::int64_t changed() const;
  bool is_null(int row, int column) const;
  std::string_view text(int row, int column) const;
  std::int64_t int64(int row, int column) const;
  std::optional<std::int64_t> optional_int64(int row, int column) const;
  // Return a double precision column's value bit for bit (the server writes the shortest text
  // that reads back exactly: extra_float_digits above 0, which the stores set).
  double float64(int row, int column) const;
  std::optional<std::string> optional_text(int row, int column) const;
  // Return a bytea column's bytes (it arrives in hex).
  std::string bytes(int row, int column) const;

private:
  pg_result* m_result;
};

class Connection {
public:
  // Connect to `uri` (a postgresql:// URI). Throws StoreUnavailable when the server cannot be
  // reached, the message naming the redacted URI.
  explicit Connection(const std::string& uri);
  ~Connection();
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  // Run `sql`, which may hold several statements, without parameters.
  Result exec(const std::string& sql);

  // Run the one statement `sql` with `params` ($1, $2, ...).
  Result exec(const std::string& sql, std::initializer_list<Param> params) {
    return exec(sql, std::span(params.begin(), params.size()));
  }
  Result exec(const std::string& sql, std::span<const Param> params);

  // Run `sql` with `params` as a statement prepared on this connection under `name` (prepared
  // on first use).
  Result run(const char* name, const char* sql, std::initializer_list<Param> params) {
    return run(name, sql, std::span(params.begin(), params.size()));
  }
  Result run(const char* name, const char* sql, std::span<const Param> params);

  // Run `copy_sql` (a COPY ... FROM STDIN) with `data`, its rows in COPY's text format.
  void copy_in(const std::string& copy_sql, std::string_view data);

  // Return whether the connection still works: false once the server went away (D15). A pool
  // drops a broken connection instead of lending it again.
  bool healthy() const;

  // Return the redacted URI, for messages.
  const std::string& where() const { return m_where; }

  pg_conn* raw() { return m_conn; }

  // Throw for `result` unless its status is one of success; takes ownership.
  Result check(pg_result* result);

private:
  pg_conn* m_conn = nullptr;
  std::string m_where;
  std::unordered_set<std::string> m_prepared;
};

// A transaction on `connection`, rolled back unless commit() is called.
class Transaction {
public:
  explicit Transaction(Connection& connection, const char* begin = "BEGIN");
  ~Transaction();
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;
  void commit();

private:
  Connection& m_connection;
  bool m_done = false;
};

} // namespace ashare::store::postgres
