// The API dispatcher end to end, as a server calls it: the input is a request's method, path,
// query, Authorization and If-None-Match headers, one a line ("\n"; a missing line is an absent
// header), against
// a store of three real symbols and keys of each plan (fixed plaintexts: RepeatedByte 1 to 4).
// Beyond "no crash": every answer is a status the API documents (never 500), carries an
// X-Request-Id, and its body is JSON; an error's body is the envelope whose code has that status;
// a 200 carries an ETag, and a 304 (D17) one too and no body, only when If-None-Match was sent.
#include "fuzz_check.hpp"
#include "fuzz_world.hpp"

#include "core/api/dispatch.hpp"
#include "core/error.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <memory>
#include <string_view>

using namespace ashare;

namespace {

struct World {
  fuzz::TempDir dir{"ashare-fuzz"};
  std::unique_ptr<api::Services> services;

  World() {
    const auto data = dir / "ashare.db";
    const auto keys = dir / "ashare-keys.db";
    for (const char* fixture : {"bancob_600519.SH.csv", "bancob_600036.SH.csv",
                                "jenny_000001.SZ.csv"}) {
      fuzz::import_fixture(data, fixture);
    }
    fuzz::add_fixed_key(keys, 1, auth::Plan::free, std::nullopt);
    fuzz::add_fixed_key(keys, 2, auth::Plan::basic, std::nullopt);
    fuzz::add_fixed_key(keys, 3, auth::Plan::pro, std::nullopt);
    fuzz::add_fixed_key(keys, 4, auth::Plan::pro, 1'000'000'000'000); // metered
    services = std::make_unique<api::Services>(data, keys);
    services->log_error = [](std::string_view detail) {
      std::fprintf(stderr, "500: %.*s\n", static_cast<int>(detail.size()), detail.data());
    };
  }
};

// Split `text` at the first '\n': the line and the rest (nullopt when there is no line left).
std::optional<std::string_view> next_line(std::string_view& text, bool& more) {
  if (!more) {
    return std::nullopt;
  }
  const auto end = text.find('\n');
  const auto line = text.substr(0, end);
  more = end != std::string_view::npos;
  text = more ? text.substr(end + 1) : std::string_view();
  return line;
}

bool documented(int status) {
  constexpr std::array k_statuses{200, 304, 400, 401, 402, 403, 404, 405, 429};
  return std::find(k_statuses.begin(), k_statuses.end(), status) != k_statuses.end();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static World world;
  std::string_view text(reinterpret_cast<const char*>(data), size);
  bool more = true;
  api::Request request;
  request.method = std::string(next_line(text, more).value_or(""));
  request.path = std::string(next_line(text, more).value_or(""));
  request.query = std::string(next_line(text, more).value_or(""));
  if (const auto authorization = next_line(text, more)) {
    request.authorization = std::string(*authorization);
  }
  if (const auto condition = next_line(text, more)) {
    request.if_none_match = std::string(*condition);
  }
  const auto response = api::dispatch(request, *world.services);
  FUZZ_CHECK(documented(response.status));
  FUZZ_CHECK(response.find_header("X-Request-Id") != nullptr);
  if (response.status == 304) {
    FUZZ_CHECK(request.if_none_match.has_value());
    FUZZ_CHECK(response.body.empty());
    FUZZ_CHECK(response.find_header("ETag") != nullptr);
    return 0;
  }
  if (response.status == 200) {
    FUZZ_CHECK(response.find_header("ETag") != nullptr);
  }
  const auto body = nlohmann::json::parse(response.body.str(), nullptr, false);
  FUZZ_CHECK(!body.is_discarded());
  if (response.status >= 400) {
    FUZZ_CHECK(body.is_object() && body.contains("error") && body["error"].is_object());
    const auto& error = body["error"];
    FUZZ_CHECK(error.contains("code") && error["code"].is_string());
    FUZZ_CHECK(error.contains("message") && error["message"].is_string());
    const auto code = error["code"].get<std::string>();
    const auto& table = error_table();
    const auto row = std::find_if(table.begin(), table.end(),
                                  [&](const auto& info) { return info.wire_name == code; });
    FUZZ_CHECK(row != table.end() && row->http_status == response.status);
  }
  return 0;
}
