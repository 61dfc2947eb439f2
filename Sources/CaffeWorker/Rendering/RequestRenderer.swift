import CaffeBooks
import CaffeCore
import CaffeProtocol
import CaffeTransport
import Foundation
import SwiftProtobuf
import ZeroMQ

/// What the RPC frontend does with a render request: decodes, renders and builds the reply with
/// the request's routing and id. Failures map to gRPC status codes: undecodable or invalid input
/// is INVALID_ARGUMENT, an item, size or store not on the menu is NOT_FOUND.
struct RequestRenderer {
    /// The reply frames for `request` (`nil` if encoding failed) and the status, for the metrics.
    static func reply(
        to request: RequestFrames,
        session: RenderSession
    ) -> (frames: [ZMQMessage]?, code: Caffe_V1_StatusCode) {
        func answer(_ status: RPCStatus, _ body: (any SwiftProtobuf.Message)? = nil) -> (
            [ZMQMessage]?, Caffe_V1_StatusCode
        ) {
            let frames: [ZMQMessage]?
            if let body {
                frames = try? request.reply(status: status, body: body)
            } else {
                frames = try? request.reply(status: status)
            }
            return (frames, status.code)
        }
        do {
            switch request.header.method {
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
                return answer(
                    RPCStatus(code: .unimplemented, message: "method '\(request.header.method)' is not served here")
                )
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
