# The D library: declarations every D program may use (NULL, the errno
# and signal constants, ...).  The hand-written src/compiler/dlib/*.d and
# the constants generated from the build machine's <errno.h> and
# <signal.h> are joined into one text embedded in the binary
# (dt_dlib_text, NUL-terminated): the base part, which must not need
# kernel types.
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
# The machine's own part (uregs[] indices): dlib/arch/<processor>/*.d.
file(GLOB _arch CONFIGURE_DEPENDS
  ${CMAKE_SOURCE_DIR}/src/compiler/dlib/arch/${CMAKE_SYSTEM_PROCESSOR}/*.d)
list(SORT _arch)
list(APPEND DTRACE_DLIB_SRCS ${_arch})
set(_text "")
foreach(src ${DTRACE_DLIB_SRCS})
  file(READ ${src} _content)
  string(APPEND _text "${_content}")
endforeach()
string(APPEND _text "${_gen}")
set(DTRACE_DLIB_TEXT ${CMAKE_CURRENT_BINARY_DIR}/dlib.d)
file(WRITE ${DTRACE_DLIB_TEXT}.tmp "${_text}")
configure_file(${DTRACE_DLIB_TEXT}.tmp ${DTRACE_DLIB_TEXT} COPYONLY)

# The kernel part (src/compiler/dlib/kernel/*.d): translators and types
# built on kernel types.  It is compiled only when a program names one of
# the names it defines (dt_kdlib_names, one a line: typedef names, inline
# names), so that programs that need none of it never read kernel BTF.
file(GLOB DTRACE_KDLIB_SRCS CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/src/compiler/dlib/kernel/*.d)
list(SORT DTRACE_KDLIB_SRCS)
set(_ktext "")
foreach(src ${DTRACE_KDLIB_SRCS})
  file(READ ${src} _content)
  string(APPEND _ktext "${_content}")
endforeach()
string(REGEX REPLACE "/\\*([^*]|\\*+[^*/])*\\*+/" "" _knocomments "${_ktext}")
# (";" separates CMake list items: "@" stands for it below.)
string(REPLACE ";" "@" _knocomments "${_knocomments}")
set(_knames "")
string(REGEX MATCHALL "\n}[ \t]*[A-Za-z_][A-Za-z0-9_]*[ \t]*@" _m "${_knocomments}")
foreach(x ${_m})
  string(REGEX REPLACE "\n}[ \t]*([A-Za-z_][A-Za-z0-9_]*)[ \t]*@" "\\1" n "${x}")
  string(APPEND _knames "${n}\n")
endforeach()
string(REGEX MATCHALL "\ntypedef[^@{}]*[ \t*]+[A-Za-z_][A-Za-z0-9_]*[ \t]*@" _m "${_knocomments}")
foreach(x ${_m})
  string(REGEX REPLACE ".*[ \t*]([A-Za-z_][A-Za-z0-9_]*)[ \t]*@" "\\1" n "${x}")
  string(APPEND _knames "${n}\n")
endforeach()
string(REGEX MATCHALL "\ninline[^=@]*=" _m "${_knocomments}")
foreach(x ${_m})
  string(REGEX REPLACE "\\[[^]]*\\]" "" x "${x}")
  string(REGEX REPLACE ".*[ \t*]([A-Za-z_][A-Za-z0-9_]*)[ \t]*=" "\\1" n "${x}")
  string(APPEND _knames "${n}\n")
endforeach()
set(DTRACE_KDLIB_TEXT ${CMAKE_CURRENT_BINARY_DIR}/dlib_kernel.d)
file(WRITE ${DTRACE_KDLIB_TEXT}.tmp "${_ktext}")
configure_file(${DTRACE_KDLIB_TEXT}.tmp ${DTRACE_KDLIB_TEXT} COPYONLY)
set(DTRACE_KDLIB_NAMES ${CMAKE_CURRENT_BINARY_DIR}/dlib_kernel.names)
file(WRITE ${DTRACE_KDLIB_NAMES}.tmp "${_knames}")
configure_file(${DTRACE_KDLIB_NAMES}.tmp ${DTRACE_KDLIB_NAMES} COPYONLY)

set(DTRACE_DLIB_ASM ${CMAKE_CURRENT_BINARY_DIR}/dt_dlib_blob.S)
file(WRITE ${DTRACE_DLIB_ASM}
".section .rodata\n"
".global dt_dlib_text\ndt_dlib_text:\n.incbin \"${DTRACE_DLIB_TEXT}\"\n.byte 0\n"
".global dt_kdlib_text\ndt_kdlib_text:\n.incbin \"${DTRACE_KDLIB_TEXT}\"\n.byte 0\n"
".global dt_kdlib_names\ndt_kdlib_names:\n.incbin \"${DTRACE_KDLIB_NAMES}\"\n.byte 0\n"
".section .note.GNU-stack,\"\",@progbits\n")
set_source_files_properties(${DTRACE_DLIB_ASM} PROPERTIES OBJECT_DEPENDS
  "${DTRACE_DLIB_TEXT};${DTRACE_KDLIB_TEXT};${DTRACE_KDLIB_NAMES}")
# Editing a library file re-runs this script.
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${DTRACE_DLIB_SRCS} ${DTRACE_KDLIB_SRCS})
