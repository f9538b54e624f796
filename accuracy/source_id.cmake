# Writes OUT, a header defining ULPB_SOURCE_ID: the commit of the tree in SRC that this build came from, with
# "-dirty-" and the start of a hash of the uncommitted changes to what is built, when there are any: tracked files
# (git diff HEAD, without the user's diff settings) and new files, both in the source folders (a README or a
# regenerated bench.json does not change a result, so it does not make the build dirty). "unknown" when SRC is not
# the top of a git checkout (a tarball, even one unpacked inside another repository). It runs at every build, not only at configure time, so a
# commit made since then is seen; OUT is rewritten only when the text changes, so an unchanged tree recompiles nothing.
set(id "unknown")
find_package(Git QUIET)
if(GIT_FOUND)
  # -c safe.directory: a checkout owned by another user (a container's mount) is still read
  set(git "${GIT_EXECUTABLE}" -c "safe.directory=${SRC}" -c color.ui=false -C "${SRC}")
  execute_process(COMMAND ${git} rev-parse --show-toplevel OUTPUT_VARIABLE top OUTPUT_STRIP_TRAILING_WHITESPACE
                  ERROR_QUIET RESULT_VARIABLE top_status)
  execute_process(COMMAND ${git} rev-parse --short=12 HEAD OUTPUT_VARIABLE commit OUTPUT_STRIP_TRAILING_WHITESPACE
                  ERROR_QUIET RESULT_VARIABLE commit_status)
  file(REAL_PATH "${SRC}" src_real)
  if(top_status EQUAL 0 AND commit_status EQUAL 0 AND commit)
    file(REAL_PATH "${top}" top_real)
  endif()
  if(top_real AND top_real STREQUAL src_real)
    set(id "${commit}")
    set(source_paths CMakeLists.txt kernels reference accuracy bench cli tests)
    execute_process(COMMAND ${git} diff --no-ext-diff --no-textconv --binary HEAD -- ${source_paths}
                    OUTPUT_VARIABLE changes ERROR_QUIET RESULT_VARIABLE diff_status)
    execute_process(COMMAND ${git} ls-files -o --exclude-standard -- ${source_paths}
                    OUTPUT_VARIABLE new_files ERROR_QUIET)
    string(REPLACE "\n" ";" new_files "${new_files}")
    foreach(new_file IN LISTS new_files)
      if(new_file)
        file(SHA256 "${SRC}/${new_file}" new_file_hash)
        string(APPEND changes "new ${new_file} ${new_file_hash}\n")
      endif()
    endforeach()
    if(NOT diff_status EQUAL 0)
      set(id "${commit}-dirty")
    elseif(changes)
      string(SHA256 changes_hash "${changes}")
      string(SUBSTRING "${changes_hash}" 0 12 changes_hash)
      set(id "${commit}-dirty-${changes_hash}")
    endif()
  elseif(EXISTS "${SRC}/.git")
    message(STATUS "ulpbench: git could not read ${SRC}; results will name their source as unknown")
  endif()
endif()
set(text "/* Generated at build time by accuracy/source_id.cmake. */\n#define ULPB_SOURCE_ID \"${id}\"\n")
if(EXISTS "${OUT}")
  file(READ "${OUT}" old)
endif()
if(NOT old STREQUAL text)
  file(WRITE "${OUT}" "${text}")
endif()
