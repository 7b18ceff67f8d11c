// domain::printable (D16): file content quoted in a message, control and non-UTF-8 bytes escaped.
#include "core/domain/text.hpp"

#include <doctest/doctest.h>

#include <string>

using ashare::domain::printable;

TEST_CASE("D16: domain::printable escapes control bytes and bytes that are not UTF-8") {
  CHECK(printable("open,high") == "open,high");
  CHECK(printable("a\\b \"q\" ~") == "a\\b \"q\" ~");
  CHECK(printable("\x1b[31mred\x1b[0m") == "\\x1b[31mred\\x1b[0m");
  CHECK(printable(std::string("a\0b", 3)) == "a\\x00b");
  CHECK(printable("line\nforged\r\t") == "line\\x0aforged\\x0d\\x09");
  CHECK(printable("\x7f") == "\\x7f");
  // Well-formed UTF-8 stays: 日期 (3 bytes each), é (2), 😀 (4).
  CHECK(printable("日期,开盘 é 😀") == "日期,开盘 é 😀");
  // C1 controls (U+0080-U+009F, e.g. CSI U+009B) are escaped like C0.
  CHECK(printable("\xc2\x9b" "31m") == "\\xc2\\x9b31m");
  CHECK(printable("\xc2\xa0") == "\xc2\xa0"); // U+00A0 is printable
  // Not UTF-8: a lone continuation byte, a truncated sequence, an overlong form, a surrogate,
  // beyond U+10FFFF, GBK bytes.
  CHECK(printable("\x80") == "\\x80");
  CHECK(printable("\xe6\x97") == "\\xe6\\x97");
  CHECK(printable("\xc0\xaf") == "\\xc0\\xaf");
  CHECK(printable("\xed\xa0\x80") == "\\xed\\xa0\\x80");
  CHECK(printable("\xf4\x90\x80\x80") == "\\xf4\\x90\\x80\\x80");
  CHECK(printable("\xc8\xd5\xc6\xda") == "\\xc8\\xd5\\xc6\\xda"); // 日期 in GBK
  CHECK(printable("") == "");
}

TEST_CASE("domain::hex_value") {
  CHECK(ashare::domain::hex_value('0') == 0);
  CHECK(ashare::domain::hex_value('9') == 9);
  CHECK(ashare::domain::hex_value('a') == 10);
  CHECK(ashare::domain::hex_value('F') == 15);
  CHECK(ashare::domain::hex_value('g') == -1);
  CHECK(ashare::domain::hex_value('%') == -1);
  CHECK(ashare::domain::hex_value('\0') == -1);
}
