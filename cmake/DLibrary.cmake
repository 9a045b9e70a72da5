# The D library: declarations every D program may use (NULL, the errno
# and signal constants, ...).  The hand-written src/compiler/dlib/*.d and
# the constants generated from the build machine's <errno.h> and
# <signal.h> are joined into one text embedded in the binary
# (dt_dlib_text, NUL-terminated).
execute_process(COMMAND sh -c "printf '#include <errno.h>\\n#include <signal.h>\\n' | ${CMAKE_C_COMPILER} -E -dM -"
  OUTPUT_VARIABLE _defs RESULT_VARIABLE _rc)
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "cannot preprocess <errno.h> and <signal.h>")
endif()
set(_gen "/* Generated from <errno.h> and <signal.h> by cmake/DLibrary.cmake. */\n")
string(REGEX MATCHALL "#define (E|SIG)[A-Z0-9]+ [0-9]+\n" _num "${_defs}")
foreach(line ${_num})
  string(REGEX REPLACE "#define ([A-Z0-9]+) ([0-9]+)\n" "inline int \\1 = \\2;\n" entry "${line}")
  string(APPEND _gen "${entry}")
endforeach()
# Aliases (EWOULDBLOCK EAGAIN, SIGIOT SIGABRT) after what they name.
string(REGEX MATCHALL "#define (E|SIG)[A-Z0-9]+ (E|SIG)[A-Z0-9]+\n" _alias "${_defs}")
foreach(line ${_alias})
  string(REGEX REPLACE "#define ([A-Z0-9]+) ([A-Z0-9]+)\n" "inline int \\1 = \\2;\n" entry "${line}")
  string(APPEND _gen "${entry}")
endforeach()
file(GLOB DTRACE_DLIB_SRCS CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/src/compiler/dlib/*.d)
list(SORT DTRACE_DLIB_SRCS)
set(_text "")
foreach(src ${DTRACE_DLIB_SRCS})
  file(READ ${src} _content)
  string(APPEND _text "${_content}")
endforeach()
string(APPEND _text "${_gen}")
set(DTRACE_DLIB_TEXT ${CMAKE_CURRENT_BINARY_DIR}/dlib.d)
file(WRITE ${DTRACE_DLIB_TEXT}.tmp "${_text}")
configure_file(${DTRACE_DLIB_TEXT}.tmp ${DTRACE_DLIB_TEXT} COPYONLY)
set(DTRACE_DLIB_ASM ${CMAKE_CURRENT_BINARY_DIR}/dt_dlib_blob.S)
file(WRITE ${DTRACE_DLIB_ASM}
".section .rodata\n.global dt_dlib_text\ndt_dlib_text:\n.incbin \"${DTRACE_DLIB_TEXT}\"\n.byte 0\n.section .note.GNU-stack,\"\",@progbits\n")
set_source_files_properties(${DTRACE_DLIB_ASM} PROPERTIES OBJECT_DEPENDS ${DTRACE_DLIB_TEXT})
# Editing a library file re-runs this script.
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${DTRACE_DLIB_SRCS})
