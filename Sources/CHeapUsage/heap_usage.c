#include "CHeapUsage.h"

#include <malloc.h>
#include <stdlib.h>

size_t caffe_heap_in_use(void) {
    struct mallinfo2 info = mallinfo2();
    return info.uordblks + info.hblkhd;
}

int caffe_heap_limit_arenas(int count) {
    if (getenv("MALLOC_ARENA_MAX") != NULL) {
        return 0;
    }
    return mallopt(M_ARENA_MAX, count);
}
