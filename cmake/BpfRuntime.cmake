# The BPF run-time library: every bpf/*.bpf.c is compiled by clang for the
# BPF target, the objects are linked into one with bpftool, and the result is
# embedded in the binary (dt_runtime_obj .. dt_runtime_obj_end).
find_program(CLANG NAMES clang clang-14 REQUIRED)
find_program(BPFTOOL NAMES bpftool PATHS /usr/sbin /sbin REQUIRED)
execute_process(COMMAND ${CMAKE_C_COMPILER} -print-multiarch
  OUTPUT_VARIABLE DTRACE_MULTIARCH OUTPUT_STRIP_TRAILING_WHITESPACE)
file(GLOB DTRACE_RUNTIME_SRCS CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/bpf/*.bpf.c)
file(GLOB DTRACE_RUNTIME_HDRS CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/bpf/*.h ${CMAKE_SOURCE_DIR}/src/base/*abi.h
  ${CMAKE_SOURCE_DIR}/src/base/quant.h)
set(DTRACE_RUNTIME_OBJS)
foreach(src ${DTRACE_RUNTIME_SRCS})
  get_filename_component(name ${src} NAME_WE)
  set(obj ${CMAKE_CURRENT_BINARY_DIR}/bpf/${name}.o)
  add_custom_command(
    OUTPUT ${obj}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_CURRENT_BINARY_DIR}/bpf
    COMMAND ${CLANG} -target bpf -O2 -g -Wall -Werror -mcpu=v3
            -I/usr/include/${DTRACE_MULTIARCH} -I${CMAKE_SOURCE_DIR}/bpf -I${CMAKE_SOURCE_DIR}/src
            -c ${src} -o ${obj}
    DEPENDS ${src} ${DTRACE_RUNTIME_HDRS}
    COMMENT "Compiling BPF run-time ${name}"
    VERBATIM)
  list(APPEND DTRACE_RUNTIME_OBJS ${obj})
endforeach()
set(DTRACE_RUNTIME_OBJ ${CMAKE_CURRENT_BINARY_DIR}/dt_runtime.bpf.o)
add_custom_command(
  OUTPUT ${DTRACE_RUNTIME_OBJ}
  COMMAND ${BPFTOOL} gen object ${DTRACE_RUNTIME_OBJ} ${DTRACE_RUNTIME_OBJS}
  DEPENDS ${DTRACE_RUNTIME_OBJS}
  COMMENT "Linking the BPF run-time library"
  VERBATIM)
add_custom_target(dtrace_runtime DEPENDS ${DTRACE_RUNTIME_OBJ})
set(DTRACE_RUNTIME_ASM ${CMAKE_CURRENT_BINARY_DIR}/dt_runtime_blob.S)
file(WRITE ${DTRACE_RUNTIME_ASM}
".section .rodata\n.balign 8\n.global dt_runtime_obj\ndt_runtime_obj:\n.incbin \"${DTRACE_RUNTIME_OBJ}\"\n.global dt_runtime_obj_end\ndt_runtime_obj_end:\n.section .note.GNU-stack,\"\",@progbits\n")
set_source_files_properties(${DTRACE_RUNTIME_ASM} PROPERTIES OBJECT_DEPENDS ${DTRACE_RUNTIME_OBJ})
