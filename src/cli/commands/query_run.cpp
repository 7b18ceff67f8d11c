#include "cli/commands/query_run.hpp"
#include "core/api/dispatch.hpp"

#include "core/api/json.hpp"

#include <CLI/CLI.hpp>
#include <iostream>

namespace ashare::cli {

void add_output_options(CLI::App& command, GlobalFlags& flags, QueryOutputArgs& args) {
  command.add_option("--format", flags.format,
                     "Output: table (default on a terminal), csv (otherwise), json, ndjson")
    ->type_name("FORMAT"); // checked with ASHARE_FORMAT and the file's, by resolve_config
  command.add_flag("--no-header", args.no_header, "csv: leave out the header row");
}

int report_api_error(const Reply& reply) {
  const auto error = api::error_from_json(reply.body);
  if (!error) {
    return fail("HTTP " + std::to_string(reply.status) + " with an unexpected body");
  }
  return fail_with(*error);
}

bool explain_if_empty(Transport& transport) {
  if (auto as_of = fetch_as_of(transport); !as_of) {
    fail(as_of.error().message);
    return true;
  }
  return false;
}

int report_query_error(const Error& error, Transport& transport) {
  return report_query_error(Reply{error_info(error.code).http_status, api::error_to_json(error)},
                            transport);
}

int report_query_error(const Reply& reply, Transport& transport) {
  const auto error = api::error_from_json(reply.body);
  if (error && error->code == ErrorCode::invalid_symbol) {
    // An empty store makes every symbol unknown: say what to do instead (issue 5).
    if (explain_if_empty(transport)) {
      return k_exit_error;
    }
  }
  return report_api_error(reply);
}

Result<domain::Date> fetch_as_of(Transport& transport) {
  const auto reply = transport.get(std::string(api::k_health_path));
  if (reply.status != 200) {
    return make_error(ErrorCode::internal, std::string(api::k_health_path) + " answered HTTP "
                                             + std::to_string(reply.status));
  }
  auto as_of = api::health_as_of_from_json(reply.body);
  if (!as_of) {
    return as_of.error();
  }
  if (!*as_of) {
    return make_error(ErrorCode::invalid_symbol,
                      "no data in " + transport.describe()
                        + ": import some first (ashare import FILE..., or scripts/load-sample.sh "
                          "of the source tree for the bundled sample) or set a base URL "
                          "(--base-url or ASHARE_BASE_URL)");
  }
  return **as_of;
}

Result<Window> resolve_window(Transport& transport,
                              const std::optional<std::string>& from,
                              const std::optional<std::string>& to,
                              const std::function<domain::Date(domain::Date)>& before) {
  Window window{from.value_or(""), to.value_or("")};
  if (!window.to.empty() && !window.from.empty()) {
    return window;
  }
  auto as_of = fetch_as_of(transport);
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

namespace {

// Follow item `index`'s next_url through its pages, parsing each with `parse` and appending its
// single item to the item with `append`: bars and indicator values page alike (D8, D9).
template <class Response, class Parse, class Append>
Result<bool> follow_pages(
  Transport& transport, Response& response, std::size_t index, Parse parse, Append append) {
  bool paged = false;
  while (response.next_urls[index]) {
    const auto reply = transport.get(*response.next_urls[index]);
    if (reply.status != 200) {
      return make_error(ErrorCode::internal, "paging " + *response.next_urls[index] + ": HTTP "
                                               + std::to_string(reply.status));
    }
    auto page = parse(reply.body);
    if (!page) {
      return page.error();
    }
    append(response.items[index], page->items.front());
    response.next_urls[index] = page->next_urls.front();
    paged = true;
  }
  return paged;
}

} // namespace

Result<bool> follow_bar_pages(Transport& transport, api::BarsResponse& response, std::size_t index) {
  return follow_pages(transport, response, index, api::bars_from_json,
                      [](query::SymbolBars& item, const query::SymbolBars& page) {
                        item.bars.insert(item.bars.end(), page.bars.begin(), page.bars.end());
                      });
}

Result<bool>
follow_indicator_pages(Transport& transport, api::IndicatorResponse& response, std::size_t index) {
  return follow_pages(transport, response, index, api::indicators_from_json,
                      [](query::SymbolValues& item, const query::SymbolValues& page) {
                        item.values.insert(item.values.end(), page.values.begin(),
                                           page.values.end());
                        item.has_more = page.has_more;
                      });
}

RemoteOptions default_remote_options() {
  return RemoteOptions{};
}

} // namespace ashare::cli
