#ifndef CHEAP_USAGE_H
#define CHEAP_USAGE_H

#include <stddef.h>

/// Bytes the C heap has handed out and not taken back, over every thread (glibc's mallinfo2:
/// in-use chunks plus memory-mapped ones). Approximate while other threads allocate.
size_t caffe_heap_in_use(void);

/// Caps glibc's malloc arenas at `count` (mallopt M_ARENA_MAX) unless MALLOC_ARENA_MAX is set:
/// glibc's default, eight per core, lets a long-running service keep memory freed on one thread's
/// arena out of another's reach. Returns whether the cap was set.
int caffe_heap_limit_arenas(int count);

#endif
