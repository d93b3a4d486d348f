# shufflebias_add_test(NAME name SHUFFLE alg [PLUGIN target-or-path]
#                      [N n] [SAMPLES s] [SEED s] [TESTS a,b | TESTS a b]
#                      [PARAMS k=v ...] [ESCALATE k] EXPECT pass|fail)
#
# Registers a ctest test that runs the installed 'shufflebias test' on the
# built-in shuffle 'alg' (or, with PLUGIN, the shuffle called 'alg' in a
# plug-in: a MODULE library target of the project, or a path) and passes
# exactly when the verdict is the one expected: EXPECT pass wants exit
# code 0 (no bias found), EXPECT fail wants exit code 1 (bias found).
# Any other exit - 2 (a usage or input error), 3 (inconclusive), 130
# (interrupted) - fails the test whatever was expected.  Give a SEED so
# that the test is the same every time it runs: a fair shuffle then fails
# it only if that one seed falls in the one-in-a-million fail region,
# and it is reproducible when it does.
set(_SHUFFLEBIAS_RUN_TEST "${CMAKE_CURRENT_LIST_DIR}/shufflebias-run-test.cmake")

function(shufflebias_add_test)
  cmake_parse_arguments(SB "" "NAME;SHUFFLE;PLUGIN;N;SAMPLES;SEED;ESCALATE;EXPECT"
                        "TESTS;PARAMS" ${ARGN})
  if(NOT SB_NAME OR NOT SB_SHUFFLE)
    message(FATAL_ERROR "shufflebias_add_test: NAME and SHUFFLE are required")
  endif()
  if(SB_EXPECT STREQUAL "pass")
    set(code 0)
  elseif(SB_EXPECT STREQUAL "fail")
    set(code 1)
  else()
    message(FATAL_ERROR "shufflebias_add_test(${SB_NAME}): EXPECT pass or "
                        "EXPECT fail, not '${SB_EXPECT}'")
  endif()
  if(SB_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "shufflebias_add_test(${SB_NAME}): unknown arguments "
                        "${SB_UNPARSED_ARGUMENTS}")
  endif()
  set(args test)
  if(SB_PLUGIN)
    if(TARGET ${SB_PLUGIN})
      list(APPEND args --plugin $<TARGET_FILE:${SB_PLUGIN}>)
    else()
      list(APPEND args --plugin ${SB_PLUGIN})
    endif()
  endif()
  list(APPEND args ${SB_SHUFFLE})
  foreach(opt N SAMPLES SEED ESCALATE)
    if(DEFINED SB_${opt})
      string(TOLOWER ${opt} flag)
      if(flag STREQUAL "n")
        list(APPEND args --n ${SB_${opt}})
      else()
        list(APPEND args --${flag} ${SB_${opt}})
      endif()
    endif()
  endforeach()
  if(SB_TESTS)
    string(REPLACE ";" "," tests "${SB_TESTS}")
    list(APPEND args --tests ${tests})
  endif()
  foreach(p ${SB_PARAMS})
    list(APPEND args --param ${p})
  endforeach()
  # A fail that was expected needs no diagnosis (which known flaw it
  # resembles): it costs seconds and changes no verdict.
  if(SB_EXPECT STREQUAL "fail")
    list(APPEND args --no-diagnosis)
  endif()
  add_test(NAME ${SB_NAME}
           COMMAND ${CMAKE_COMMAND} -DSHUFFLEBIAS_EXPECT=${code}
                   -P ${_SHUFFLEBIAS_RUN_TEST} --
                   $<TARGET_FILE:shufflebias::cli> ${args})
endfunction()
