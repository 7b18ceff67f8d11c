// The market record: what a data store knows of the market besides its bars (D18, D19): the
// exchange's calendar, listings, suspensions, absence marks, the fetch ledger and the code
// aliases. A data store holds one on the connection its bars use (BarStore::market()), so its
// reads and writes join the store's ReadTransaction and WriteTransaction: a fetched day's bars
// and its ledger row commit together. One implementation for both backends
// (store/market_record.cpp), over the small SqlSession each provides (store/sql_session.hpp).
//
// D20's kinds of symbol and index membership are more of the same record; the gap counts kept
// per data generation that the status route reads (issue 45) belong here too.
#pragma once

#include "core/domain/date.hpp"
#include "core/domain/kind.hpp"
#include "core/store/sql_session.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ashare::store {

// D19: a symbol's listing, as Tushare `stock_basic` gives it (`list_status` L, D or P), and D20:
// `index_basic` and `fund_basic` (list and delist or expiry dates), each list saying its kind.
struct Listing {
  std::string symbol; // canonical
  std::string name;
  std::optional<domain::Date> list_date;
  std::optional<domain::Date> delist_date;
  char status = 'L'; // L listed, D delisted, P paused
  domain::Kind kind = domain::Kind::stock; // the list it came from; rows stored before D20: stock
};

// D19: a code that became another (the Beijing exchange's 43/83/87xxxx -> 920xxx): either answers
// the one series.
struct CodeAlias {
  std::string old_symbol; // canonical
  std::string new_symbol;

  bool operator==(const CodeAlias&) const = default;
};

// D18: what a fetch stored: `provider`'s bars of `trade_date` for the whole market (`symbol`
// empty) or for one named symbol.
// D20: the ledger is per kind: a day is whole for a kind once that kind's rows are stored (rows
// stored before D20 are the stocks').
struct LedgerDay {
  std::string provider; // "tushare-pro" or "tdx"
  domain::Date trade_date;
  std::string symbol;    // "" for the whole market
  std::int64_t rows = 0; // bars the source gave for that day (and symbol)
  domain::Kind kind = domain::Kind::stock;
};

// D20: one row of an index's membership snapshot as Tushare `index_weight` gives it (filed
// under `index_symbol` as ashare names it: 000300.SH, whatever code it was asked by).
struct MemberWeight {
  std::string symbol;    // canonical, the member
  double weight = 0;     // percent, as given
};

// D20: the source of a membership span.
enum class MemberSource { tushare, import };

// D20: `symbol` was a member of `index_symbol` from `first_date` through `last_date` (both open
// days, inclusive; nullopt while a member).
struct MemberSpan {
  std::string index_symbol; // canonical
  std::string symbol;
  domain::Date first_date;
  std::optional<domain::Date> last_date;
  MemberSource source = MemberSource::tushare;

  bool operator==(const MemberSpan&) const = default;
};

// D19: a day without a bar of `symbol` that `provider` was asked for again and does not have.
struct Absence {
  std::string symbol;
  domain::Date trade_date;
  std::string provider;
};

class MarketRecord {
public:
  // Keep the record through `sql`, which must outlive this (its store's connection).
  explicit MarketRecord(SqlSession& sql);
  ~MarketRecord();
  MarketRecord(const MarketRecord&) = delete;
  MarketRecord& operator=(const MarketRecord&) = delete;

  // Writes go inside a WriteTransaction of the store this record belongs to.

  // ---- D19: the calendar, every day of its span open or closed ----

  // Return the open days in [`from`, `to`], ascending.
  std::vector<domain::Date> load_open_days(domain::Date from, domain::Date to);

  // Return the first and last day the calendar covers (open or closed), or nullopt when empty.
  std::optional<std::pair<domain::Date, domain::Date>> load_calendar_span();

  // Replace the calendar over [`from`, `to`]: the days in `open_days` are open, every other day
  // of the span closed. Days outside the span keep what they were.
  void save_calendar(domain::Date from,
                     domain::Date to,
                     const std::vector<domain::Date>& open_days);

  // ---- D19: listings ----

  // Return every listing, ordered by symbol.
  std::vector<Listing> load_listings();

  // Insert or replace the listing of `listing.symbol`.
  void save_listing(const Listing& listing);

  // ---- D19: suspensions and absence marks, two of a missing bar's reasons ----

  // Return the days `symbol` was suspended (the source's list), ascending.
  std::vector<domain::Date> load_suspensions(const std::string& symbol);

