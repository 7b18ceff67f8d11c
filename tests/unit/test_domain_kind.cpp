// D20: a symbol's kind by its code, the codes kept out, and `--kind LIST`.
#include "core/domain/kind.hpp"

#include <doctest/doctest.h>

#include <string>

using ashare::ErrorCode;
using ashare::domain::classify_code;
using ashare::domain::Kind;
using ashare::domain::kind_of_code;

TEST_CASE("kind_of_code: D20's indices, funds and stocks, the exchange deciding") {
  struct Case {
    const char* symbol;
    Kind kind;
  };
  const Case cases[] = {
    {"000300.SH", Kind::index}, {"000001.SH", Kind::index}, {"399001.SZ", Kind::index},
    {"399006.SZ", Kind::index}, {"899050.BJ", Kind::index},
    {"510300.SH", Kind::fund},  {"501018.SH", Kind::fund},  {"560010.SH", Kind::fund},
    {"588000.SH", Kind::fund},  {"159919.SZ", Kind::fund},  {"161725.SZ", Kind::fund},
    {"000001.SZ", Kind::stock}, {"600519.SH", Kind::stock}, {"688981.SH", Kind::stock},
    {"300750.SZ", Kind::stock}, {"430047.BJ", Kind::stock}, {"920819.BJ", Kind::stock},
    {"002594.SZ", Kind::stock}, {"899050.SH", Kind::stock},
  };
  for (const auto& c : cases) {
    CAPTURE(c.symbol);
    const auto kind = kind_of_code(c.symbol);
    REQUIRE(kind);
    CHECK(*kind == c.kind);
  }
}

TEST_CASE("kind_of_code: REITs, B shares, TDX sector indices and bonds are kept out, naming D20") {
  struct Case {
    const char* symbol;
    const char* what;
  };
  const Case cases[] = {
    {"508000.SH", "a REIT"},   {"180101.SZ", "a REIT"},
    {"900901.SH", "a B share"}, {"200002.SZ", "a B share"},
    {"880001.SH", "a TDX sector index"}, {"881001.SH", "a TDX sector index"},
    {"113050.SH", "a bond"},   {"019547.SH", "a bond"},   {"123107.SZ", "a bond"},
    {"204001.SH", "a repo"},   {"131810.SZ", "a repo"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.symbol);
    CHECK_FALSE(classify_code(c.symbol).kind);
    CHECK(classify_code(c.symbol).kept_out == c.what);
    const auto kind = kind_of_code(c.symbol);
    REQUIRE_FALSE(kind);
    CHECK(kind.error().code == ErrorCode::invalid_input);
    CHECK(kind.error().message == std::string(c.symbol) + " is " + c.what + ": ashare keeps it out (D20)");
  }
}

TEST_CASE("parse_kind_list: comma-separated kinds, trimmed, each once; anything else refused") {
  using ashare::domain::parse_kind_list;
  const auto all = parse_kind_list(" fund, index ,stock,fund");
  REQUIRE(all);
  CHECK(*all == std::vector<Kind>{Kind::fund, Kind::index, Kind::stock});

  for (const char* bad : {"", "stocks", "stock,,fund", "Stock", "etf"}) {
    CAPTURE(bad);
    const auto kinds = parse_kind_list(bad);
    REQUIRE_FALSE(kinds);
    CHECK(kinds.error().code == ErrorCode::invalid_parameter);
    CHECK(kinds.error().message.find("expected stock, index or fund") != std::string::npos);
  }
  CHECK(ashare::domain::kind_name(Kind::fund) == "fund");
  CHECK(ashare::domain::parse_kind("index") == Kind::index);
}
