#include "core/store/postgres/connection.hpp"

#include "core/domain/text.hpp"
#include "core/store/locator.hpp"
#include "core/store/postgres/libpq.hpp"

#include <charconv>
#include <vector>

namespace ashare::store::postgres {
namespace {

// PostgreSQL's notices (a table that already exists, ...) are not the user's business.
void ignore_notice(void*, const char*) {}

// Return libpq's message without its trailing newline.
std::string trimmed(const char* message) {
  std::string out = message != nullptr ? message : "";
  while (!out.empty() && (out.back() == '\n' || out.back() == ' ')) {
    out.pop_back();
  }
  return out;
}

// Return whether SQLSTATE `state` says the server went away rather than refused the statement:
// class 08 (connection exception), a shutdown (57P01-57P03), or too many connections (53300).
bool means_unavailable(std::string_view state) {
  return state.starts_with("08") || state == "57P01" || state == "57P02" || state == "57P03"
         || state == "53300";
}

char hex_digit(unsigned value) {
  return static_cast<char>(value < 10 ? '0' + value : 'a' + value - 10);
}

std::vector<const char*> values_of(std::span<const Param> params) {
  std::vector<const char*> values;
  values.reserve(params.size());
  for (const auto& param : params) {
    values.push_back(param.c_str());
  }
  return values;
}

} // namespace

Param Param::bytes(std::string_view raw) {
  std::string text = "\\x";
  text.reserve(2 + 2 * raw.size());
  for (const char c : raw) {
    const auto byte = static_cast<unsigned char>(c);
    text += hex_digit(byte >> 4);
    text += hex_digit(byte & 0xf);
  }
  return Param(std::move(text));
}

Result& Result::operator=(Result&& other) noexcept {
  if (this != &other) {
    if (m_result != nullptr) {
      libpq().clear(m_result);
    }
    m_result = std::exchange(other.m_result, nullptr);
  }
  return *this;
}

Result::~Result() {
  if (m_result != nullptr) {
    libpq().clear(m_result);
  }
}

int Result::rows() const { return libpq().ntuples(m_result); }

std::int64_t Result::changed() const {
  const std::string_view text = libpq().cmd_tuples(m_result);
  std::int64_t value = 0;
  std::from_chars(text.data(), text.data() + text.size(), value);
  return value;
}

bool Result::is_null(int row, int column) const {
  return libpq().getisnull(m_result, row, column) != 0;
}

std::string_view Result::text(int row, int column) const {
  return std::string_view(libpq().getvalue(m_result, row, column),
                          static_cast<std::size_t>(libpq().getlength(m_result, row, column)));
}

std::int64_t Result::int64(int row, int column) const {
  const auto value = text(row, column);
  std::int64_t out = 0;
  const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), out);
  if (error != std::errc{} || end != value.data() + value.size()) {
    throw std::runtime_error("PostgreSQL returned \"" + std::string(value)
                             + "\" where an integer was expected");
  }
  return out;
}

double Result::float64(int row, int column) const {
  const auto value = text(row, column);
  double out = 0;
  const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), out);
  if (error != std::errc{} || end != value.data() + value.size()) {
    throw std::runtime_error("PostgreSQL returned \"" + std::string(value)
                             + "\" where a number was expected");
  }
  return out;
}

std::optional<std::int64_t> Result::optional_int64(int row, int column) const {
  if (is_null(row, column)) {
    return std::nullopt;
  }
  return int64(row, column);
}

std::optional<std::string> Result::optional_text(int row, int column) const {
  if (is_null(row, column)) {
    return std::nullopt;
  }
  return std::string(text(row, column));
}

std::string Result::bytes(int row, int column) const {
  const auto value = text(row, column);
  std::string out;
  if (value.size() < 2 || value[0] != '\\' || value[1] != 'x' || value.size() % 2 != 0) {
    throw std::runtime_error("PostgreSQL returned a bytea value not in hex");
  }
  out.reserve((value.size() - 2) / 2);
  for (std::size_t i = 2; i < value.size(); i += 2) {
    const int high = domain::hex_value(value[i]), low = domain::hex_value(value[i + 1]);
    if (high < 0 || low < 0) {
      throw std::runtime_error("PostgreSQL returned a bytea value not in hex");
    }
    out += static_cast<char>(high * 16 + low);
  }
  return out;
}

