#include "core/qlib/export_state.hpp"

#include <nlohmann/json.hpp>

#include <charconv>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace ashare::qlib {
namespace {

constexpr int k_version = 1;

std::string hex(std::uint64_t value) {
  char text[17];
  const auto end = std::to_chars(text, text + sizeof text, value, 16).ptr;
  return std::string(text, end);
}

std::optional<std::uint64_t> parse_hex(const std::string& text) {
  std::uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value, 16);
  if (error != std::errc{} || end != text.data() + text.size()) {
    return std::nullopt;
  }
  return value;
}

std::optional<domain::Date> parse_date(const nlohmann::json& value) {
  if (!value.is_string()) {
    return std::nullopt;
  }
  const auto date = domain::parse_iso_date(value.get<std::string>(), "date");
  return date ? std::optional<domain::Date>(*date) : std::nullopt;
}

} // namespace

std::optional<ExportState> load_export_state(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) {
    return std::nullopt;
  }
  const auto json = nlohmann::json::parse(in, nullptr, false);
  if (!json.is_object() || json.value("version", 0) != k_version) {
    return std::nullopt;
  }
  ExportState state;
  state.complete = json.value("complete", false);
  if (json.contains("from") && !json["from"].is_null()) {
    state.from = parse_date(json["from"]);
    if (!state.from) {
      return std::nullopt;
    }
  }
  if (!json.contains("symbols") || !json["symbols"].is_object()) {
    return std::nullopt;
  }
  for (const auto& [symbol, entry] : json["symbols"].items()) {
    const auto first = parse_date(entry.value("first", nlohmann::json()));
    const auto last = parse_date(entry.value("last", nlohmann::json()));
    const auto fingerprint = parse_hex(entry.value("fingerprint", std::string()));
    if (!first || !last || !fingerprint) {
      return std::nullopt;
    }
    state.symbols[symbol] = ExportedSymbol{*first, *last, *fingerprint};
  }
  return state;
}

void save_export_state(const std::filesystem::path& path, const ExportState& state) {
  nlohmann::ordered_json json;
  json["version"] = k_version;
  json["complete"] = state.complete;
  json["from"] = state.from ? nlohmann::ordered_json(state.from->iso()) : nlohmann::ordered_json();
  auto& symbols = json["symbols"] = nlohmann::ordered_json::object();
  for (const auto& [symbol, exported] : state.symbols) {
    symbols[symbol] = {{"first", exported.first.iso()},
                       {"last", exported.last.iso()},
                       {"fingerprint", hex(exported.fingerprint)}};
  }
  const auto temporary = path.string() + ".tmp";
  {
    std::ofstream out(temporary, std::ios::trunc);
    out << json.dump(1) << "\n";
    if (!out.flush()) {
      throw std::runtime_error("cannot write " + temporary);
    }
  }
  std::filesystem::rename(temporary, path);
}

} // namespace ashare::qlib
