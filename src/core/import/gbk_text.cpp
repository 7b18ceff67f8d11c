#include "core/import/gbk_text.hpp"

#include "core/import/vendor_csv.hpp"

#include <iconv.h>

#include <memory>

namespace ashare::import {

std::optional<std::string> utf8_from_utf8_or_gbk(std::string_view text) {
  if (is_utf8(text)) {
    return std::string(text);
  }
  // glibc's iconv: no new dependency. GB18030 decodes every GBK sequence the same way.
  const auto descriptor = iconv_open("UTF-8", "GB18030");
  if (descriptor == reinterpret_cast<iconv_t>(-1)) {
    return std::nullopt;
  }
  const std::unique_ptr<void, int (*)(iconv_t)> closer(descriptor, iconv_close);
  std::string in(text);
  std::string out(in.size() * 2 + 4, '\0'); // a GBK character of 2 bytes is 3 in UTF-8
  char* in_next = in.data();
  std::size_t in_left = in.size();
  char* out_next = out.data();
  std::size_t out_left = out.size();
  if (iconv(descriptor, &in_next, &in_left, &out_next, &out_left) == static_cast<std::size_t>(-1)) {
    return std::nullopt; // an invalid or cut sequence: not GBK
  }
  out.resize(out.size() - out_left);
  return out;
}

} // namespace ashare::import
