#ifndef CMALLOC_COUNTER_H
#define CMALLOC_COUNTER_H

#include <stdint.h>

/// Starts counting the calling thread's heap allocations (malloc, calloc, realloc, the aligned
/// allocators) from zero.
void caffe_malloc_counter_start(void);

/// Stops counting on the calling thread and returns how many allocations it saw.
int64_t caffe_malloc_counter_stop(void);

#endif
