#include "core/fetch/tdx/verify_source.hpp"

#include "core/fetch/tdx/bars.hpp"
#include "core/fetch/tdx/universe.hpp"

namespace ashare::fetch::tdx {
namespace {

// As fetch tdx: far enough back that the bar before the window is in the first page.
constexpr int k_lookback_days = 400;

SourceAnswer failed(SourceAnswer answer, const Error& error, const std::string& what) {
  answer.end = end_of(error);
  answer.message = "tdx: " + what + error.message;
  return answer;
}

} // namespace

SourceAnswer verify_source(Client& client, const std::vector<std::string>& symbols, domain::Date from,
                           domain::Date to, domain::Date latest) {
  SourceAnswer answer;
  answer.bars.provider = "tdx";
  answer.bars.float32_sizes = true;
  auto listed = universe_of(client, symbols);
  if (!listed) {
    return failed(std::move(answer), listed.error(), "");
  }
  for (const auto& symbol : *listed) {
    auto bars = client.daily_bars(symbol.market, symbol.code, from.plus_days(-k_lookback_days));
    if (!bars) {
      return failed(std::move(answer), bars.error(), symbol.symbol + ": ");
    }
    auto events = client.ex_rights(symbol.market, symbol.code);
    if (!events) {
      return failed(std::move(answer), events.error(), symbol.symbol + ": ");
    }
    std::erase_if(*bars, [&](const RawBar& bar) { return to < bar.day; });
    const auto file = rows_of_bars(symbol.symbol, *bars, *events, std::nullopt, latest);
    for (const auto& problem : file.problems) {
      const auto day = (*bars)[static_cast<std::size_t>(problem.line - 1)].day;
      if (!(day < from)) {
        answer.bars.warnings.push_back("tdx (" + client.host() + "): " + symbol.symbol + ": " + problem.column
                                       + ": " + problem.message + " (left out: no bar from the source that day)");
      }
    }
    auto& out = answer.bars.bars[symbol.symbol];
    const import::ParsedRow* previous = nullptr;
    for (const auto& row : file.rows) {
      if (!(row.bar.trade_date < from)) {
        SourceBar bar{row.bar.trade_date, row.bar.open, row.bar.high, row.bar.low, row.bar.close,
                      row.bar.volume, row.bar.turnover, std::nullopt, 0};
        if (previous != nullptr && row.pre_close && *row.pre_close > 0) {
          bar.step = previous->bar.close / *row.pre_close;
        }
        out.push_back(bar);
      }
      previous = &row;
    }
  }
  answer.requests = client.requests();
  return answer;
}

} // namespace ashare::fetch::tdx
