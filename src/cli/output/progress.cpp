#include "cli/output/progress.hpp"

#include <iostream>
#include <unistd.h>

namespace ashare::cli {

ProgressBar::ProgressBar(std::string label)
    : m_label(std::move(label)), m_terminal(::isatty(STDERR_FILENO) == 1) {}

void ProgressBar::show(std::int64_t done, std::int64_t total, std::string_view detail) {
  if (!m_terminal) {
    return;
  }
  constexpr std::int64_t k_width = 30;
  const std::int64_t filled = total <= 0 ? k_width : k_width * std::min(done, total) / total;
  // \x1b[K clears what a longer previous detail left on the line.
  std::cerr << "\r" << m_label << " [" << std::string(static_cast<std::size_t>(filled), '#')
            << std::string(static_cast<std::size_t>(k_width - filled), '-') << "] " << detail
            << "\x1b[K" << std::flush;
  m_drawn = true;
}

void ProgressBar::finish() {
  if (m_drawn) {
    std::cerr << "\n";
    m_drawn = false;
  }
}

} // namespace ashare::cli
