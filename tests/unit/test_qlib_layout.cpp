// qlib's layout (core/qlib/layout, export_state): symbol spelling, field values adjusted from the
// first bar, float32 bytes little-endian, and the export state's round trip.
#include "testutil.hpp"

#include "core/qlib/export_state.hpp"
#include "core/qlib/layout.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <limits>

using namespace ashare;

namespace {

domain::Symbol symbol(const char* text) {
  return domain::parse_symbol(text).value();
}

} // namespace

TEST_CASE("qlib: codes put the exchange first, feature directories are lower-case") {
  CHECK(qlib::instrument_code(symbol("600519.SH")) == "SH600519");
  CHECK(qlib::instrument_code(symbol("000001.sz")) == "SZ000001");
  CHECK(qlib::instrument_code(symbol("430047.BJ")) == "BJ430047");
  CHECK(qlib::features_dir("/q", symbol("600519.SH")) == std::filesystem::path("/q/features/sh600519"));
  CHECK(qlib::field_file("/q/features/sh600519", "close")
        == std::filesystem::path("/q/features/sh600519/close.day.bin"));
}

TEST_CASE("qlib: field values are adjusted from the first bar, raw = adjusted / factor") {
  domain::Bar bar{test::date("2024-06-19"), 1500.0, 1510.0, 1490.0, 1505.5, 4126153,
                  6167728416.0, 0.6964, 8.0204};
  const auto values = qlib::field_values(bar, 7.768);
  const double adjustment = 8.0204 / 7.768;
  CHECK(values[0] == static_cast<float>(1500.0 * 8.0204 / 7.768));
  CHECK(values[3] == static_cast<float>(1505.5 * 8.0204 / 7.768));
  CHECK(values[4] == static_cast<float>(4126153 / adjustment));
  CHECK(values[5] == static_cast<float>(6167728416.0));
  CHECK(values[6] == static_cast<float>(0.006964));
  CHECK(values[7] == static_cast<float>(adjustment));
  CHECK(std::fabs(static_cast<double>(values[3] / values[7]) - 1505.5) < 1505.5 * 3e-7);
  // The first bar itself: its prices as traded, factor 1.
  const auto first = qlib::field_values(domain::Bar{test::date("2023-09-25"), 1847.5, 1848, 1826.59,
                                                    1832.38, 1397913, 2565773540, -0.8989, 7.768},
                                        7.768);
  CHECK(first[3] == 1832.38f);
  CHECK(first[7] == 1.0f);
}

TEST_CASE("qlib: float32 little-endian, NaN as numpy writes it") {
  std::string bytes;
  qlib::append_float(bytes, 1.0f);
  qlib::append_float(bytes, std::numeric_limits<float>::quiet_NaN());
  CHECK(bytes == std::string("\x00\x00\x80\x3f\x00\x00\xc0\x7f", 8));
}

TEST_CASE("qlib: the export state round-trips, and anything unreadable is no state") {
  test::TempDir dir;
  const auto path = dir / ".ashare-export.json";
  CHECK_FALSE(qlib::load_export_state(path));
  qlib::ExportState state;
  state.complete = true;
  state.from = test::date("2024-01-02");
  state.symbols["600519.SH"] = {test::date("2024-01-02"), test::date("2024-12-31"),
                                0xfedcba9876543210ULL};
  qlib::save_export_state(path, state);
  const auto loaded = qlib::load_export_state(path);
  REQUIRE(loaded);
  CHECK(loaded->complete);
  CHECK(loaded->from == state.from);
  REQUIRE(loaded->symbols.size() == 1);
  CHECK(loaded->symbols.at("600519.SH").fingerprint == 0xfedcba9876543210ULL);
  CHECK(loaded->symbols.at("600519.SH").last == test::date("2024-12-31"));
  for (const char* broken : {"", "{", "[]", "{\"version\":2,\"symbols\":{}}",
                             "{\"version\":1,\"symbols\":{\"X\":{\"first\":\"2024-01-02\"}}}",
                             "{\"version\":1,\"from\":\"2024-13-01\",\"symbols\":{}}"}) {
    CAPTURE(broken);
    std::ofstream(path, std::ios::trunc) << broken;
    CHECK_FALSE(qlib::load_export_state(path));
  }
}
