import CaffeBooks
import CaffeCore
import CaffeProtocol
import CaffeTransport

/// `caffe.v1.Renderer/RenderOrder`: an `OrderEvent` rendered into its confirmation and receipt.
final class RenderOrderHandler: RenderingRPCHandler {
    let method = CaffeMethod.renderOrder

    func handle(_ request: RequestFrames, replies: inout RPCReplies) -> RPCDecision { .render }

    func render(_ request: RequestFrames, renderer: inout EventRenderer) -> RPCReply {
        do {
            let rendered = try renderer.session.render(try request.decodeBody(as: Caffe_V1_OrderEvent.self))
            var response = Caffe_V1_RenderOrderResponse()
            response.confirmation = rendered.confirmation
            response.receipt = rendered.receipt
            return RPCReply(request, .ok, response)
        } catch {
            return RPCReply(request, renderStatus(error))
        }
    }
}

/// `caffe.v1.Renderer/RenderComplication`: a `ComplicationRequest` rendered into its payload.
final class RenderComplicationHandler: RenderingRPCHandler {
    let method = CaffeMethod.renderComplication

    func handle(_ request: RequestFrames, replies: inout RPCReplies) -> RPCDecision { .render }

    func render(_ request: RequestFrames, renderer: inout EventRenderer) -> RPCReply {
        do {
            let complication = try request.decodeBody(as: Caffe_V1_ComplicationRequest.self)
            return RPCReply(request, .ok, try renderer.session.complication(complication))
        } catch {
            return RPCReply(request, renderStatus(error))
        }
    }
}

/// A render failure as a gRPC status: undecodable or invalid input INVALID_ARGUMENT, an item,
/// size or store not on the menu NOT_FOUND, anything else INTERNAL.
private func renderStatus(_ error: any Error) -> RPCStatus {
    switch error {
    case let error as CaffeProtocolError:
        return error.rpcStatus
    case let error as RenderError:
        let code: Caffe_V1_StatusCode =
            switch error.deadLetterReason {
            case .unknownItem: .notFound
            case .renderFailed: .internal
            default: .invalidArgument
            }
        return RPCStatus(code: code, message: error.description)
    default:
        return RPCStatus(code: .internal, message: "\(error)")
    }
}
