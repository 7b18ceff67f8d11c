# The C++ runtime that ashare-net.so uses and `ashare` must export (src/cli/CMakeLists.txt):
# `ashare` links libstdc++ statically, and the module, linked without one, binds to that copy; so
# do the C++ libraries the module loads (cpp-httplib), whose own libstdc++.so then serves nothing.
#
# cmake -DNM=nm -DLIBSTDCXX=libstdc++.so "-DUSERS=ashare-net.so;libcpp-httplib.so" -DOUT=prefix
#       -P runtime_symbols.cmake
#   writes prefix.ld (EXTERN: the symbols `ashare` must link in) and prefix.list (its --dynamic-list):
#   the symbols of libstdc++ that USERS leave undefined, rewriting neither file when unchanged, so
#   that `ashare` is relinked only when the set changes.
# cmake -DNM=nm -DEXECUTABLE=ashare -DOUT=prefix -P runtime_symbols.cmake
#   fails, naming them, when `ashare` does not export every symbol of prefix.list (what
#   --no-undefined checked when the module linked a runtime of its own).

# Return in `out` the names that `nm ${ARGN}` prints, one per line, without versions.
function(nm_names out)
  execute_process(COMMAND ${NM} ${ARGN} OUTPUT_VARIABLE text RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "${NM} ${ARGN} failed (${status})")
  endif()
  string(REGEX REPLACE "@[^\n]*" "" text "${text}")
  string(REPLACE "\n" ";" lines "${text}")
  set(names "")
  foreach(line IN LISTS lines)
    if(line MATCHES "^[0-9a-f ]* ([A-Za-z]) ([^ ]+)$")
      list(APPEND names "${CMAKE_MATCH_2}")
    endif()
  endforeach()
  set(${out} "${names}" PARENT_SCOPE)
endfunction()

# Write `content` to `path` unless it already holds exactly that.
function(write_if_changed path content)
  if(EXISTS "${path}")
    file(READ "${path}" old)
    if(old STREQUAL content)
      return()
    endif()
  endif()
  file(WRITE "${path}" "${content}")
endfunction()

if(DEFINED USERS)
  # Weak ones too: a weak reference (__cxa_pure_virtual) binds to a definition when there is one.
  set(undefined "")
  foreach(user IN LISTS USERS)
    nm_names(names -D --undefined-only ${user})
    list(APPEND undefined ${names})
  endforeach()
  nm_names(runtime -D --defined-only ${LIBSTDCXX})
  foreach(name IN LISTS runtime)
    set("defined:${name}" 1) # a set of names (IN_LIST is linear, and there are thousands)
  endforeach()
  set(needed "")
  foreach(name IN LISTS undefined)
    if(DEFINED "defined:${name}")
      list(APPEND needed "${name}")
    endif()
  endforeach()
  list(SORT needed)
  list(REMOVE_DUPLICATES needed)
  list(JOIN needed "\n  " lines)
  write_if_changed("${OUT}.ld" "EXTERN(\n  ${lines}\n)\n")
  list(JOIN needed ";\n  " lines)
  write_if_changed("${OUT}.list" "{\n  ${lines};\n};\n")
elseif(DEFINED EXECUTABLE)
  file(STRINGS "${OUT}.list" lines REGEX "^  [^ ]+;$")
  list(TRANSFORM lines REPLACE "^  (.*);$" "\\1")
  nm_names(exported -D --defined-only ${EXECUTABLE})
  foreach(name IN LISTS exported)
    set("defined:${name}" 1)
  endforeach()
  set(missing "")
  foreach(name IN LISTS lines)
    if(NOT DEFINED "defined:${name}")
      list(APPEND missing "${name}")
    endif()
  endforeach()
  if(missing)
    list(JOIN missing "\n  " text)
    message(FATAL_ERROR "${EXECUTABLE} does not export what ashare-net.so needs:\n  ${text}")
  endif()
else()
  message(FATAL_ERROR "runtime_symbols.cmake: set USERS or EXECUTABLE")
endif()
