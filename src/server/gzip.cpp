#include "server/gzip.hpp"

#include <cctype>
#include <stdexcept>
#include <zlib.h>

namespace ashare::server {
namespace {

std::string_view trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) {
    text.remove_prefix(1);
  }
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) {
    text.remove_suffix(1);
  }
  return text;
}

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) {
    return false;
  }
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) {
      return false;
    }
  }
  return true;
}

// Return whether the parameters of a coding (";q=0.5;...") leave its q value above zero.
bool positive_q(std::string_view parameters) {
  while (!parameters.empty()) {
    const auto semicolon = parameters.find(';');
    const auto parameter = trim(parameters.substr(0, semicolon));
    parameters = semicolon == std::string_view::npos ? std::string_view{}
                                                     : parameters.substr(semicolon + 1);
    if (parameter.size() >= 2 && (parameter[0] == 'q' || parameter[0] == 'Q')
        && parameter[1] == '=') {
      const auto value = trim(parameter.substr(2));
      // q is "0", "0.", "0.0".."0.000" for zero; anything else with a non-zero digit is positive.
      return value.find_first_of("123456789") != std::string_view::npos;
    }
  }
  return true;
}

} // namespace

bool accepts_gzip(std::string_view accept_encoding) {
  bool gzip_named = false;
  bool gzip_positive = false;
  bool star_positive = false;
  while (!accept_encoding.empty()) {
    const auto comma = accept_encoding.find(',');
    const auto item = trim(accept_encoding.substr(0, comma));
    accept_encoding = comma == std::string_view::npos ? std::string_view{}
                                                      : accept_encoding.substr(comma + 1);
    const auto semicolon = item.find(';');
    const auto coding = trim(item.substr(0, semicolon));
    const bool positive =
      semicolon == std::string_view::npos || positive_q(item.substr(semicolon + 1));
    if (iequals(coding, "gzip") || iequals(coding, "x-gzip")) {
      gzip_named = true;
      gzip_positive = gzip_positive || positive;
    } else if (coding == "*") {
      star_positive = star_positive || positive;
    }
  }
  return gzip_named ? gzip_positive : star_positive;
}

std::string gzip(std::string_view body) {
  z_stream stream{};
  // 15 window bits + 16: a gzip header and trailer instead of zlib's.
  if (deflateInit2(&stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY)
      != Z_OK) {
    throw std::runtime_error("zlib: deflateInit2 failed");
  }
  std::string out(deflateBound(&stream, body.size()), '\0');
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(body.data()));
  stream.avail_in = static_cast<uInt>(body.size());
  stream.next_out = reinterpret_cast<Bytef*>(out.data());
  stream.avail_out = static_cast<uInt>(out.size());
  const int status = deflate(&stream, Z_FINISH);
  deflateEnd(&stream);
  if (status != Z_STREAM_END) {
    throw std::runtime_error("zlib: deflate did not finish");
  }
  out.resize(stream.total_out);
  return out;
}

} // namespace ashare::server
