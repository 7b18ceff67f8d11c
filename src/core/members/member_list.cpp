#include "core/members/member_list.hpp"

#include <unordered_map>

namespace ashare::members {
namespace {

Member member_of(const store::MemberSpan& span, const std::map<std::string, std::string>& names) {
  const auto name = names.find(span.symbol);
  return {span.symbol,     name == names.end() ? std::string() : name->second,
          span.first_date, span.last_date,
          std::nullopt,    span.source};
}

} // namespace

std::string_view source_name(store::MemberSource source) {
  return source == store::MemberSource::tushare ? "tushare" : "import";
}

std::optional<store::MemberSource> parse_source(std::string_view word) {
  if (word == "tushare") {
    return store::MemberSource::tushare;
  }
  if (word == "import") {
    return store::MemberSource::import;
  }
  return std::nullopt;
}

store::MemberSource answering_source(bool has_imported, std::optional<store::MemberSource> asked) {
  if (asked) {
    return *asked;
  }
  return has_imported ? store::MemberSource::import : store::MemberSource::tushare;
}

std::vector<Member> members_on(std::span<const store::MemberSpan> spans,
                               domain::Date day,
                               std::span<const store::MemberWeight> snapshot,
                               const std::map<std::string, std::string>& names) {
  std::unordered_map<std::string_view, double> weights;
  for (const auto& member : snapshot) {
    weights.emplace(member.symbol, member.weight);
  }
  std::vector<Member> out;
  for (const auto& span : spans) {
    if (span.first_date > day || (span.last_date && *span.last_date < day)) {
      continue;
    }
    auto& member = out.emplace_back(member_of(span, names));
    if (span.source == store::MemberSource::tushare) {
      if (const auto weight = weights.find(span.symbol); weight != weights.end()) {
        member.weight = weight->second;
      }
    }
  }
  return out;
}

std::vector<Member> every_member(std::span<const store::MemberSpan> spans,
                                 const std::map<std::string, std::string>& names) {
  std::vector<Member> out;
  out.reserve(spans.size());
  for (const auto& span : spans) {
    out.push_back(member_of(span, names));
  }
  return out;
}

} // namespace ashare::members
