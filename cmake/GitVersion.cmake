# Writes OUTPUT, a header defining KTFLOW_GIT_HASH as the source tree's
# commit ("unknown" outside git), run at every build so `ktflow --version`
# names the commit it was built from; configure_file leaves the file, and so
# what includes it, untouched while the commit stays the same.
execute_process(
  COMMAND git -C "${SOURCE_DIR}" rev-parse --short=12 HEAD
  OUTPUT_VARIABLE KTFLOW_GIT_HASH
  OUTPUT_STRIP_TRAILING_WHITESPACE
  ERROR_QUIET
  RESULT_VARIABLE result)
if(NOT result EQUAL 0 OR KTFLOW_GIT_HASH STREQUAL "")
  set(KTFLOW_GIT_HASH "unknown")
endif()
file(WRITE "${OUTPUT}.tmp" "#define KTFLOW_GIT_HASH \"${KTFLOW_GIT_HASH}\"\n")
configure_file("${OUTPUT}.tmp" "${OUTPUT}" COPYONLY)
