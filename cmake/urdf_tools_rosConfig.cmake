# urdf_tools_ros as an ament linter: `urdf-tools check` of a package's robot descriptions.
#
# find_package(urdf_tools_ros) registers the ament_lint_auto extension
# urdf_tools_ros_lint_hook.cmake, which ament_lint_auto_find_test_dependencies() runs for a
# package with <test_depend>urdf_tools_ros</test_depend>, and defines urdf_tools_ros_lint().

if(_urdf_tools_ros_CONFIG_INCLUDED)
  return()
endif()
set(_urdf_tools_ros_CONFIG_INCLUDED TRUE)

find_package(ament_cmake_test QUIET REQUIRED)

# The CLI beside this file's prefix: lib/urdf_tools_ros (a colcon build or the ROS package),
# bin (a pip install).
get_filename_component(_urdf_tools_ros_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
find_program(urdf_tools_ros_CHECK NAMES urdf-tools
  PATHS "${_urdf_tools_ros_prefix}/lib/urdf_tools_ros" "${_urdf_tools_ros_prefix}/bin"
  NO_DEFAULT_PATH)

#
# Add a test, labelled linter, that checks every entry of the package's robot descriptions
# (urdf-tools check on its folder, with its .urdf-tools.toml) and writes JUnit to
# ${AMENT_TEST_RESULTS_DIR}/${PROJECT_NAME}/<TESTNAME>.xunit.xml, where colcon test-result
# reads it.
#
# :param TESTNAME: the test's name, default "urdf_tools"
# :param TIMEOUT: its time limit in seconds, default 300
#
function(urdf_tools_ros_lint)
  cmake_parse_arguments(ARG "" "TESTNAME;TIMEOUT" "" ${ARGN})
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "urdf_tools_ros_lint() called with unused arguments: "
      "${ARG_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT ARG_TESTNAME)
    set(ARG_TESTNAME "urdf_tools")
  endif()
  if(NOT ARG_TIMEOUT)
    set(ARG_TIMEOUT 300)
  endif()
  if(NOT urdf_tools_ros_CHECK)
    message(FATAL_ERROR "urdf_tools_ros_lint(): no urdf-tools in "
      "${_urdf_tools_ros_prefix}/lib/urdf_tools_ros or ${_urdf_tools_ros_prefix}/bin")
  endif()
  set(result_file "${AMENT_TEST_RESULTS_DIR}/${PROJECT_NAME}/${ARG_TESTNAME}.xunit.xml")
  ament_add_test("${ARG_TESTNAME}"
    COMMAND "${urdf_tools_ros_CHECK}" check "${CMAKE_CURRENT_SOURCE_DIR}"
      --format junit --output "${result_file}"
    OUTPUT_FILE "${CMAKE_BINARY_DIR}/urdf_tools_ros/${ARG_TESTNAME}.txt"
    RESULT_FILE "${result_file}"
    TIMEOUT "${ARG_TIMEOUT}"
    WORKING_DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}")
  set_tests_properties("${ARG_TESTNAME}" PROPERTIES LABELS "urdf_tools;linter")
endfunction()

ament_register_extension("ament_lint_auto" "urdf_tools_ros" "urdf_tools_ros_lint_hook.cmake")
