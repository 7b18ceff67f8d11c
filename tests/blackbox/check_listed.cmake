# cmake -DDIR=tests/blackbox -DLISTED=test_a.cpp,test_b.cpp,... -P check_listed.cmake: fail when a
# test_*.cpp in DIR is not in LISTED (tests/blackbox/CMakeLists.txt's ashare_blackbox_case_files),
# whose cases would then be neither built nor run (issue 43).
cmake_minimum_required(VERSION 3.25)
string(REPLACE "," ";" LISTED "${LISTED}")
file(GLOB present RELATIVE ${DIR} ${DIR}/test_*.cpp)
set(missing "")
foreach(file IN LISTS present)
  if(NOT file IN_LIST LISTED)
    list(APPEND missing ${file})
  endif()
endforeach()
if(missing)
  message(FATAL_ERROR "not in ashare_blackbox_case_files (tests/blackbox/CMakeLists.txt): ${missing}")
endif()
list(LENGTH present count)
message(STATUS "all ${count} test_*.cpp files are listed")
