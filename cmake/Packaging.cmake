# `cmake --install` and the Debian package (cpack -G DEB).
#
# Layout under the prefix (/usr in the package):
#   bin/warp-lint
#   lib/warp-lint/libWarpLint.so, libWarpLintChecks.so (GNUInstallDirs libdir)
#     (the loader opens the checks library next to itself, wherever that is)
#   share/doc/warp-lint/      README.md, LICENSE, docs/, copyright (Debian's
#                             machine-readable form), changelog.Debian.gz
#   share/man/man1/warp-lint.1.gz  made from `warp-lint --help`
#   share/warp-lint/ci-templates/  the CI jobs, the shell stage and
#                                  sarif-to-codequality.py
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

# The copyright file in Debian's machine-readable format: the header, then
# the license text as a stand-alone paragraph (lines indented, blank lines
# as " .").
set(WARP_LINT_DOCS_OUT ${CMAKE_BINARY_DIR}/package-docs)
file(READ cmake/debian/copyright-header WARP_LINT_COPYRIGHT)
file(READ LICENSE WARP_LINT_LICENSE)
string(STRIP "${WARP_LINT_LICENSE}" WARP_LINT_LICENSE)
string(REGEX REPLACE "[ \t]+\n" "\n" WARP_LINT_LICENSE "${WARP_LINT_LICENSE}")
string(REPLACE "\n" "\n " WARP_LINT_LICENSE " ${WARP_LINT_LICENSE}")
string(REPLACE "\n \n" "\n .\n" WARP_LINT_LICENSE "${WARP_LINT_LICENSE}")
string(REPLACE "\n \n" "\n .\n" WARP_LINT_LICENSE "${WARP_LINT_LICENSE}")
string(APPEND WARP_LINT_COPYRIGHT
       "\nLicense: Apache-2.0 WITH LLVM-exception\n${WARP_LINT_LICENSE}\n")
file(WRITE ${WARP_LINT_DOCS_OUT}/copyright "${WARP_LINT_COPYRIGHT}")
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
             ${CMAKE_CURRENT_SOURCE_DIR}/LICENSE
             ${CMAKE_CURRENT_SOURCE_DIR}/cmake/debian/copyright-header)
install(FILES ${WARP_LINT_DOCS_OUT}/copyright DESTINATION ${CMAKE_INSTALL_DOCDIR})

# The changelog and the man page, compressed as Debian wants them (gzip -n:
# no name or time stamp, so the package is reproducible). The man page is
# made from `warp-lint --help` by cmake/help2man.py.
find_program(WARP_LINT_GZIP gzip)
find_package(Python3 COMPONENTS Interpreter)
if(WARP_LINT_GZIP AND Python3_FOUND)
  add_custom_command(
    OUTPUT ${WARP_LINT_DOCS_OUT}/changelog.Debian.gz
    COMMAND ${WARP_LINT_GZIP} -9nc ${CMAKE_CURRENT_SOURCE_DIR}/cmake/debian/changelog
            > ${WARP_LINT_DOCS_OUT}/changelog.Debian.gz
    DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/cmake/debian/changelog
    COMMENT "Compressing the Debian changelog")
  add_custom_command(
    OUTPUT ${WARP_LINT_DOCS_OUT}/warp-lint.1.gz
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/cmake/help2man.py
            $<TARGET_FILE:warp-lint> ${WARP_LINT_VERSION}
            ${WARP_LINT_DOCS_OUT}/warp-lint.1
    COMMAND ${WARP_LINT_GZIP} -9nf ${WARP_LINT_DOCS_OUT}/warp-lint.1
    DEPENDS warp-lint ${CMAKE_CURRENT_SOURCE_DIR}/cmake/help2man.py
    COMMENT "Writing the man page from warp-lint --help")
  add_custom_target(package-docs ALL DEPENDS
    ${WARP_LINT_DOCS_OUT}/changelog.Debian.gz ${WARP_LINT_DOCS_OUT}/warp-lint.1.gz)
  install(FILES ${WARP_LINT_DOCS_OUT}/changelog.Debian.gz
          DESTINATION ${CMAKE_INSTALL_DOCDIR})
  install(FILES ${WARP_LINT_DOCS_OUT}/warp-lint.1.gz
          DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
else()
  message(WARNING "warp-lint: gzip or Python 3 missing: the package will "
                  "have no man page and no changelog")
endif()

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME warp-lint)
set(CPACK_PACKAGE_VERSION ${WARP_LINT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "static analyzer for warp-level synchronization bugs in CUDA C++")
set(CPACK_PACKAGE_CONTACT "warp-lint maintainers <maintainers@warp-lint.invalid>"
    CACHE STRING "Maintainer field of the Debian package")
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
