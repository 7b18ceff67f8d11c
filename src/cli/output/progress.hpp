// A progress bar on stderr, redrawn in place, drawn only when stderr is a terminal (pipes and
// logs get the command's own summary lines instead).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace ashare::cli {

class ProgressBar {
public:
  // Start a bar labelled `label` ("sync", "import").
  explicit ProgressBar(std::string label);
  ProgressBar(const ProgressBar&) = delete;
  ProgressBar& operator=(const ProgressBar&) = delete;

  // Return whether the bar is drawn at all (stderr is a terminal).
  bool active() const { return m_terminal; }

  // Redraw the bar at `done` of `total`, followed by `detail`.
  void show(std::int64_t done, std::int64_t total, std::string_view detail);

  // End the line if anything was drawn.
  void finish();

private:
  std::string m_label;
  bool m_terminal;
  bool m_drawn = false;
};

} // namespace ashare::cli
