"""The worker: PULL order events, render, PUSH confirmations and receipts — in N forked processes
sharing the same endpoints (ZeroMQ shares the events out among them).

Each process builds its own formatting core after the fork (ICU objects and sockets are never
shared), waits on its socket with a short timeout, and stops on SIGTERM or SIGINT: it
stops reading, sends what it has rendered (linger up to 5 s) and exits. The parent forwards the
signal to every child and exits when they have.
"""

from __future__ import annotations

import ctypes
import os
import resource
import signal
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import zmq
from caffe_client import topics
from caffe_client.frames import ProtocolError, decode, encode_event, now_timestamp, parse_event
from caffe_client.messages import DeadLetter, DeadLetterReason, EventHeader, EventRef, OrderEvent, full_name

from .backends import make_backend
from .menu import RenderError
from .render import Core

#: prctl(2) option: the signal a process gets when its parent dies.
_PR_SET_PDEATHSIG = 1

ORDER_EVENT = full_name(OrderEvent)
COMPLICATION_REQUEST = "caffe.v1.ComplicationRequest"


@dataclass(slots=True)
class Options:
    input: str
    output: str
    config: Path
    backend: str
    processes: int
    high_water_mark: int = 10_000
    linger_ms: int = 5_000


class EventRenderer:
    """Turns one input event into its output frames, or into a dead letter; never raises."""

    def __init__(self, core: Core) -> None:
        self.core = core
        self.rendered = 0
        self.dead_lettered = 0

    def outputs(self, frames: list[bytes]) -> list[list[bytes]]:
        try:
            event = parse_event(frames)
        except ProtocolError as error:
            return self._dead(DeadLetterReason.DEAD_LETTER_REASON_MALFORMED, str(error), frames, None)
        header = event.header
        ref = EventRef(source_id=header.source_id, sequence=header.sequence, order_id=header.order_id)
        try:
            if header.body_type == ORDER_EVENT:
                order = decode(OrderEvent, event.body, "event body")
                confirmation, receipt = self.core.render(order)
                locale = order.customer.locale or confirmation.locale
                self.rendered += 1
                return [
                    encode_event(topics.confirmation(locale), header, confirmation),
                    encode_event(topics.receipt(order.store_id), header, receipt),
                ]
            if header.body_type == COMPLICATION_REQUEST:
                return self._dead(
                    DeadLetterReason.DEAD_LETTER_REASON_RENDER_FAILED,
                    "complication requests are not rendered by the Python peer",
                    frames,
                    ref,
                )
            return self._dead(
                DeadLetterReason.DEAD_LETTER_REASON_INVALID,
                f"body_type '{header.body_type}' is neither an order event nor a complication request",
                frames,
                ref,
            )
        except ProtocolError as error:
            malformed = error.code == "malformed"
            reason = DeadLetterReason.Value("DEAD_LETTER_REASON_MALFORMED" if malformed else "DEAD_LETTER_REASON_INVALID")
            return self._dead(reason, str(error), frames, ref)
        except RenderError as error:
            return self._dead(error.dead_letter_reason, str(error), frames, ref)
        except Exception as error:  # a bug here must not take the worker down
            return self._dead(DeadLetterReason.DEAD_LETTER_REASON_RENDER_FAILED, repr(error), frames, ref)

    def _dead(self, reason: int, detail: str, frames: list[bytes], ref: EventRef | None) -> list[list[bytes]]:
        self.dead_lettered += 1
        return [dead_letter(reason, detail, frames, ref)]


def dead_letter(reason: int, detail: str, frames: list[bytes], ref: EventRef | None) -> list[bytes]:
    """A dead-letter event for ``frames``, keeping their bytes as they arrived (the Swift
    worker's ``EventRenderer.deadLetter``)."""
    letter = DeadLetter(reason=reason, detail=detail)
    if len(frames) == 3:
        letter.topic = frames[0].decode("utf-8", "replace")
        letter.original_header = frames[1]
        letter.original_body = frames[2]
    else:
        letter.original_body = b"".join(frames)
    header = EventHeader()
    if ref is not None:
        letter.ref.CopyFrom(ref)
        header.source_id = ref.source_id
        header.sequence = ref.sequence
        header.order_id = ref.order_id
    now_timestamp(letter.received_at)
    return encode_event(topics.DEAD_LETTER, header, letter)


