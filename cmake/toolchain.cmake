# The QuickJS backend of deno_core (v8x) builds WAMR, whose CMake fetches SIMDe
# from GitHub. Point FetchContent at Debian's libsimde-dev headers instead so
# the build works offline.
set(FETCHCONTENT_SOURCE_DIR_SIMDE "/usr/include" CACHE PATH "SIMDe headers (libsimde-dev)" FORCE)
set(FETCHCONTENT_FULLY_DISCONNECTED ON CACHE BOOL "" FORCE)