Connection::Connection(const std::string& uri) : m_where(redacted_locator(uri)) {
  const auto& pq = libpq();
  m_conn = pq.connectdb(uri.c_str());
  if (m_conn == nullptr) {
    throw std::bad_alloc();
  }
  if (pq.status(m_conn) != CONNECTION_OK) {
    // libpq's message names the host and the reason, never the password.
    const std::string why = trimmed(pq.error_message(m_conn));
    pq.finish(m_conn);
    m_conn = nullptr;
    throw StoreUnavailable("cannot connect to " + m_where + ": " + why);
  }
  pq.set_notice_processor(m_conn, ignore_notice, nullptr);
}

Connection::~Connection() {
  if (m_conn != nullptr) {
    libpq().finish(m_conn);
  }
}

bool Connection::healthy() const {
  return m_conn != nullptr && libpq().status(m_conn) == CONNECTION_OK;
}

Result Connection::check(pg_result* raw) {
  Result result(raw);
  const auto& pq = libpq();
  const auto status = raw != nullptr ? pq.result_status(raw) : PGRES_FATAL_ERROR;
  if (status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK || status == PGRES_COPY_IN) {
    return result;
  }
  const char* state = raw != nullptr ? pq.result_error_field(raw, PG_DIAG_SQLSTATE) : nullptr;
  const std::string sqlstate = state != nullptr ? state : "";
  const std::string why =
    trimmed(raw != nullptr ? pq.result_error_message(raw) : pq.error_message(m_conn));
  if (!healthy() || means_unavailable(sqlstate)) {
    throw StoreUnavailable(m_where + ": " + (why.empty() ? "connection lost" : why));
  }
  throw StatementError(m_where + ": " + why, sqlstate);
}

Result Connection::exec(const std::string& sql) {
  return check(libpq().exec(m_conn, sql.c_str()));
}

Result Connection::exec(const std::string& sql, std::span<const Param> params) {
  const auto values = values_of(params);
  return check(libpq().exec_params(m_conn, sql.c_str(), static_cast<int>(values.size()), nullptr,
                                   values.data(), nullptr, nullptr, 0));
}

Result Connection::run(const char* name, const char* sql, std::span<const Param> params) {
  const auto& pq = libpq();
  if (!m_prepared.contains(name)) {
    check(pq.prepare(m_conn, name, sql, static_cast<int>(params.size()), nullptr));
    m_prepared.insert(name);
  }
  const auto values = values_of(params);
  return check(pq.exec_prepared(m_conn, name, static_cast<int>(values.size()), values.data(),
                                nullptr, nullptr, 0));
}

void Connection::copy_in(const std::string& copy_sql, std::string_view data) {
  const auto& pq = libpq();
  check(pq.exec(m_conn, copy_sql.c_str())); // PGRES_COPY_IN: the server waits for the rows
  const bool sent = pq.put_copy_data(m_conn, data.data(), static_cast<int>(data.size())) == 1
                    && pq.put_copy_end(m_conn, nullptr) == 1;
  // The COPY's own result, then none; read them all so the connection is ready for the next
  // statement whatever happened.
  pg_result* result = pq.get_result(m_conn);
  while (pg_result* extra = pq.get_result(m_conn)) {
    pq.clear(extra);
  }
  if (!sent && result == nullptr) {
    throw StoreUnavailable(m_where + ": " + trimmed(pq.error_message(m_conn)));
  }
  check(result);
}

Transaction::Transaction(Connection& connection, const char* begin) : m_connection(connection) {
  m_connection.exec(begin);
}

Transaction::~Transaction() {
  if (!m_done && m_connection.healthy()) {
    try {
      m_connection.exec("ROLLBACK");
    } catch (...) {
      // The connection broke meanwhile: the server rolls the transaction back itself.
    }
  }
}

void Transaction::commit() {
  m_connection.exec("COMMIT");
  m_done = true;
}

} // namespace ashare::store::postgres
