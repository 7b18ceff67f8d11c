// What the query commands share: opening the transport, turning an API error reply into a message
// and an exit status, learning as_of, the default window, paging through next_url, and the
// --format/--no-header options.
#pragma once

#include "cli/commands/command.hpp"
#include "cli/output/formats.hpp"
#include "cli/remote/transport.hpp"
#include "core/api/json.hpp"
#include "core/domain/date.hpp"

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

// Print the API error of `reply` as "ashare: error: CODE: message" and return its exit status.
int report_api_error(const Reply& reply);

// As report_api_error, but an INVALID_SYMBOL from a store without any data says how to get data
// (import, or a base URL) instead.
int report_query_error(const Reply& reply, Transport& transport);

// As report_query_error, for `error` found before any request was sent (the API's own words).
int report_query_error(const Error& error, Transport& transport);

// When `transport` has no data at all, print how to get some and return true.
bool explain_if_empty(Transport& transport);

// Return the data's as_of from /healthz; an error message (exit 1) when the store has no data.
Result<domain::Date> fetch_as_of(Transport& transport);

// A bars window as the API takes it: two dates, or what the user typed for the API to judge.
struct Window {
  std::string from;
  std::string to;
};

// Return the window of `from` and `to` with their defaults: TO is as_of (asked of `transport`
// only when needed), FROM is `before(TO)`; a TO that is not a date is also FROM, for the API to
// report. Fails with fetch_as_of's error.
Result<Window> resolve_window(Transport& transport,
                              const std::optional<std::string>& from,
                              const std::optional<std::string>& to,
                              const std::function<domain::Date(domain::Date)>& before);

// Follow the next_url of item `index` of `response` until its window is exhausted, appending the
// bars; return whether there was a next page. A page that is not a 200 bars body fails.
Result<bool> follow_bar_pages(Transport& transport, api::BarsResponse& response, std::size_t index);

// Follow the next_url of item `index` of `response` until its range is exhausted, appending the
// values (D9); return whether there was a next page. A page that is not a 200 indicator body fails.
Result<bool>
follow_indicator_pages(Transport& transport, api::IndicatorResponse& response, std::size_t index);

// Return the usual remote options (retries, timeouts) from the environment-free defaults.
RemoteOptions default_remote_options();

} // namespace ashare::cli
