// Caffe: the libzmq C API as seen from Swift, plus the few Linux calls the binding needs that
// Swift's Glibc module does not export.
#ifndef CAFFE_CZEROMQ_SHIM_H
#define CAFFE_CZEROMQ_SHIM_H

#include <zmq.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/prctl.h>

/// A non-blocking, close-on-exec eventfd, used to wake zmq_poll and epoll loops.
static inline int caffe_zmq_eventfd(void) {
    return eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
}

/// Names the calling thread (at most 15 bytes are kept), for ps and debuggers.
static inline void caffe_zmq_name_thread(const char *name) {
    prctl(PR_SET_NAME, (unsigned long)name, 0, 0, 0);
}

#endif
