#include "core/fetch/fetch_report.hpp"

namespace ashare::fetch {

int exit_status(FetchEnd end) {
  switch (end) {
  case FetchEnd::done:
  case FetchEnd::up_to_date:
  case FetchEnd::another_running:
  case FetchEnd::not_yet_published:
  case FetchEnd::planned:
    return 0;
  case FetchEnd::lagging:
  case FetchEnd::refused_row:
  case FetchEnd::refused:
    return 1;
  case FetchEnd::source_failing:
    return 3;
  case FetchEnd::quota_or_token:
    return 4;
  }
  return 1;
}

FetchEnd end_of(const Error& error) {
  return error.code == ErrorCode::service_unavailable ? FetchEnd::source_failing : FetchEnd::refused;
}

void finish_report(store::BarStore& store,
                   const std::string& provider,
                   const FetchOptions& options,
                   FetchReport& report) {
  for (const auto& row : store.market().load_ledger(provider)) {
    if (row.symbol.empty() && row.kind == domain::Kind::stock) { // D20: the stocks' rows
      report.ledger_end = row.trade_date; // ascending: the last one
    }
  }
  if (report.plan) {
    const auto since = report.ledger_end ? report.ledger_end->plus_days(1) : report.plan->start;
    report.days_behind = static_cast<std::int64_t>(
        store.market().load_open_days(since, report.plan->last_completed).size());
  }
  if (options.max_lag && report.days_behind > *options.max_lag && exit_status(report.end) == 0) {
    report.end = FetchEnd::lagging;
    report.message = "the store is " + std::to_string(report.days_behind) + " open days behind "
                     + report.plan->last_completed.iso() + " (--max-lag "
                     + std::to_string(*options.max_lag) + ")";
  }
}

} // namespace ashare::fetch
