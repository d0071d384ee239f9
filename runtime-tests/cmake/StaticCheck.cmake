# `runtime.static.<launcher>`: what the runtime tests assume about warp-lint,
# checked without a GPU.
#   MODE=TOOL: BUGGY was flagged, FIXED (generated) differs from it, has no
#              finding of CHECK, and a second --fix leaves it unchanged.
#   MODE=HAND: BUGGY is flagged and the hand-written FIXED is clean.
# Kernel sources include "rt_launch.h" from their own directory, so each file
# is linted from a scratch copy that sits next to the header.
file(MAKE_DIRECTORY "${SCRATCH}")
file(COPY_FILE "${HEADER}" "${SCRATCH}/rt_launch.h" ONLY_IF_DIFFERENT)
function(lint file want)
  get_filename_component(name "${file}" NAME)
  file(COPY_FILE "${file}" "${SCRATCH}/${want}-${name}")
  execute_process(COMMAND "${TOOL}" "--checks=${CHECK}" "${SCRATCH}/${want}-${name}"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL want)
    message(FATAL_ERROR "warp-lint --checks=${CHECK} ${file}: exit ${rc}, expected ${want}\n${out}")
  endif()
endfunction()

lint("${BUGGY}" 1)
lint("${FIXED}" 0)
if(MODE STREQUAL "TOOL")
  file(READ "${BUGGY}" before)
  file(READ "${FIXED}" after)
  if(before STREQUAL after)
    message(FATAL_ERROR "warp-lint --fix left ${FIXED} unchanged: the 'fixed' kernel is the buggy one")
  endif()
  get_filename_component(dir "${FIXED}" DIRECTORY)
  get_filename_component(stem "${FIXED}" NAME_WE)
  set(again "${dir}/${stem}.refix.cu")
  file(COPY_FILE "${FIXED}" "${again}")
  execute_process(COMMAND "${TOOL}" --fix "--checks=${CHECK}" "${again}"
                  RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
  file(READ "${again}" twice)
  file(REMOVE "${again}")
  if(NOT twice STREQUAL after)
    message(FATAL_ERROR "warp-lint --fix is not idempotent on ${FIXED}")
  endif()
endif()
message(STATUS "ok")
