// libpq, PostgreSQL's own client library, loaded on first use (issue 14). Linked at start, it
// brings about 24 shared libraries (Kerberos, LDAP, ...) into every process: measured here, a
// trivial program's start went from 0.57 ms to 3.4 ms, more than the whole of a one-shot SQLite
// query (P2). So only a process that opens a postgresql:// store pays for it, once.
#pragma once

#include <libpq-fe.h>

namespace ashare::store::postgres {

// The libpq functions ashare calls, resolved from libpq.so.5.
struct Libpq {
  decltype(&::PQconnectdb) connectdb;
  decltype(&::PQstatus) status;
  decltype(&::PQerrorMessage) error_message;
  decltype(&::PQfinish) finish;
  decltype(&::PQexec) exec;
  decltype(&::PQexecParams) exec_params;
  decltype(&::PQprepare) prepare;
  decltype(&::PQexecPrepared) exec_prepared;
  decltype(&::PQresultStatus) result_status;
  decltype(&::PQresultErrorField) result_error_field;
  decltype(&::PQresultErrorMessage) result_error_message;
  decltype(&::PQclear) clear;
  decltype(&::PQntuples) ntuples;
  decltype(&::PQnfields) nfields;
  decltype(&::PQgetvalue) getvalue;
  decltype(&::PQgetisnull) getisnull;
  decltype(&::PQgetlength) getlength;
  decltype(&::PQcmdTuples) cmd_tuples;
  decltype(&::PQsocket) socket;
  decltype(&::PQconsumeInput) consume_input;
  decltype(&::PQnotifies) notifies;
  decltype(&::PQfreemem) freemem;
  decltype(&::PQsetNoticeProcessor) set_notice_processor;
  decltype(&::PQtransactionStatus) transaction_status;
  decltype(&::PQputCopyData) put_copy_data;
  decltype(&::PQputCopyEnd) put_copy_end;
  decltype(&::PQgetResult) get_result;
};

// Return libpq, loading it on the first call (thread-safe). Throws std::runtime_error naming the
// library when it cannot be loaded (the libpq5 package is missing).
const Libpq& libpq();

} // namespace ashare::store::postgres
