import CaffeCore
import CaffeProtocol
import Foundation
import SwiftProtobuf
import ZeroMQ

/// What a render thread does with an RPC render request: checks the deadline again (time spent
/// queued counts), renders, and builds the reply with the request's routing and id. Failures map
/// to gRPC status codes: undecodable or invalid input is INVALID_ARGUMENT, an item, size or store
/// not on the menu is NOT_FOUND, a deadline passed while queued is DEADLINE_EXCEEDED.
struct RequestRendering {
    let session: RenderSession

    /// The reply frames for `frames` (`nil` if they are not a request at all), with the method and
    /// status for the metrics.
    func reply(
        to frames: [ZMQMessage],
        limits: CaffeProtocolLimits
    ) -> (frames: [ZMQMessage]?, method: String, code: Caffe_V1_StatusCode) {
        guard let request = try? RequestFrames(parsing: frames, limits: limits) else {
            return (nil, "", .invalidArgument)
        }
        let method = request.header.method
        func answer(_ status: RPCStatus, _ body: (any SwiftProtobuf.Message)? = nil) -> (
            [ZMQMessage]?, String, Caffe_V1_StatusCode
        ) {
            let frames: [ZMQMessage]?
            if let body {
                frames = try? request.reply(status: status, body: body)
            } else {
                frames = try? request.reply(status: status)
            }
            return (frames, method, status.code)
        }
        if request.isExpired(at: Google_Protobuf_Timestamp(date: Date())) {
            return answer(
                RPCStatus(code: .deadlineExceeded, message: "the deadline passed while the request was queued")
            )
        }
        do {
            switch method {
            case CaffeMethod.renderOrder:
                let order = try request.decodeBody(as: Caffe_V1_OrderEvent.self)
                let rendered = try session.render(order)
                var response = Caffe_V1_RenderOrderResponse()
                response.confirmation = rendered.confirmation
                response.receipt = rendered.receipt
                return answer(.ok, response)
            case CaffeMethod.renderComplication:
                let complication = try request.decodeBody(as: Caffe_V1_ComplicationRequest.self)
                return answer(.ok, try session.complication(complication))
            default:
                return answer(RPCStatus(code: .unimplemented, message: "method '\(method)' is not served here"))
            }
        } catch let error as CaffeProtocolError {
            return answer(error.rpcStatus)
        } catch let error as RenderError {
            let code: Caffe_V1_StatusCode =
                switch error.deadLetterReason {
                case .unknownItem: .notFound
                case .renderFailed: .internal
                default: .invalidArgument
                }
            return answer(RPCStatus(code: code, message: error.description))
        } catch {
            return answer(RPCStatus(code: .internal, message: "\(error)"))
        }
    }
}
