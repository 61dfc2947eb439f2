import CaffeProtocol
import ZeroMQ

/// libzmq's messages carry the protocol's frames, read in place.
extension ZMQMessage: WireFrame {
    public static func copying(_ bytes: UnsafeRawBufferPointer) throws -> ZMQMessage {
        try ZMQMessage(bytes)
    }
}

/// An event as it travels over ZeroMQ PUB/SUB or PUSH/PULL: `[topic][EventHeader][body]`.
public typealias EventFrames = EventMessage<ZMQMessage>

/// A request as a ZeroMQ ROUTER receives it: `[routing id…][empty][RequestHeader][body]`.
public typealias RequestFrames = RequestMessage<ZMQMessage>

/// A reply as a ZeroMQ DEALER client receives it: `[empty][ResponseHeader][body]`.
public typealias ResponseFrames = ResponseMessage<ZMQMessage>
