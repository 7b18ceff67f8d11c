#include "core/qlib/layout.hpp"

#include <bit>
#include <cctype>

namespace ashare::qlib {

std::string instrument_code(const domain::Symbol& symbol) {
  const std::string& text = symbol.str(); // "600519.SH"
  const auto dot = text.find('.');
  return text.substr(dot + 1) + text.substr(0, dot);
}

std::filesystem::path features_dir(const std::filesystem::path& root, const domain::Symbol& symbol) {
  std::string name = instrument_code(symbol);
  for (char& c : name) {
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return root / "features" / name;
}

std::filesystem::path field_file(const std::filesystem::path& features, std::string_view field) {
  return features / (std::string(field) + ".day.bin");
}

std::array<float, k_fields.size()> field_values(const domain::Bar& bar, double first_factor) {
  const double adjustment = bar.factor / first_factor;
  return {
    static_cast<float>(bar.open * bar.factor / first_factor),
    static_cast<float>(bar.high * bar.factor / first_factor),
    static_cast<float>(bar.low * bar.factor / first_factor),
    static_cast<float>(bar.close * bar.factor / first_factor),
    static_cast<float>(static_cast<double>(bar.volume) / adjustment),
    static_cast<float>(bar.turnover),
    static_cast<float>(bar.change_pct / 100),
    static_cast<float>(adjustment),
  };
}

void append_float(std::string& out, float value) {
  const auto bits = std::bit_cast<std::uint32_t>(value);
  for (int i = 0; i < 4; ++i) {
    out.push_back(static_cast<char>((bits >> (8 * i)) & 0xffU));
  }
}

} // namespace ashare::qlib
