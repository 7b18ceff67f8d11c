#include "core/store/postgres/libpq.hpp"

#include <dlfcn.h>

#include <stdexcept>
#include <string>

namespace ashare::store::postgres {
namespace {

constexpr const char* k_library = "libpq.so.5";

template <class Function> void resolve(void* library, Function& function, const char* name) {
  void* symbol = dlsym(library, name);
  if (symbol == nullptr) {
    throw std::runtime_error(std::string("cannot use PostgreSQL: ") + k_library + " has no "
                             + name);
  }
  function = reinterpret_cast<Function>(symbol);
}

Libpq load() {
  // Never unloaded: the functions stay valid for the life of the process.
  void* library = dlopen(k_library, RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) {
    const char* why = dlerror();
    throw std::runtime_error(std::string("cannot use PostgreSQL: cannot load ") + k_library
                             + " (install the libpq5 package)" + (why ? std::string(": ") + why : ""));
  }
  Libpq pq{};
  resolve(library, pq.connectdb, "PQconnectdb");
  resolve(library, pq.status, "PQstatus");
  resolve(library, pq.error_message, "PQerrorMessage");
  resolve(library, pq.finish, "PQfinish");
  resolve(library, pq.exec, "PQexec");
  resolve(library, pq.exec_params, "PQexecParams");
  resolve(library, pq.prepare, "PQprepare");
  resolve(library, pq.exec_prepared, "PQexecPrepared");
  resolve(library, pq.result_status, "PQresultStatus");
  resolve(library, pq.result_error_field, "PQresultErrorField");
  resolve(library, pq.result_error_message, "PQresultErrorMessage");
  resolve(library, pq.clear, "PQclear");
  resolve(library, pq.ntuples, "PQntuples");
  resolve(library, pq.nfields, "PQnfields");
  resolve(library, pq.getvalue, "PQgetvalue");
  resolve(library, pq.getisnull, "PQgetisnull");
  resolve(library, pq.getlength, "PQgetlength");
  resolve(library, pq.cmd_tuples, "PQcmdTuples");
  resolve(library, pq.socket, "PQsocket");
  resolve(library, pq.consume_input, "PQconsumeInput");
  resolve(library, pq.notifies, "PQnotifies");
  resolve(library, pq.freemem, "PQfreemem");
  resolve(library, pq.set_notice_processor, "PQsetNoticeProcessor");
  resolve(library, pq.transaction_status, "PQtransactionStatus");
  resolve(library, pq.put_copy_data, "PQputCopyData");
  resolve(library, pq.put_copy_end, "PQputCopyEnd");
  resolve(library, pq.get_result, "PQgetResult");
  return pq;
}

} // namespace

const Libpq& libpq() {
  static const Libpq loaded = load(); // C++ guarantees one thread loads it
  return loaded;
}

} // namespace ashare::store::postgres
