# What `cmake --install` puts where: the command, the library (shared and
# static), its header and pkg-config file, the man page, bash completion
# and the example program's source.
include(GNUInstallDirs)

# dtrace finds its library relative to itself, wherever the tree is installed
# (also when a package is unpacked with dpkg -x into another root).
file(RELATIVE_PATH DTRACE_SBIN_TO_LIB "/${CMAKE_INSTALL_SBINDIR}" "/${CMAKE_INSTALL_LIBDIR}")
set_target_properties(dtrace PROPERTIES INSTALL_RPATH "$ORIGIN/${DTRACE_SBIN_TO_LIB}")

install(TARGETS dtrace RUNTIME DESTINATION ${CMAKE_INSTALL_SBINDIR})
install(TARGETS libdtrace_shared LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(TARGETS libdtrace_static ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(FILES include/dtrace.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(FILES man/dtrace.8 DESTINATION ${CMAKE_INSTALL_MANDIR}/man8)
install(FILES completion/dtrace.bash DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions
  RENAME dtrace)
install(FILES examples/dtrace_count.c DESTINATION ${CMAKE_INSTALL_DOCDIR}/examples)

# libdtrace.pc names the prefix the tree is installed under, which is known
# only at install time (cmake --install --prefix, cpack's /usr).
set(DTRACE_PC_IN ${CMAKE_CURRENT_SOURCE_DIR}/cmake/libdtrace.pc.in)
set(DTRACE_PC ${CMAKE_CURRENT_BINARY_DIR}/libdtrace.pc)
install(CODE "
  set(PC_PREFIX \"\${CMAKE_INSTALL_PREFIX}\")
  set(PC_LIBDIR \"${CMAKE_INSTALL_LIBDIR}\")
  set(PC_INCLUDEDIR \"${CMAKE_INSTALL_INCLUDEDIR}\")
  set(PC_VERSION \"${PROJECT_VERSION}\")
  configure_file(\"${DTRACE_PC_IN}\" \"${DTRACE_PC}\" @ONLY)
")
install(FILES ${DTRACE_PC} DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
