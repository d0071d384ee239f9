# `cmake --install` and the Debian package (cpack -G DEB).
#
# Layout under the prefix (/usr in the package):
#   bin/warp-lint
#   lib/warp-lint/libWarpLint.so, libWarpLintChecks.so (GNUInstallDirs libdir)
#     (the loader opens the checks library next to itself, wherever that is)
#   share/doc/warp-lint/      README.md, LICENSE, docs/
#   share/warp-lint/ci-templates/  the CI jobs and sarif-to-codequality.py
#
# The package depends on Debian's LLVM 22 runtime libraries, not on the -dev
# packages used to build: libclang-cpp22 and libllvm22 are what the binary
# links (ldd), libclang-common-22-dev is the one package holding clang's
# resource headers (the CUDA wrapper headers every .cu parse includes).
# clang-tidy-22 is only needed for the plugin: Recommends.
include(GNUInstallDirs)

set(WARP_LINT_PLUGIN_DIR ${CMAKE_INSTALL_LIBDIR}/warp-lint)
install(TARGETS WarpLint WarpLintChecks
        LIBRARY DESTINATION ${WARP_LINT_PLUGIN_DIR})
install(FILES README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/docs)
install(DIRECTORY examples/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/examples)
install(FILES LICENSE DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY ci-templates/ DESTINATION ${CMAKE_INSTALL_DATADIR}/warp-lint/ci-templates
        USE_SOURCE_PERMISSIONS)

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME warp-lint)
set(CPACK_PACKAGE_VERSION ${WARP_LINT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "static analyzer for warp-level synchronization bugs in CUDA C++")
set(CPACK_PACKAGE_CONTACT "warp-lint maintainers" CACHE STRING
    "Maintainer field of the Debian package")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
execute_process(COMMAND dpkg --print-architecture
                OUTPUT_VARIABLE WARP_LINT_DEB_ARCH
                OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
if(NOT WARP_LINT_DEB_ARCH)
  set(WARP_LINT_DEB_ARCH amd64)
endif()
set(CPACK_DEBIAN_PACKAGE_ARCHITECTURE ${WARP_LINT_DEB_ARCH})
set(CPACK_DEBIAN_FILE_NAME
    "warp-lint_${WARP_LINT_VERSION}_${WARP_LINT_DEB_ARCH}.deb")
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(WARP_LINT_LLVM_DEB_VERSION "1:${LLVM_VERSION_MAJOR}.${LLVM_VERSION_MINOR}")
set(CPACK_DEBIAN_PACKAGE_DEPENDS
    "libclang-cpp${LLVM_VERSION_MAJOR} (>= ${WARP_LINT_LLVM_DEB_VERSION}), libllvm${LLVM_VERSION_MAJOR} (>= ${WARP_LINT_LLVM_DEB_VERSION}), libclang-common-${LLVM_VERSION_MAJOR}-dev (>= ${WARP_LINT_LLVM_DEB_VERSION}), libc6, libstdc++6")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "clang-tidy-${LLVM_VERSION_MAJOR}")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "cuda-nvcc-13-0, cuda-cudart-dev-13-0, cuda-cccl-13-0")
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
    "Finds warp collectives (__shfl_*_sync, __ballot_sync, __syncwarp, ...)
called with masks that name lanes which are not there, per-lane spin locks
and serializing atomics. The warp-lint command reads nvcc compile databases
and writes SARIF; the clang-tidy plugin is in /usr/${WARP_LINT_PLUGIN_DIR}.
Needs the CUDA headers (a CUDA toolkit), no GPU.")
include(CPack)
