# dlca_add_layer(NAME SOURCES... [DEPENDS layers...]): one layer of the library
# (docs/architecture.md, "Layers"): a static library dlca_NAME (alias dlca::NAME) built from
# src/NAME/, whose public headers are include/dlca/NAME/ and whose private headers are found as
# "NAME/..." from src/. DEPENDS names the lower layers it links, the only ones its files may include
# (tools/check_layers.py checks that).
function(dlca_add_layer name)
  cmake_parse_arguments(PARSE_ARGV 1 layer "" "" "SOURCES;DEPENDS")
  set(target dlca_${name})
  add_library(${target} STATIC ${layer_SOURCES})
  add_library(dlca::${name} ALIAS ${target})
  set_target_properties(${target} PROPERTIES EXPORT_NAME ${name})
  # DLCA_UNITY_BUILD: a few combined files per layer (the Highway files that include themselves
  # once per SIMD target say SKIP_UNITY_BUILD_INCLUSION in their layer's CMakeLists.txt).
  set_target_properties(${target} PROPERTIES UNITY_BUILD ${DLCA_UNITY_BUILD} UNITY_BUILD_BATCH_SIZE 8)
  target_include_directories(${target}
    PUBLIC $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include> $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>
    PRIVATE ${PROJECT_SOURCE_DIR}/src)
  foreach(lower ${layer_DEPENDS})
    target_link_libraries(${target} PUBLIC dlca_${lower})
  endforeach()
  if(DLCA_HAVE_PYTHON_CANDIDATE)
    set_target_properties(${target} PROPERTIES POSITION_INDEPENDENT_CODE ON)
  endif()
  set_property(GLOBAL APPEND PROPERTY DLCA_LAYER_TARGETS ${target})
endfunction()
