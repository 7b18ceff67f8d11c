// What an answer of the API reads (a DataView), from wherever its data is: the store
// (api/store_view: a server's memory of it, or a one-shot command's rows) or remote mode's cache
// (remote/cached_remote), which first fills itself from the remote. Everything an answer decides
// is api/answer's; a view only reads. (Not a "source": meta.source, D8, and fetch's sources name
// where the data came from.)
#pragma once

#include "core/api/bars_item.hpp"
#include "core/api/typed_request.hpp"
#include "core/error.hpp"
#include "core/members/load_members.hpp"
#include "core/query/bar_query.hpp"
#include "core/query/catalog.hpp"
#include "core/query/indicator_query.hpp"
#include "core/store/bar_store.hpp"

#include <memory>
#include <span>
#include <string_view>
#include <variant>
#include <vector>

namespace ashare::api {

// Why a view cannot give what an answer reads: the answer must wait on the store (a server's
// network thread hands the request to a worker, which resumes it there), or the request must go
// to the remote as it is (remote mode: the cache cannot answer it as the remote would).
enum class Unanswered { wait, forward };

// What a view gives, or why it cannot.
template <class T> using Read = std::variant<T, Unanswered>;

// The catalog an answer is checked against: the dataset and the request's known symbols.
using CatalogRead = std::variant<std::shared_ptr<const query::Catalog>, Error, Unanswered>;

// What the members route reads (D20): the open day answered (nullopt for every span) and the
// members of the index on it, or every span.
struct IndexMembers {
  std::optional<domain::Date> day;
  members::MemberRead read;
};

class DataView {
public:
  virtual ~DataView() = default;

  // Return the catalog `request` is answered from: the dataset (as_of, source, generation) and
  // those of the request's symbols that are known, each with its latest factor (the D8 anchor).
  // The remote cache first fetches what `request` reads and it lacks; the remote's refusal of
  // that fetch is the Error.
  virtual CatalogRead catalog(const TypedRequest& request) = 0;

  // Return the item of `info` (a symbol of catalog()) with the bars that `query` returns
  // (query::pick_window), forward-adjusted to info.latest_factor when query.adjusted (D8), their
  // text in whatever form the view has it (BarsItem); no next_url.
  virtual Read<BarsItem> window(const store::SymbolInfo& info, const query::BarQuery& query) = 0;

  // Return the values of `info`'s indicator that `query` returns, computed over the symbol's
  // whole history (D9) and only then filtered, ordered and limited (query::select_values).
  virtual Read<query::SymbolValues> values(const store::SymbolInfo& info,
                                           const query::IndicatorQuery& query) = 0;

  // Return the members of `request`'s index (its date set: D20's default applied) on the open day
  // its date answers, or every span when it asks for history.
  virtual Read<IndexMembers> members(const MembersRequest& request) = 0;
};

} // namespace ashare::api
