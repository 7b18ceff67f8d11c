// What a hostile or broken TDX server could send `fetch tdx` (D18): the reply head, the bars
// body (a stock's and an index's, D20), the ex-rights body and record, the pre_close that ex-rights events give, and the security
// list and count. The first byte picks the reader; the rest is its input. Beyond "no crash, no
// read past the end" (ASan): a bars body that reads holds exactly the bars its count says, each on
// a real date (the range is D16's, later); a refused input is refused as INVALID_INPUT.
#include "fuzz_check.hpp"

#include "core/fetch/tdx/ex_rights.hpp"
#include "core/fetch/tdx/wire.hpp"

using namespace ashare;
using namespace ashare::fetch::tdx;

using fuzz::check_read;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) {
    return 0;
  }
  const std::span<const std::uint8_t> input(data + 1, size - 1);
  switch (data[0] % 6) {
  case 0: {
    for (const auto layout : {BarLayout::security, BarLayout::index}) { // D20: an index's 4 more bytes
      const auto bars = parse_security_bars(input, layout);
      check_read(bars);
      if (bars) {
        FUZZ_CHECK(input.size() >= 2 && bars->size() == std::size_t{input[0]} + 256u * input[1]);
        for (const auto& bar : *bars) {
          FUZZ_CHECK(domain::Date::from_yyyymmdd(bar.day.yyyymmdd()) == bar.day); // a real date
        }
      }
    }
    break;
  }
  case 1: {
    const auto head = parse_reply_head(input);
    check_read(head);
    if (head) {
      FUZZ_CHECK(input.size() >= k_reply_head_size);
      FUZZ_CHECK(head->zlib || head->zipped_size == head->unzipped_size);
    }
    break;
  }
  case 2: {
    const auto events = parse_xdxr_info(input);
    check_read(events);
    if (events && events->size() <= k_max_events_between_bars) {
      // Whatever numbers the events carry, the pre_close they give is a value or a refusal
      // (UBSan watches its 128-bit arithmetic).
      check_read(ex_rights_pre_close(static_cast<std::int64_t>(input.size()) * 12'345, *events,
                                     input.size() % 2 == 0 ? Tick::cent : Tick::mil));
    }
    break;
  }
  case 3: check_read(parse_xdxr_record(input)); break;
  case 4: {
    const auto codes = parse_security_list(input);
    check_read(codes);
    if (codes) {
      for (const auto& listed : *codes) {
        FUZZ_CHECK(listed.code.size() == 6);
        (void)is_a_share(Market::sh, listed.code);
      }
    }
    break;
  }
  default: check_read(parse_security_count(input)); break;
  }
  return 0;
}
