# Install rules and the CMake package: `cmake --install build --prefix P` puts the programs in
# P/bin, the layer libraries and their headers in P/lib and P/include, the data folder in P/share/dlca, and
# P/lib/cmake/dlca so that another project can find_package(dlca) and link dlca::dlca.
include(CMakePackageConfigHelpers)

install(TARGETS dlca ${DLCA_LAYER_TARGETS} EXPORT dlcaTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/dlca DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(FILES ${DLCA_DATA_FILES} DESTINATION ${CMAKE_INSTALL_DATADIR}/dlca)
install(FILES ${DLCA_PICTURE_FILES} DESTINATION ${CMAKE_INSTALL_DATADIR}/dlca/pictures)
if(DLCA_BUILD_APPS)
  # The old names' launchers start the dlca in their own folder, so they go where it goes.
  install(TARGETS dlca_program ${DLCA_OLD_PROGRAMS} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()

set(DLCA_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/dlca)
install(EXPORT dlcaTargets NAMESPACE dlca:: DESTINATION ${DLCA_CMAKE_DIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/dlcaConfig.cmake.in
  ${CMAKE_BINARY_DIR}/dlcaConfig.cmake INSTALL_DESTINATION ${DLCA_CMAKE_DIR}
  PATH_VARS CMAKE_INSTALL_DATADIR)
write_basic_package_version_file(${CMAKE_BINARY_DIR}/dlcaConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/dlcaConfig.cmake ${CMAKE_BINARY_DIR}/dlcaConfigVersion.cmake
  DESTINATION ${DLCA_CMAKE_DIR})

# The Python package: PREFIX/lib/python3.X/site-packages/dlca (with its data folder); put that
# site-packages folder on PYTHONPATH unless the prefix is one Python searches.
if(DLCA_HAVE_PYTHON)
  set(DLCA_PYTHON_INSTALL_DIR
    lib/python${Python3_VERSION_MAJOR}.${Python3_VERSION_MINOR}/site-packages/dlca)
  install(TARGETS _dlca LIBRARY DESTINATION ${DLCA_PYTHON_INSTALL_DIR})
  install(FILES ${PROJECT_SOURCE_DIR}/python/dlca/__init__.py DESTINATION ${DLCA_PYTHON_INSTALL_DIR})
  install(FILES ${DLCA_DATA_FILES} DESTINATION ${DLCA_PYTHON_INSTALL_DIR}/targets)
  install(FILES ${DLCA_PICTURE_FILES} DESTINATION ${DLCA_PYTHON_INSTALL_DIR}/targets/pictures)
endif()
