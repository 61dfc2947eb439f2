// Counts heap allocations per thread, for tests that insist a hot path allocates nothing.
//
// Linked into a test executable, these definitions interpose on glibc's allocator for the whole
// process (the executable's symbols come before libc's); each forwards to glibc's own entry point
// (`__libc_malloc` and friends) and counts only on a thread that asked to be counted, so the cost
// for everything else is one thread-local read.
#include "CMallocCounter.h"

#include <errno.h>
#include <stddef.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);
extern void __libc_free(void *pointer);

static __thread int counting;
static __thread int64_t counted;

void caffe_malloc_counter_start(void) {
    counted = 0;
    counting = 1;
}

int64_t caffe_malloc_counter_stop(void) {
    counting = 0;
    return counted;
}

void *malloc(size_t size) {
    if (counting) counted++;
    return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
    if (counting) counted++;
    return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
    if (counting) counted++;
    return __libc_realloc(pointer, size);
}

void free(void *pointer) { __libc_free(pointer); }

void *memalign(size_t alignment, size_t size) {
    if (counting) counted++;
    return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
    if (counting) counted++;
    return __libc_memalign(alignment, size);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
    if (counting) counted++;
    void *pointer = __libc_memalign(alignment, size);
    if (pointer == NULL) return ENOMEM;
    *result = pointer;
    return 0;
}
