// ashare members INDEX [--on DATE | --history] [--source S]: an index's members on a day, or every
// span of its membership (D20), as the members route answers them: in local mode from the store,
// in remote mode from the remote's route (`--format json` prints its body byte for byte).
#include "cli/backend.hpp"
#include "cli/commands/command.hpp"
#include "cli/commands/query_run.hpp"
#include "cli/output/formats.hpp"
#include "cli/output/table.hpp"
#include "core/api/members_json.hpp"
#include "core/api/members_request.hpp"
#include "core/domain/number.hpp"

#include <CLI/CLI.hpp>

#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ashare::cli {
namespace {

struct MembersArgs {
  api::MembersForm form;
  QueryOutputArgs output;
};

// The text of each column of `member`, as the CSV and the table write them (D12: every digit).
std::vector<std::string> member_cells(const std::string& index, const members::Member& member) {
  return {index,
          member.symbol,
          member.name,
          member.first_date.iso(),
          member.last_date ? member.last_date->iso() : "",
          member.weight ? domain::format_number(*member.weight) : "",
          std::string(members::source_name(member.source))};
}

void print_members_table(const api::MembersResponse& response) {
  std::vector<std::vector<std::string>> rows;
  for (const auto& member : response.results) {
    rows.push_back(member_cells(response.index, member));
  }
  std::cout << response.index << " members "
            << (response.date ? "on " + response.date->iso() : std::string("(every span)")) << ": "
            << response.results.size() << "\n";
  print_table(std::cout,
              {{"INDEX"},
               {"SYMBOL"},
               {"NAME"},
               {"FIRST"},
               {"LAST"},
               {"WEIGHT", Align::right, "%"},
               {"SOURCE"}},
              rows);
}

void print_members_csv(const api::MembersResponse& response, bool header) {
  if (header) {
    std::cout << "index,symbol,name,first_date,last_date,weight,source\n";
  }
  for (const auto& member : response.results) {
    const auto cells = member_cells(response.index, member);
    for (std::size_t i = 0; i < cells.size(); ++i) {
      std::cout << (i > 0 ? "," : "") << csv_field(cells[i]);
    }
    std::cout << "\n";
  }
}

void print_members_ndjson(const api::MembersResponse& response) {
  for (const auto& member : response.results) {
    std::cout << api::member_to_ndjson(response.index, member) << "\n";
  }
}

// Return the answer to `request`, or its error.
Result<api::MembersResponse> ask_members(Backend& backend, const api::MembersRequest& request) {
  auto answered = backend.answer(request);
  if (auto* error = std::get_if<Error>(&answered)) {
    return std::move(*error);
  }
  if (auto* response = std::get_if<api::MembersResponse>(&answered)) {
    return std::move(*response);
  }
  return make_error(ErrorCode::internal, "the answer is of another kind than its request");
}

// D20: every span, the pages after the first appended (5,000 a page).
Status follow_member_pages(Backend& backend,
                           const api::MembersRequest& request,
                           api::MembersResponse& response) {
  auto page = request;
  while (response.next_url) {
    page = api::next_request(page, page.offset + api::k_members_page);
    auto next = ask_members(backend, page);
    if (!next) {
      return next.error();
    }
    response.results.insert(response.results.end(), next->results.begin(), next->results.end());
    response.next_url = next->next_url;
  }
  return Ok{};
}

int run_members(const MembersArgs& args, const Config& config) {
  auto format = choose_format(config.output_format);
  if (!format) {
    return fail(format.error().message, k_exit_usage);
  }
  const auto request = api::parse_members_form(args.form);
  if (!request) {
    return fail_with(request.error());
  }
  auto backend = open_backend(config, config.remote);
  auto response = ask_members(*backend, *request);
  if (!response) {
    return fail_with(response.error());
  }
  if (auto paged = follow_member_pages(*backend, *request, *response); !paged) {
    return fail_with(paged.error());
  }
  switch (*format) {
  case Format::table:
    print_members_table(*response);
    break;
  case Format::csv:
    print_members_csv(*response, !args.output.no_header);
    break;
  case Format::json:
    std::cout << api::members_to_json(*response) << "\n";
    break;
  case Format::ndjson:
    print_members_ndjson(*response);
    break;
  }
  return k_exit_ok;
}

} // namespace

Action setup_members(CLI::App& command, GlobalFlags& flags) {
  auto args = std::make_shared<MembersArgs>();
  command.add_option("INDEX", args->form.index, "The index, e.g. 000300.SH")->required();
  auto* on =
      command
          .add_option("--on", args->form.on,
                      "The day (default: as_of; a closed day answers the open day before it)")
          ->type_name("DATE");
  command.add_flag("--history", args->form.history, "Every span of the membership instead")
      ->excludes(on);
  command
      .add_option("--source", args->form.source,
                  "tushare (the snapshots) or import (the announcements); default: import when the "
                  "index has imported spans, else tushare")
      ->check(CLI::IsMember({"tushare", "import"}))
      ->type_name("SOURCE");
  add_output_options(command, flags, args->output);
  return [args](const Config& config) { return run_members(*args, config); };
}

} // namespace ashare::cli
