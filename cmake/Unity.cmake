# Unity builds (issue 43): scripts/test.sh compiles each target's files in batches of 16 as one
# (-DCMAKE_UNITY_BUILD=ON), which halves a cold build's CPU. A batch joins its files' anonymous
# namespaces, so a name one file defines there must not be defined by another file of its batch.
# The product's targets define no name twice (they build as a single batch), so any batching
# works for them. The two big test suites still have such names, and CMake's batches are runs of
# files in list order: a file added mid-list would move every later file to another batch and
# could break two files it never touched. Their files go instead to a fixed number of groups, each
# by a hash of its name, so that a file added, removed or renamed moves no other file: a clash
# it brings is with a file of its own group, and the build names both.

# Put each source of `target` (but those that skip unity builds) in one of `count` unity groups,
# chosen by the MD5 of its path. Does nothing unless CMAKE_UNITY_BUILD is on.
function(ashare_unity_groups target count)
  if(NOT CMAKE_UNITY_BUILD)
    return()
  endif()
  set_target_properties(${target} PROPERTIES UNITY_BUILD_MODE GROUP)
  get_target_property(sources ${target} SOURCES)
  foreach(source IN LISTS sources)
    get_source_file_property(skip ${source} SKIP_UNITY_BUILD_INCLUSION)
    if(NOT skip AND source MATCHES "\\.cpp$")
      string(MD5 digest "${source}")
      string(SUBSTRING "${digest}" 0 4 head)
      math(EXPR group "0x${head} % ${count}")
      set_source_files_properties(${source} PROPERTIES
                                UNITY_GROUP "${target}_${group}")
    endif()
  endforeach()
endfunction()
