// A response body as the pieces it is sent in: text the core wrote for this answer, with longer-
// lived text spliced in by reference (a cached history's rendered bars, api/history_cache; a
// cached compressed tail, server/gzip_cache) rather than copied into it. The server hands the
// pieces to the socket as they are (one gathered write), so the bytes of a cached answer go from
// the cache to the kernel without passing through another buffer (issue 35: a third of serve's
// CPU moved bytes). The body owns a reference to whatever its spliced text lives in, so a cache
// that drops or rebuilds an entry meanwhile never changes a body in flight.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace ashare::api {

class Body {
public:
  Body() = default;
  // A body of `text` alone.
  Body(std::string text) : m_text(std::move(text)) {} // NOLINT(google-explicit-constructor)

  // Return the text written so far, to append to; spliced pieces go between its bytes where they
  // were spliced.
  std::string& text() { return m_text; }

  // Append `piece` without copying it: `owner` keeps its bytes alive and unchanged for as long as
  // the body (or a copy of it) lives.
  void splice(std::string_view piece, std::shared_ptr<const void> owner);

  // Return the number of bytes of the body.
  std::size_t size() const { return m_text.size() + m_spliced_bytes; }
  bool empty() const { return size() == 0; }

  // Return the bytes before the first spliced piece (all of them when none is).
  std::string_view prefix() const;

  // Call `visit(std::string_view)` for each non-empty piece of the body, in order.
  template <class Visit> void for_each_piece(Visit&& visit) const {
    std::size_t at = 0;
    for (const auto& splice : m_splices) {
      if (splice.at > at) {
        visit(std::string_view(m_text).substr(at, splice.at - at));
      }
      visit(splice.piece);
      at = splice.at;
    }
    if (m_text.size() > at) {
      visit(std::string_view(m_text).substr(at));
    }
  }

  // Return the number of pieces for_each_piece() visits.
  std::size_t piece_count() const;

  // Return the body's bytes as one string (a copy of the spliced pieces).
  std::string str() const;

  // Drop every byte and reference.
  void clear();

private:
  struct Splice {
    std::size_t at;         // where in m_text the piece goes
    std::string_view piece; // non-empty
  };
  std::string m_text;
  std::vector<Splice> m_splices; // in order of `at`
  std::vector<std::shared_ptr<const void>> m_owners;
  std::size_t m_spliced_bytes = 0;
};

} // namespace ashare::api
