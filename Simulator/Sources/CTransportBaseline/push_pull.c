// Caffe transport baseline: PUSH/PULL throughput written directly against libzmq.
// Mirrors TransportBenchmark.swift call for call: zmq_send from a buffer on the sender,
// zmq_msg_recv into one reused zmq_msg_t on the receiver.
#include "CTransportBaseline.h"

#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <time.h>
#include <zmq.h>

typedef struct {
    void *context;
    char endpoint[256];
    size_t size;
    uint64_t count;
    int error;
} sender_args;

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void *sender_main(void *raw) {
    sender_args *args = raw;
    void *push = zmq_socket(args->context, ZMQ_PUSH);
    if (push == NULL) { args->error = zmq_errno(); return NULL; }
    int linger = -1;
    zmq_setsockopt(push, ZMQ_LINGER, &linger, sizeof linger);
    if (zmq_connect(push, args->endpoint) != 0) { args->error = zmq_errno(); zmq_close(push); return NULL; }
    unsigned char buffer[65536];
    memset(buffer, 'c', sizeof buffer);
    for (uint64_t i = 0; i < args->count; i++) {
        while (zmq_send(push, buffer, args->size, 0) < 0) {
            if (zmq_errno() != EINTR) { args->error = zmq_errno(); zmq_close(push); return NULL; }
        }
    }
    zmq_close(push);
    return NULL;
}

caffe_c_throughput_result caffe_c_push_pull_throughput(size_t size, uint64_t count) {
    caffe_c_throughput_result result = {0, 0, 0};
    if (size > 65536) { result.error = EINVAL; return result; }
    void *context = zmq_ctx_new();
    if (context == NULL) { result.error = zmq_errno(); return result; }
    void *pull = zmq_socket(context, ZMQ_PULL);
    if (pull == NULL || zmq_bind(pull, "tcp://127.0.0.1:*") != 0) {
        result.error = zmq_errno();
        if (pull) zmq_close(pull);
        zmq_ctx_term(context);
        return result;
    }
    sender_args args = {context, {0}, size, count, 0};
    size_t length = sizeof args.endpoint;
    zmq_getsockopt(pull, ZMQ_LAST_ENDPOINT, args.endpoint, &length);

    pthread_t sender;
    pthread_create(&sender, NULL, sender_main, &args);

    zmq_msg_t message;
    zmq_msg_init(&message);
    uint64_t start = 0;
    for (uint64_t i = 0; i < count; i++) {
        if (zmq_msg_recv(&message, pull, 0) < 0) {
            if (zmq_errno() == EINTR) { i--; continue; }
            result.error = zmq_errno();
            break;
        }
        if (i == 0) start = now_ns();
        result.messages++;
    }
    uint64_t end = now_ns();
    zmq_msg_close(&message);
    pthread_join(sender, NULL);
    if (result.error == 0) result.error = args.error;
    result.elapsed_ns = end - start;
    zmq_close(pull);
    zmq_ctx_term(context);
    return result;
}
