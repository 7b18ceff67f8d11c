#include "server/gzip.hpp"

#include <algorithm>
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

namespace {

// Return `input` deflated in one go with `window_bits` (zlib's convention: 15 + 16 for a gzip
// member, -15 for raw deflate).
std::string deflate_all(std::string_view input, int window_bits) {
  z_stream stream{};
  if (deflateInit2(&stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, window_bits, 8, Z_DEFAULT_STRATEGY)
      != Z_OK) {
    throw std::runtime_error("zlib: deflateInit2 failed");
  }
  std::string out(deflateBound(&stream, input.size()), '\0');
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(input.data()));
  stream.avail_in = static_cast<uInt>(input.size());
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

void append_le32(std::string& out, std::uint32_t value) {
  for (int i = 0; i < 4; ++i) {
    out.push_back(static_cast<char>((value >> (8 * i)) & 0xffU));
  }
}

std::uint32_t crc_of(std::string_view bytes) {
  return static_cast<std::uint32_t>(
    crc32(0L, reinterpret_cast<const Bytef*>(bytes.data()), static_cast<uInt>(bytes.size())));
}

} // namespace

std::string gzip(std::string_view body) {
  // 15 window bits + 16: a gzip header and trailer instead of zlib's.
  return deflate_all(body, 15 + 16);
}

DeflatedTail deflate_tail(std::string_view tail) {
  return DeflatedTail{deflate_all(tail, -15), crc_of(tail), tail.size(),
                      crc32_combine_gen(static_cast<z_off_t>(tail.size()))};
}

api::Body gzip_spliced(std::string_view head, std::shared_ptr<const DeflatedTail> tail) {
  // RFC 1952: magic, CM = deflate, no flags, no mtime, XFL 0, OS 3 (Unix).
  static constexpr char k_header[] = {'\x1f', '\x8b', 8, 0, 0, 0, 0, 0, 0, 3};
  constexpr std::size_t k_max_stored = 65535;
  api::Body body(std::string(k_header, sizeof k_header));
  auto& out = body.text();
  out.reserve(sizeof k_header + head.size() + 5 * (head.size() / k_max_stored + 1) + 8);
  // RFC 1951 3.2.4: stored blocks (BFINAL 0, BTYPE 00, padded to a byte, LEN, NLEN), up to
  // 65,535 bytes each; they leave the stream byte-aligned, where the tail's blocks begin. The
  // tail was deflated on its own, so none of its back-references reaches into the head.
  for (std::size_t at = 0; at < head.size(); at += k_max_stored) {
    const auto length = static_cast<std::uint32_t>(std::min(head.size() - at, k_max_stored));
    out.push_back('\0');
    out.push_back(static_cast<char>(length & 0xffU));
    out.push_back(static_cast<char>(length >> 8));
    out.push_back(static_cast<char>(~length & 0xffU));
    out.push_back(static_cast<char>((~length >> 8) & 0xffU));
    out.append(head.substr(at, length));
  }
  const auto crc = crc32_combine_op(crc_of(head), tail->crc, tail->combine_op);
  const auto size = head.size() + tail->size;
  const std::string_view deflated = tail->deflated;
  body.splice(deflated, std::move(tail));
  append_le32(body.text(), static_cast<std::uint32_t>(crc));
  append_le32(body.text(), static_cast<std::uint32_t>(size)); // ISIZE: mod 2^32
  return body;
}

} // namespace ashare::server
