#include "core/domain/symbol.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace ashare;

namespace {

std::vector<std::string> texts(const std::vector<domain::Symbol>& symbols) {
  std::vector<std::string> out;
  for (const auto& symbol : symbols) {
    out.push_back(symbol.str());
  }
  return out;
}

} // namespace

TEST_CASE("D1: domain::parse_symbol") {
  SUBCASE("canonicalises case and trims whitespace") {
    const struct {
      const char* text;
      const char* canonical;
    } table[] = {
        {"600519.SH", "600519.SH"},         {"600519.sh", "600519.SH"},
        {"000001.Sz", "000001.SZ"},         {"830799.bj", "830799.BJ"},
        {" 600519.SH", "600519.SH"},        {"600519.SH\t", "600519.SH"},
        {" \t000001.sz \r\n", "000001.SZ"},
    };
    for (const auto& row : table) {
      CAPTURE(std::string_view(row.text));
      const auto symbol = domain::parse_symbol(row.text);
      REQUIRE(symbol.ok());
      CHECK(symbol->str() == row.canonical);
    }
  }

  SUBCASE("never infers the exchange: 000001.SH and 000001.SZ are different symbols") {
    const auto index = domain::parse_symbol("000001.SH");
    const auto bank = domain::parse_symbol("000001.SZ");
    REQUIRE(index.ok());
    REQUIRE(bank.ok());
    CHECK(index->str() == "000001.SH");
    CHECK(bank->str() == "000001.SZ");
    CHECK(*index != *bank);
  }

  SUBCASE("malformed symbols are INVALID_SYMBOL quoting the item") {
    const char* malformed[] = {
        "60051.SH",   "6005190.SH", "600519",          "600519.SS", "600519SH",
        "600519.SHX", "SH600519",   "sh600519",        "60O519.SH", "600519 .SH",
        "600519.S H", "600519,SH",  "６００５１９.SH", ".SH",
    };
    for (const char* text : malformed) {
      CAPTURE(std::string_view(text));
      const auto symbol = domain::parse_symbol(text);
      REQUIRE_FALSE(symbol.ok());
      CHECK(symbol.error().code == ErrorCode::invalid_symbol);
      CHECK(symbol.error().message
            == "invalid symbol \"" + std::string(text)
                   + "\": expected six digits, a dot and SH, SZ or BJ");
    }
  }
}

TEST_CASE("D1: domain::parse_symbol_list") {
  SUBCASE("splits on commas, trims items, keeps request order") {
    const auto list = domain::parse_symbol_list(" 600519.sh , 000001.SZ,830799.BJ ");
    REQUIRE(list.ok());
    CHECK(texts(*list) == std::vector<std::string>{"600519.SH", "000001.SZ", "830799.BJ"});
  }

  SUBCASE("the same digits on two exchanges are two symbols") {
    const auto list = domain::parse_symbol_list("000001.SH,000001.SZ");
    REQUIRE(list.ok());
    CHECK(texts(*list) == std::vector<std::string>{"000001.SH", "000001.SZ"});
  }

  SUBCASE("a missing or empty list is INVALID_PARAMETER") {
    for (const char* text : {"", " ", "\t"}) {
      CAPTURE(std::string_view(text));
      const auto list = domain::parse_symbol_list(text);
      REQUIRE_FALSE(list.ok());
      CHECK(list.error().code == ErrorCode::invalid_parameter);
      CHECK(list.error().message == "missing parameter \"symbol\"");
    }
  }

  SUBCASE("an empty item is INVALID_PARAMETER") {
    for (const char* text :
         {"600519.SH,", ",600519.SH", "600519.SH,,000001.SZ", "600519.SH, ,000001.SZ", ","}) {
      CAPTURE(std::string_view(text));
      const auto list = domain::parse_symbol_list(text);
      REQUIRE_FALSE(list.ok());
      CHECK(list.error().code == ErrorCode::invalid_parameter);
      CHECK(list.error().message
            == "invalid symbol \"" + std::string(text) + "\": empty item in the list");
    }
  }

  SUBCASE("a duplicate after canonicalisation is INVALID_PARAMETER") {
    const struct {
      const char* text;
      const char* message;
    } table[] = {
        {"600519.SH,600519.SH",
         "invalid symbol \"600519.SH,600519.SH\": \"600519.SH\" is listed twice"},
        {"600519.SH,600519.sh",
         "invalid symbol \"600519.SH,600519.sh\": \"600519.SH\" is listed twice"},
        {"000001.SZ, 600519.SH ,000001.sz",
         "invalid symbol \"000001.SZ, 600519.SH ,000001.sz\": \"000001.SZ\" is listed twice"},
    };
    for (const auto& row : table) {
      CAPTURE(std::string_view(row.text));
      const auto list = domain::parse_symbol_list(row.text);
      REQUIRE_FALSE(list.ok());
      CHECK(list.error().code == ErrorCode::invalid_parameter);
      CHECK(list.error().message == row.message);
    }
  }

  SUBCASE("a malformed item anywhere is INVALID_SYMBOL naming that item") {
    const struct {
      const char* text;
      const char* item;
    } table[] = {
        {"60051.SH", "60051.SH"},
        {"600519.SH,60051.SH", "60051.SH"},
        {"600519.SH,000001.SZ,000002.XX", "000002.XX"},
        {"bad,600519.SH,600519.SH", "bad"},
        // Whatever else is wrong with the list: malformed wins over empty items and duplicates.
        {"600519.SH,600519.SH,bad", "bad"},
        {"600519.SH,,60051.SH", "60051.SH"},
        {",x", "x"},
    };
    for (const auto& row : table) {
      CAPTURE(std::string_view(row.text));
      const auto list = domain::parse_symbol_list(row.text);
      REQUIRE_FALSE(list.ok());
      CHECK(list.error().code == ErrorCode::invalid_symbol);
      CHECK(list.error().message
            == "invalid symbol \"" + std::string(row.item)
                   + "\": expected six digits, a dot and SH, SZ or BJ");
    }
  }
}
