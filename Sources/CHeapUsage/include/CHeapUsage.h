#ifndef CHEAP_USAGE_H
#define CHEAP_USAGE_H

#include <stddef.h>

/// Bytes the C heap has handed out and not taken back, over every thread (glibc's mallinfo2:
/// in-use chunks plus memory-mapped ones). Approximate while other threads allocate.
size_t caffe_heap_in_use(void);

#endif
