#include "core/api/query_params.hpp"

#include "core/domain/text.hpp"

namespace ashare::api {
namespace {

bool is_unreserved(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'
         || c == '.' || c == '_' || c == '~';
}

std::string decode(std::string_view text, bool plus_is_space) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '+' && plus_is_space) {
      out.push_back(' ');
    } else if (text[i] == '%' && i + 2 < text.size() && domain::hex_value(text[i + 1]) >= 0
               && domain::hex_value(text[i + 2]) >= 0) {
      out.push_back(static_cast<char>(domain::hex_value(text[i + 1]) * 16 + domain::hex_value(text[i + 2])));
      i += 2;
    } else {
      out.push_back(text[i]);
    }
  }
  return out;
}

} // namespace

std::string percent_decode(std::string_view text) {
  return decode(text, true);
}

std::string percent_decode_path(std::string_view segment) {
  return decode(segment, false);
}

std::string percent_encode(std::string_view text) {
  constexpr std::string_view hex = "0123456789ABCDEF";
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    if (is_unreserved(c)) {
      out.push_back(c);
    } else {
      const auto byte = static_cast<unsigned char>(c);
      out.push_back('%');
      out.push_back(hex[byte >> 4]);
      out.push_back(hex[byte & 0xf]);
    }
  }
  return out;
}

QueryParams QueryParams::parse(std::string_view raw) {
  QueryParams params;
  std::size_t start = 0;
  while (start <= raw.size()) {
    std::size_t end = raw.find('&', start);
    if (end == std::string_view::npos) {
      end = raw.size();
    }
    const std::string_view pair = raw.substr(start, end - start);
    if (!pair.empty()) {
      const std::size_t equals = pair.find('=');
      if (equals == std::string_view::npos) {
        params.m_items.push_back({percent_decode(pair), ""});
      } else {
        params.m_items.push_back(
          {percent_decode(pair.substr(0, equals)), percent_decode(pair.substr(equals + 1))});
      }
    }
    start = end + 1;
  }
  return params;
}

std::optional<std::string_view> QueryParams::find(std::string_view name) const {
  for (const auto& item : m_items) {
    if (item.name == name) {
      return std::string_view(item.value);
    }
  }
  return std::nullopt;
}

void QueryParams::set(std::string_view name, std::string_view value) {
  bool found = false;
  for (auto it = m_items.begin(); it != m_items.end();) {
    if (it->name != name) {
      ++it;
    } else if (!found) {
      it->value = value;
      found = true;
      ++it;
    } else {
      it = m_items.erase(it);
    }
  }
  if (!found) {
    m_items.push_back({std::string(name), std::string(value)});
  }
}

std::string QueryParams::encode() const {
  std::string out;
  for (const auto& item : m_items) {
    if (!out.empty()) {
      out.push_back('&');
    }
    out += percent_encode(item.name);
    out.push_back('=');
    out += percent_encode(item.value);
  }
  return out;
}

} // namespace ashare::api
