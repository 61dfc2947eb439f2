import CaffeProtocol
import CaffeTransport

/// `grpc.health.v1.Health/Check`: SERVING while the worker serves with its checkpoint being
/// written, NOT_SERVING otherwise; asked for the whole server (`""`) or any service the endpoint
/// serves, NOT_FOUND for another.
final class HealthHandler: RPCHandler {
    let method = CaffeMethod.healthCheck
    private let status: WorkerStatus
    private let services: Set<String>

    /// `services`: those of the other registered methods (``RPCRouter/services``).
    init(status: WorkerStatus, services: Set<String>) {
        self.status = status
        self.services = services.union(["", "grpc.health.v1.Health"])
    }

    func handle(_ request: RequestFrames, replies: inout RPCReplies) -> RPCDecision {
        let service: String
        do {
            service = try request.decodeBody(as: Grpc_Health_V1_HealthCheckRequest.self).service
        } catch {
            replies.answer(request, error.rpcStatus)
            return .answered
        }
        guard services.contains(service) else {
            replies.answer(request, RPCStatus(code: .notFound, message: "unknown service '\(service)'"))
            return .answered
        }
        var response = Grpc_Health_V1_HealthCheckResponse()
        response.status = status.isHealthy ? .serving : .notServing
        replies.answer(request, .ok, response, metadata: versionMetadata)
        return .answered
    }
}
