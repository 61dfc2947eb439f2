// Events as the worker's intake takes them (`[topic][EventHeader][body]` over SUB or PULL): size
// checks, the header, then the body as the type the header names, validated; and deliveries as
// an acknowledging consumer takes them (`[DeliveryTag][topic][EventHeader][body]`).
//
// Input: an options byte (bit 0: tight limits), then frames (`FuzzInput.frames`). Checked beyond
// "no crash": the header read alone equals the event's header, every decoded message round-trips,
// and a body asked for as another type is refused for its type.
import CaffeProtocol
import FuzzSupport
import SwiftProtobuf
import WireFuzzing

FuzzDriver.run { input in
    let (limits, frames) = WireFuzzing.read(input)
    WireFuzzing.takeEvent(frames, limits: limits)
    if frames.count == 4, let tag = try? Caffe_V1_DeliveryTag(serializedBytes: frames[0].bytes) {
        WireFuzzing.checkRoundTrip(tag)
        WireFuzzing.takeEvent(Array(frames.dropFirst()), limits: limits)
    }
}
