// What the query commands share: the backend's errors as messages and exit statuses, learning
// as_of, the default window, paging through next_url, the --format/--no-header options, and
// run_query(): the one run of a query that `bars` and the seven indicator commands take alike.
#pragma once

#include "cli/backend.hpp"
#include "cli/commands/command.hpp"
#include "cli/output/formats.hpp"
#include "core/api/json.hpp"
#include "core/api/typed_request.hpp"
#include "core/domain/date.hpp"

#include <cstddef>
#include <functional>
#include <optional>
#include <string>

namespace CLI {
class App;
}

namespace ashare::cli {

// Options every query command takes.
struct QueryOutputArgs {
  bool no_header = false;
};

// Declare --format (written to `flags.format`) and --no-header on `command`.
void add_output_options(CLI::App& command, GlobalFlags& flags, QueryOutputArgs& args);

// Print `error` as "ashare: error: CODE: message" and return its exit status; an INVALID_SYMBOL
// from a store without any data says how to get data (import, or a base URL) instead.
int report_query_error(const Error& error, Backend& backend);

// When `backend` has no data at all, print how to get some and return true.
bool explain_if_empty(Backend& backend);

// Return the data's as_of (a health check); an error message (exit 1) when the store has no data.
Result<domain::Date> fetch_as_of(Backend& backend);

// A bars window as the API takes it: two dates, or what the user typed for the API to judge.
struct Window {
  std::string from;
  std::string to;
};

// Return the window of `from` and `to` with their defaults: TO is as_of (asked of `backend`
// only when needed), FROM is `before(TO)`; a TO that is not a date is also FROM, for the API to
// report. Fails with fetch_as_of's error.
Result<Window> resolve_window(Backend& backend,
                              const std::optional<std::string>& from,
                              const std::optional<std::string>& to,
                              const std::function<domain::Date(domain::Date)>& before);

// Ask `backend` for the next pages of item `index` of `response`, the answer to `request`, until
// its window is exhausted, appending them (D8: a summary then describes every bar); return
// whether there was a next page. A page that is refused fails.
Result<bool> follow_pages(Backend& backend,
                          const api::BarsRequest& request,
                          api::BarsResponse& response,
                          std::size_t index);

// As above, for indicator values (D9).
Result<bool> follow_pages(Backend& backend,
                          const api::IndicatorRequest& request,
                          api::IndicatorResponse& response,
                          std::size_t index);

// What one query command prints and says once its request is answered.
template <class Response> struct QueryOutput {
  bool whole_window = false; // every bar or value of the window: follow next_url
  std::function<void(const Response& response)> print;
  // Return the note on item `i` of `response` when it has more than was printed (a next_url
  // left), or "" for none.
  std::function<std::string(const Response& response, std::size_t i)> more_note;
};

// Answer `request` (or report its error) through `backend`, page through it when
// `output.whole_window`, print it, then say for each item what was left out and whether its
// symbol is unknown. Return the exit status: the last unknown symbol's (D1), or 1 when the store
// holds no data at all.
int run_query(Backend& backend,
              const Result<api::BarsRequest>& request,
              const QueryOutput<api::BarsResponse>& output);
int run_query(Backend& backend,
              const Result<api::IndicatorRequest>& request,
              const QueryOutput<api::IndicatorResponse>& output);

} // namespace ashare::cli
