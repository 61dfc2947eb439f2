// The C side of `caffe-sim bench transport`: the same PUSH/PULL loop as the Swift binding's,
// written straight against libzmq, so both are measured in one run on one machine.
#ifndef CAFFE_C_TRANSPORT_BASELINE_H
#define CAFFE_C_TRANSPORT_BASELINE_H

#include <stddef.h>
#include <stdint.h>

/// Result of one run: messages received and the receiver's elapsed time from the first message
/// to the last, in nanoseconds. `error` is 0 or the errno of the failing libzmq call.
typedef struct {
    uint64_t messages;
    uint64_t elapsed_ns;
    int error;
} caffe_c_throughput_result;

/// Sends `count` messages of `size` bytes from a PUSH socket on a second thread to a PULL socket
/// on the calling thread over tcp://127.0.0.1 (ephemeral port), one context, one I/O thread.
caffe_c_throughput_result caffe_c_push_pull_throughput(size_t size, uint64_t count);

#endif
