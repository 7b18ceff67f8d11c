// `ashare fetch tushare` (D18, D19): bring the store up to the last completed trading day from
// Tushare Pro. The calendar (`trade_cal`) and the listings (`stock_basic`) are refreshed first;
// then each day of the plan is one transaction: the whole market's `daily` rows (paged), their
// factors continuing each stored chain (`adj_factor` where the token may, else the pre_close
// chain), the day's suspensions (`suspend_d`) and the ledger row, written through the importer.
#pragma once

#include "core/domain/date.hpp"
#include "core/fetch/fetch_report.hpp"
#include "core/fetch/plan.hpp"
#include "core/fetch/tushare/client.hpp"
#include "core/store/bar_store.hpp"

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace ashare::fetch::tushare {

inline constexpr const char* k_provider = "tushare-pro";

// Return how a fetch ends on `failure` (D18): quota or token 4, failing 3, else refused 1.
FetchEnd end_of(const CallFailure& failure);

// Run the fetch on `store` through `client`, calling `progress` as it goes.
FetchReport fetch_tushare(store::BarStore& store,
                          Client& client,
                          const FetchOptions& options,
                          const std::function<void(const FetchProgress&)>& progress = {});

} // namespace ashare::fetch::tushare
