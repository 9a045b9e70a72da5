# Syscall numbers are kernel ABI: take them from the build machine's
# <asm/unistd.h> and generate a name/number table (used by the syscall
# provider's raw_syscalls dispatch).
execute_process(COMMAND sh -c "echo '#include <asm/unistd.h>' | ${CMAKE_C_COMPILER} -E -dM -"
  OUTPUT_VARIABLE _nr_defs RESULT_VARIABLE _rc)
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "cannot preprocess <asm/unistd.h> (install linux-libc-dev)")
endif()
string(REGEX MATCHALL "#define __NR_[a-z0-9_]+ [0-9]+" _nr_lines "${_nr_defs}")
set(_body "")
foreach(line ${_nr_lines})
  string(REGEX REPLACE "#define __NR_([a-z0-9_]+) ([0-9]+)" "\t{ \"\\1\", \\2 },\n" entry "${line}")
  string(APPEND _body "${entry}")
endforeach()
set(DTRACE_SYSCALL_TABLE ${CMAKE_CURRENT_BINARY_DIR}/syscall_table.c)
file(WRITE ${DTRACE_SYSCALL_TABLE}.tmp
"/* Generated from <asm/unistd.h> by cmake/SyscallTable.cmake. */\n#include \"providers/syscall_table.h\"\n\nconst struct dt_syscall_nr dt_syscall_table[] = {\n${_body}};\nconst unsigned dt_syscall_table_len = sizeof(dt_syscall_table) / sizeof(dt_syscall_table[0]);\n")
configure_file(${DTRACE_SYSCALL_TABLE}.tmp ${DTRACE_SYSCALL_TABLE} COPYONLY)
