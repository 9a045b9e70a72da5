# `cpack` (from the build directory) builds a Debian package of what
# `cmake --install` installs, under /usr, with its run-time dependencies
# found by dpkg-shlibdeps (libbpf1, libelf1, zlib1g, libprotobuf-c1, libc6).
set(CPACK_GENERATOR "DEB")
set(CPACK_PACKAGE_NAME "dtrace")
set(CPACK_PACKAGE_VENDOR "dtrace for Linux")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "dynamic tracing with D, compiled to eBPF")
set(CPACK_PACKAGE_DESCRIPTION
  "dtrace runs DTrace's D language on stock Linux kernels: it compiles D programs to BPF itself, loads them with libbpf and prints what DTrace prints. The package holds the dtrace command, the libdtrace library (shared and static) with its header and pkg-config file, the manual page and bash completion.")
set(CPACK_PACKAGE_CONTACT "dtrace for Linux maintainers <dtrace-linux@lists.invalid>")
set(CPACK_PACKAGING_INSTALL_PREFIX "/usr")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION "devel")
set(CPACK_DEBIAN_PACKAGE_PRIORITY "optional")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
# -C runs the C preprocessor.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "cpp")
# The static library links with these.
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "bash-completion, libbpf-dev, libelf-dev, libdw-dev, zlib1g-dev")
set(CPACK_STRIP_FILES OFF)
set(CPACK_SOURCE_IGNORE_FILES "/build/;/\\\\.git/")
include(CPack)
