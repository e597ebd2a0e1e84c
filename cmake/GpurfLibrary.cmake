# gpurf_add_family_library(NAME SOURCES...): a library whose sources register structure families
# (base/registry.h: GPURF_REGISTER), linked whole wherever it is used.
#
# A registration is a static object in the file that implements the family; nothing refers to
# it by name, so a plain static library would let the linker drop it. NAME is therefore an
# INTERFACE target that links the archive NAME_archive with --whole-archive (CMake's
# WHOLE_ARCHIVE link feature). Link NAME, never NAME_archive; give NAME_archive its own usage
# requirements (include folders, dependencies), which NAME passes on.
function(gpurf_add_family_library name)
  add_library(${name}_archive STATIC ${ARGN})
  add_library(${name} INTERFACE)
  target_link_libraries(${name} INTERFACE "$<LINK_LIBRARY:WHOLE_ARCHIVE,${name}_archive>")
endfunction()
