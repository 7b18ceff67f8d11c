# Precompiled headers (issue 43): the standard headers most files include, and a target's heavy
# third-party headers (doctest, nlohmann/json, cpp-httplib), parsed
# once per target instead of once per file. System headers only: a project header in them would
# hide a missing include less visibly and put this clone's path into the precompiled header.
# Off by default: measured on 20 files (docs/testing.md), they saved 7-15% of a file's compile in
# the core and the test suites, cost a target 6-15 s to make, and made the command line's files
# slower (CLI11's 141 MB header loaded by files that do not include it), so a cold build gained
# a few per cent at most; a build without them also checks that each file includes what it uses.
# -DASHARE_PCH=ON tries them. With ccache they need sloppiness pch_defines,time_macros
# (scripts/test.sh sets it); CMake passes them with -include, which ccache reads without
# -fpch-preprocess.
option(ASHARE_PCH "Precompile the standard and third-party headers of each target" OFF)

set(ASHARE_PCH_STANDARD
  <algorithm> <array> <chrono> <cstdint> <filesystem> <functional> <map> <memory> <optional>
  <span> <sstream> <string> <string_view> <unordered_map> <utility> <variant> <vector>)

# Precompile ASHARE_PCH_STANDARD and the headers given after `target` for `target`'s sources.
# Clang stamps a precompiled header with its time unless told not to, and ccache then cannot
# reuse what includes it.
function(ashare_precompile_headers target)
  if(ASHARE_PCH)
    target_precompile_headers(${target} PRIVATE ${ASHARE_PCH_STANDARD} ${ARGN})
    if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
      target_compile_options(${target} PRIVATE -Xclang -fno-pch-timestamp)
    endif()
  endif()
endfunction()
