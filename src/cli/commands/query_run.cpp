#include "cli/commands/query_run.hpp"

#include "core/query/summary.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <iostream>

namespace ashare::cli {
namespace {

// Return the typed response `answered` of a request, or its error; nullopt for an answer of
// another kind (Unanswered never reaches the command line: the backends resolve it).
template <class Response> Result<Response> response_of(api::Answer answered) {
  if (auto* error = std::get_if<Error>(&answered)) {
    return std::move(*error);
  }
  if (auto* response = std::get_if<Response>(&answered)) {
    return std::move(*response);
  }
  return make_error(ErrorCode::internal, "the answer is of another kind than its request");
}

// D8: the summary describes the bars returned, which are now every page's.
void append_page(api::BarsResponse& response, std::size_t index, const api::BarsResponse& page) {
  auto& item = response.items[index];
  item.append(page.items.front().bars());
  if (item.summary) {
    item.summary = query::summarize(item.bars(), response.from, response.to);
  }
  item.next_url = page.items.front().next_url;
  response.credits_charged.reset(); // several pages: no one charge
}

void append_page(api::IndicatorResponse& response,
                 std::size_t index,
                 const api::IndicatorResponse& page) {
  auto& item = response.items[index];
  const auto& more = page.items.front().values;
  item.values.insert(item.values.end(), more.begin(), more.end());
  item.has_more = page.items.front().has_more;
  response.next_urls[index] = page.next_urls.front();
}

const std::optional<std::string>& next_url_of(const api::BarsResponse& response, std::size_t index) {
  return response.items[index].next_url;
}

const std::optional<std::string>& next_url_of(const api::IndicatorResponse& response,
                                              std::size_t index) {
  return response.next_urls[index];
}

domain::Date last_of(const api::BarsResponse& response, std::size_t index) {
  return response.items[index].bars().back().trade_date;
}

std::int64_t last_of(const api::IndicatorResponse& response, std::size_t index) {
  return response.items[index].values.back().timestamp;
}

// Ask for item `index`'s next pages (bars and indicator values page alike: D8, D9), each the
// request of the page before moved past its last bar or value.
template <class Request, class Response>
Result<bool> follow(Backend& backend, Request page, Response& response, std::size_t index) {
  const std::string symbol = page.query.symbols[index].str();
  bool paged = false;
  while (next_url_of(response, index)) {
    page = api::next_request(page, symbol, last_of(response, index));
    auto next = response_of<Response>(backend.answer(page));
    if (!next) {
      return make_error(ErrorCode::internal,
                        "paging " + page.to_target() + ": HTTP "
                          + std::to_string(error_info(next.error().code).http_status));
    }
    append_page(response, index, *next);
    paged = true;
  }
  return paged;
}

template <class Request, class Response>
int run(Backend& backend, const Result<Request>& request, const QueryOutput<Response>& output) {
  if (!request) {
    return report_query_error(request.error(), backend);
  }
  auto response = response_of<Response>(backend.answer(*request));
  if (!response) {
    return report_query_error(response.error(), backend);
  }
  for (std::size_t i = 0; output.whole_window && i < response->items.size(); ++i) {
    if (auto more = follow_pages(backend, *request, *response, i); !more) {
      return fail(more.error().message);
    }
  }
  output.print(*response);
  const bool none_known = std::none_of(response->items.begin(), response->items.end(),
                                       [](const auto& item) { return item.known; });
  if (none_known && explain_if_empty(backend)) {
    return k_exit_error;
  }
  int status = k_exit_ok;
  for (std::size_t i = 0; i < response->items.size(); ++i) {
    if (const auto more = output.more_note(*response, i); !more.empty()) {
      note(more);
    }
    if (const auto error = api::item_error(*response, i)) {
      status = fail_with(*error);
    }
  }
  return status;
}

} // namespace

void add_output_options(CLI::App& command, GlobalFlags& flags, QueryOutputArgs& args) {
  command.add_option("--format", flags.format,
                     "Output: table (default on a terminal), csv (otherwise), json, ndjson")
    ->type_name("FORMAT"); // checked with ASHARE_FORMAT and the file's, by resolve_config
  command.add_flag("--no-header", args.no_header, "csv: leave out the header row");
}

bool explain_if_empty(Backend& backend) {
  if (auto as_of = fetch_as_of(backend); !as_of) {
    fail(as_of.error().message);
    return true;
  }
  return false;
}

int report_query_error(const Error& error, Backend& backend) {
  // An empty store makes every symbol unknown: say what to do instead (issue 5).
  if (error.code == ErrorCode::invalid_symbol && explain_if_empty(backend)) {
    return k_exit_error;
  }
  return fail_with(error);
}

Result<domain::Date> fetch_as_of(Backend& backend) {
  auto health = response_of<api::HealthResponse>(backend.answer(api::HealthRequest{}));
  if (!health) {
    return make_error(ErrorCode::internal,
                      std::string(api::k_health_path) + " answered HTTP "
                        + std::to_string(error_info(health.error().code).http_status));
  }
  if (!health->dataset.as_of) {
    return make_error(ErrorCode::invalid_symbol,
                      "no data in " + backend.describe()
                        + ": import some first (ashare import FILE..., or scripts/load-sample.sh "
                          "of the source tree for the bundled sample) or set a base URL "
                          "(--base-url or ASHARE_BASE_URL)");
  }
  return *health->dataset.as_of;
}

Result<Window> resolve_window(Backend& backend,
                              const std::optional<std::string>& from,
                              const std::optional<std::string>& to,
                              const std::function<domain::Date(domain::Date)>& before) {
  Window window{from.value_or(""), to.value_or("")};
  if (!window.to.empty() && !window.from.empty()) {
    return window;
  }
  auto as_of = fetch_as_of(backend);
  if (!as_of) {
    return as_of.error();
  }
  if (window.to.empty()) {
    window.to = as_of->iso();
  }
  if (window.from.empty()) {
    auto end = domain::parse_iso_date(window.to, "TO");
    window.from = end ? before(*end).iso() : window.to;
  }
  return window;
}

Result<bool> follow_pages(Backend& backend,
                          const api::BarsRequest& request,
                          api::BarsResponse& response,
                          std::size_t index) {
  return follow(backend, request, response, index);
}

Result<bool> follow_pages(Backend& backend,
                          const api::IndicatorRequest& request,
                          api::IndicatorResponse& response,
                          std::size_t index) {
  return follow(backend, request, response, index);
}

int run_query(Backend& backend,
              const Result<api::BarsRequest>& request,
              const QueryOutput<api::BarsResponse>& output) {
  return run(backend, request, output);
}

int run_query(Backend& backend,
              const Result<api::IndicatorRequest>& request,
              const QueryOutput<api::IndicatorResponse>& output) {
  return run(backend, request, output);
}

} // namespace ashare::cli