def _say(line: str) -> None:
    """One line on standard error in one write, so the processes' lines never interleave."""
    os.write(sys.stderr.fileno(), (line + "\n").encode())


class _Stop:
    requested = False

    def __call__(self, signum: int, frame: object) -> None:
        self.requested = True


def run_process(options: Options, index: int) -> int:
    """One worker process: sockets, core, loop until asked to stop."""
    stop = _Stop()
    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    renderer = EventRenderer(Core(options.config, make_backend(options.backend)))
    context = zmq.Context(1)
    source = context.socket(zmq.PULL)
    source.setsockopt(zmq.RCVHWM, options.high_water_mark)
    source.connect(options.input)
    sink = context.socket(zmq.PUSH)
    sink.setsockopt(zmq.SNDHWM, options.high_water_mark)
    sink.connect(options.output)
    # A blocking receive with a timeout: no exception and no extra poll per message under load,
    # and the stop flag is looked at every 100 ms when idle (signals interrupt the wait too).
    source.setsockopt(zmq.RCVTIMEO, 100)
    receive = source.recv_multipart
    send = sink.send_multipart
    outputs = renderer.outputs
    started = time.monotonic()
    try:
        while not stop.requested:
            try:
                frames = receive()
            except zmq.Again:
                continue
            for message in outputs(frames):
                send(message)
    finally:
        source.close(linger=0)
        sink.close(linger=options.linger_ms)
        context.term()
        seconds = time.monotonic() - started
        usage = resource.getrusage(resource.RUSAGE_SELF)
        _say(
            f"caffe python peer [{index}] pid {os.getpid()}: {renderer.rendered} rendered, "
            f"{renderer.dead_lettered} dead-lettered in {seconds:.1f} s "
            f"(CPU user {usage.ru_utime:.1f} s, system {usage.ru_stime:.1f} s)"
        )
    return 0


def _stop_with_parent(parent: int) -> None:
    """Asks Linux to send this process SIGTERM when its parent dies, so a parent killed outright
    leaves no worker behind; exits at once if the parent is already gone."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
    except (OSError, AttributeError):  # not Linux: the parent's forwarding is all there is
        pass
    if os.getppid() != parent:
        os._exit(0)


def serve(options: Options) -> int:
    """Forks ``options.processes`` workers and waits for them; SIGTERM/SIGINT stop them all."""
    # A launcher may hand down a mask blocking SIGTERM (threads of a Swift or Java runtime do):
    # unblock what stops us, before forking, so the children start unblocked too.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT, signal.SIGCHLD})
    parent = os.getpid()
    children: dict[int, int] = {}
    for index in range(options.processes):
        pid = os.fork()
        if pid == 0:
            code = 1
            try:
                _stop_with_parent(parent)
                code = run_process(options, index)
            except BaseException as error:  # report, never fall back into the parent's code
                _say(f"caffe python peer [{index}]: {error!r}")
            finally:
                os._exit(code)
        children[pid] = index

    def forward(signum: int, frame: object) -> None:
        for pid in list(children):
            try:
                os.kill(pid, signal.SIGTERM)
            except ProcessLookupError:
                pass

    signal.signal(signal.SIGTERM, forward)
    signal.signal(signal.SIGINT, forward)
    _say(
        f"caffe python peer: backend {options.backend}, {options.processes} processes "
        f"({', '.join(str(pid) for pid in children)}), {options.input} -> {options.output}"
    )
    status = 0
    while children:
        try:
            pid, code = os.wait()
        except ChildProcessError:
            break
        children.pop(pid, None)
        if os.waitstatus_to_exitcode(code) != 0:
            status = 1
            forward(signal.SIGTERM, None)  # one worker failed: stop the rest
    return status
