// The source of the targets that only build a precompiled header
// (cmake/PrecompiledHeaders.cmake).
