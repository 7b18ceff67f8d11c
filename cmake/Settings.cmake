# Interface targets linked PRIVATE by our own targets only, so that dependencies never see our
# warnings or sanitizer flags.

add_library(ashare_warnings INTERFACE)
target_compile_options(ashare_warnings INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Woverloaded-virtual -Wdouble-promotion
  # GCC 12 reports -Wnull-dereference inside libstdc++ code inlined into CLI11 (std::vector
  # relocation in CLI::detail::split): a false positive we cannot fix, so only clang gets it.
  $<$<CXX_COMPILER_ID:Clang>:-Wnull-dereference>
  # GCC 12 at -O2 and above reports a bogus -Wrestrict for `"literal" + std::string(...)`
  # (GCC bug 105329, fixed in GCC 13).
  $<$<AND:$<CXX_COMPILER_ID:GNU>,$<VERSION_LESS:$<CXX_COMPILER_VERSION>,13>>:-Wno-restrict>
  # In a unity build a .cpp file is included into another, and GCC then takes a class it defines
  # over a type of its anonymous namespace for a header's: -Wsubobject-linkage would be wrong.
  $<$<AND:$<CXX_COMPILER_ID:GNU>,$<BOOL:$<TARGET_PROPERTY:UNITY_BUILD>>>:-Wno-subobject-linkage>)

add_library(ashare_settings INTERFACE)
target_compile_features(ashare_settings INTERFACE cxx_std_20)
target_include_directories(ashare_settings INTERFACE ${PROJECT_SOURCE_DIR}/src)
target_compile_definitions(ashare_settings INTERFACE
  ASHARE_VERSION="${PROJECT_VERSION}"
  $<$<CONFIG:Debug>:_GLIBCXX_ASSERTIONS>)

if(ASHARE_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "ASHARE_FUZZ needs clang: -DCMAKE_CXX_COMPILER=clang++-14")
  endif()
  # Coverage for libFuzzer everywhere; the harnesses link the fuzzer itself (tests/fuzz).
  target_compile_options(ashare_settings INTERFACE
    -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer
    -fno-sanitize-recover=all)
  target_link_options(ashare_settings INTERFACE -fsanitize=address,undefined)
endif()

if(ASHARE_SANITIZE)
  list(JOIN ASHARE_SANITIZE "," _ashare_sanitizers)
  target_compile_options(ashare_settings INTERFACE
    -fsanitize=${_ashare_sanitizers} -fno-omit-frame-pointer -fno-sanitize-recover=all)
  target_link_options(ashare_settings INTERFACE -fsanitize=${_ashare_sanitizers})
endif()

# Link only what is reachable, and pack the relative relocations (DT_RELR, binutils 2.38 and
# glibc 2.36): a one-shot query maps and relocates fewer pages of `ashare` (issue 43, P2;
# docs/performance.md). Not in the fuzz build, whose coverage sections are clang's to keep.
if(NOT ASHARE_FUZZ)
  include(CheckLinkerFlag)
  # A linker that only warns about the option (lld 14, which the test builds link with) goes
  # without it rather than warning on every link.
  check_linker_flag(CXX "LINKER:--fatal-warnings,-z,pack-relative-relocs"
                    ASHARE_LINKER_PACKS_RELOCS)
  target_link_options(ashare_settings INTERFACE "LINKER:--gc-sections")
  if(ASHARE_LINKER_PACKS_RELOCS)
    target_link_options(ashare_settings INTERFACE "LINKER:-z,pack-relative-relocs")
  endif()
endif()

# ashare_runtime: how the two programs link the C++ runtime. Each process holds one (`ashare` and
# `ashare-net` never share a process, cli/net/hand_over.hpp), so it is linked in: loading and
# relocating the shared libstdc++ and libgcc_s was a fifth of a one-shot query's time (issue 43,
# P2; docs/performance.md). The sanitizer and fuzz builds keep the shared one, as their runtimes
# expect.
add_library(ashare_runtime INTERFACE)
if(NOT ASHARE_SANITIZE AND NOT ASHARE_FUZZ AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  target_link_options(ashare_runtime INTERFACE -static-libstdc++ -static-libgcc)
endif()
