// What a hostile remote could send remote mode: the readers of bars, indicator, error and health
// bodies (api/json_read.cpp). The first byte picks the reader; the rest is the body. Beyond "no
// crash": a body that reads is written back (as the CLI prints it) without a non-finite number,
// and what is written reads back to the same text again (D12: numbers survive the round trip).
#include "fuzz_check.hpp"

#include "core/api/json.hpp"

#include <string>
#include <string_view>

using namespace ashare;

namespace {

void check_bars(std::string_view body) {
  const auto response = api::bars_from_json(body);
  if (!response) {
    FUZZ_CHECK(response.error().code == ErrorCode::invalid_input);
    return;
  }
  const auto written = api::bars_to_json(*response, std::nullopt);
  const auto again = api::bars_from_json(written);
  FUZZ_CHECK(again.ok());
  FUZZ_CHECK(api::bars_to_json(*again, std::nullopt) == written);
}

void check_indicators(std::string_view body) {
  const auto response = api::indicators_from_json(body);
  if (!response) {
    FUZZ_CHECK(response.error().code == ErrorCode::invalid_input);
    return;
  }
  const auto written = api::indicators_to_json(*response);
  const auto again = api::indicators_from_json(written);
  FUZZ_CHECK(again.ok());
  FUZZ_CHECK(api::indicators_to_json(*again) == written);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) {
    return 0;
  }
  const std::string_view body(reinterpret_cast<const char*>(data) + 1, size - 1);
  switch (data[0] % 4) {
  case 0: check_bars(body); break;
  case 1: check_indicators(body); break;
  case 2: (void)api::error_from_json(body); break;
  default: (void)api::health_as_of_from_json(body); break;
  }
  return 0;
}
