# Writes OUT, a header defining ULPB_SOURCE_ID: the commit of the tree in SRC that this build came from, with
# "-dirty-" and the start of a hash of the uncommitted changes to tracked files when there are any ("unknown" without
# git). It runs at every build, not only at configure time, so a commit made since then is seen; OUT is rewritten
# only when the text changes, so an unchanged tree recompiles nothing.
set(id "unknown")
find_package(Git QUIET)
if(GIT_FOUND)
  execute_process(COMMAND "${GIT_EXECUTABLE}" -C "${SRC}" rev-parse --short=12 HEAD
                  OUTPUT_VARIABLE commit OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE commit_status)
  if(commit_status EQUAL 0 AND commit)
    set(id "${commit}")
    execute_process(COMMAND "${GIT_EXECUTABLE}" -C "${SRC}" diff HEAD --
                    OUTPUT_VARIABLE changes ERROR_QUIET RESULT_VARIABLE diff_status)
    if(NOT diff_status EQUAL 0)
      set(id "${commit}-dirty")
    elseif(changes)
      string(SHA256 changes_hash "${changes}")
      string(SUBSTRING "${changes_hash}" 0 12 changes_hash)
      set(id "${commit}-dirty-${changes_hash}")
    endif()
  endif()
endif()
set(text "/* Generated at build time by accuracy/source_id.cmake. */\n#define ULPB_SOURCE_ID \"${id}\"\n")
if(EXISTS "${OUT}")
  file(READ "${OUT}" old)
endif()
if(NOT old STREQUAL text)
  file(WRITE "${OUT}" "${text}")
endif()
