# Compile through ccache when it is installed (issue 43): a build of sources compiled before, in
# this folder or in a clone in another, takes its objects from the cache. What makes another
# folder hit (base_dir, hash_dir, the sloppiness precompiled headers need) is set by
# scripts/test.sh in CCACHE_* variables, not here, so that a developer's ccache.conf is theirs.
# A launcher the user chose (-DCMAKE_CXX_COMPILER_LAUNCHER, or that variable in the environment)
# is kept; -DASHARE_CCACHE=OFF compiles without ccache.
option(ASHARE_CCACHE "Compile through ccache when it is installed" ON)
if(ASHARE_CCACHE AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
  find_program(ASHARE_CCACHE_PROGRAM ccache)
  if(ASHARE_CCACHE_PROGRAM)
    set(CMAKE_CXX_COMPILER_LAUNCHER ${ASHARE_CCACHE_PROGRAM})
  endif()
endif()