  // Return every (symbol, day) of the suspension list, by symbol then day.
  std::vector<std::pair<std::string, domain::Date>> load_suspensions();

  // Record that `symbol` was suspended on `date` (a second record is ignored).
  void save_suspension(const std::string& symbol, domain::Date date);

  // Return the days `symbol` is marked absent at its source, ascending (by day, then provider);
  // every symbol's, by symbol first, when `symbol` is "".
  std::vector<Absence> load_absences(const std::string& symbol);

  // Record `absence` (a second record is ignored); delete_absence() forgets it once a bar comes.
  void save_absence(const Absence& absence);

  // Forget the absence marks of `symbol` on `date`, every provider's.
  void delete_absence(const std::string& symbol, domain::Date date);

  // ---- D18: the fetch ledger ----

  // Return the ledger rows of `provider` ("" for every provider), ascending by date then symbol.
  std::vector<LedgerDay> load_ledger(const std::string& provider);

  // Insert or replace the ledger row of (`day.provider`, `day.trade_date`, `day.kind`,
  // `day.symbol`). The store's finish_change() reads the stock rows for as_of: write it before.
  void save_ledger_day(const LedgerDay& day);

  // Delete the ledger rows of `provider` on `date` of `kind` that name a symbol: a provider that
  // stages per symbol (TDX) replaces them by the kind's whole-market row once every symbol of the
  // kind is stored through `date`.
  void forget_symbol_ledger_days(const std::string& provider,
                                 domain::Date date,
                                 domain::Kind kind = domain::Kind::stock);

  // ---- D19: code aliases ----

  // Return the code aliases, ordered by old symbol.
  std::vector<CodeAlias> load_aliases();

  // Return the alias in which `symbol` is the old or the new code, if any (save_alias keeps a
  // code in one pair): what a one-shot query reads instead of every alias (issue 43, P2).
  std::optional<CodeAlias> load_alias_of(const std::string& symbol);

  // Record that `alias.old_symbol` became `alias.new_symbol`, replacing any alias of either. Call
  // inside a change (finish_change bumps the generation: what either code answers changed).
  void save_alias(const CodeAlias& alias);

  // ---- D20: kinds and index membership ----

  // Return the kind of canonical `symbol`: its listing's when it has one, else by its code
  // (domain::kind_of_code), nullopt for a code D20 keeps out.
  std::optional<domain::Kind> load_kind(const std::string& symbol);

  // Return the days of `index_symbol`'s snapshots, ascending.
  std::vector<domain::Date> load_snapshot_days(const std::string& index_symbol);

  // Return `index_symbol`'s snapshot of `day` (empty when there is none), by symbol.
  std::vector<MemberWeight> load_snapshot(const std::string& index_symbol, domain::Date day);

  // Replace `index_symbol`'s snapshot of `day` by `members` (their weights keep every digit of
  // the text they were read from, D12). The spans derived from the snapshots are
  // members::refresh_tushare_spans()'s to write.
  void save_snapshot(const std::string& index_symbol,
                     domain::Date day,
                     const std::vector<MemberWeight>& members);

  // Return the spans of `index_symbol` from `source`, by symbol then first day; every index's
  // (by index first) when `index_symbol` is "".
  std::vector<MemberSpan> load_member_spans(const std::string& index_symbol, MemberSource source);

  // Return the spans of `index_symbol` from `source` in force on `day` (both ends inclusive, an
  // open span from its first day on), by symbol then first day.
  std::vector<MemberSpan> load_member_spans_on(const std::string& index_symbol,
                                               MemberSource source,
                                               domain::Date day);

  // Return whether `index_symbol` has any span from `source`.
  bool has_member_spans(const std::string& index_symbol, MemberSource source);

  // Replace `index_symbol`'s spans from `source` by `spans` (each of that index and source).
  // Call inside a change (finish_change bumps the generation: what the members route answers
  // changed).
  void save_member_spans(const std::string& index_symbol,
                         MemberSource source,
                         const std::vector<MemberSpan>& spans);

  // Return the indices that have snapshots or spans from any source, ascending.
  std::vector<std::string> load_member_indices();

private:
  struct Statements;
  SqlSession& m_sql;
  std::unique_ptr<const Statements> m_statements;
};

// D19: write what `from` records into `to` (copy_bars() does, in its transaction of `to`). The
// calendar of `to` is replaced over the span of `from`'s: the source's is what its bars and
// ledger were judged by.
void copy_market_record(MarketRecord& from, MarketRecord& to);

} // namespace ashare::store
