# Generates a fixed kernel: copies SRC next to a copy of rt_launch.h, runs
# `TOOL --fix --checks=CHECK` on the copy and renames it to OUT only on
# success, so a failed run never leaves a stale "fixed" file behind.
# Exit codes 0 (no finding) and 1 (findings, fixed) are accepted.
get_filename_component(dir "${OUT}" DIRECTORY)
get_filename_component(stem "${OUT}" NAME_WE)
set(work "${dir}/${stem}.fixing.cu")
file(MAKE_DIRECTORY "${dir}")
file(COPY_FILE "${HEADER}" "${dir}/rt_launch.h" ONLY_IF_DIFFERENT)
file(COPY_FILE "${SRC}" "${work}")
execute_process(COMMAND "${TOOL}" --fix "--checks=${CHECK}" "${work}"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
file(WRITE "${dir}/${stem}.fix.log" "$ ${TOOL} --fix --checks=${CHECK} ${work}\n${out}exit ${rc}\n")
if(NOT rc EQUAL 0 AND NOT rc EQUAL 1)
  message(FATAL_ERROR "warp-lint --fix failed (exit ${rc}) on ${SRC}:\n${out}")
endif()
file(RENAME "${work}" "${OUT}")
