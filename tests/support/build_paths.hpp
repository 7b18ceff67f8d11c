// Where this build's programs and its source tree are, for the tests (issue 43). They come from
// one file CMake writes into the build directory (build_paths.cpp.in), the only object of the
// tests that holds an absolute path: every other object is then the same in a clone in another
// folder, so that ccache can reuse it there.
#pragma once

namespace ashare::test {

// Return the source tree this build was configured from (the clone's root, holding tests/).
const char* source_dir();

// Return the `ashare` executable this build makes ("" in a fuzz build, which makes none).
const char* built_ashare();

// Return the tushare_standin executable this build makes ("" in a fuzz build).
const char* built_tushare_standin();

// Return the tdx_standin executable this build makes ("" in a fuzz build).
const char* built_tdx_standin();

} // namespace ashare::test
