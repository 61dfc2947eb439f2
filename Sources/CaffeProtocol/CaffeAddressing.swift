/// Topic names of Caffe's PUB/SUB traffic. Subscribers match by prefix, so `order.` receives every store.
public enum CaffeTopic {
    /// Order events of one store: `order.<store>`.
    public static func order(store: String) -> String { "order.\(store)" }
    /// Confirmations in one locale: `confirmation.<locale>`.
    public static func confirmation(locale: String) -> String { "confirmation.\(locale)" }
    /// Receipts of one store: `receipt.<store>`.
    public static func receipt(store: String) -> String { "receipt.\(store)" }
    /// Complication requests: `complication-request.<user>`.
    public static func complicationRequest(user: String) -> String { "complication-request.\(user)" }
    /// Complication payloads for one user: `complication.<user>`.
    public static func complication(user: String) -> String { "complication.\(user)" }
    /// Inputs that could not be processed, with the reason.
    public static let deadLetter = "dead-letter"
    /// Where sources send heartbeats: the bare order prefix, which every worker subscribed to
    /// orders hears (docs/WIRE.md "Heartbeats").
    public static let heartbeat = "order."
}

/// The gRPC-style methods, as `RequestHeader.method` names them.
public enum CaffeMethod {
    /// `OrderEvent` → `RenderOrderResponse`.
    public static let renderOrder = "caffe.v1.Renderer/RenderOrder"
    /// `ComplicationRequest` → `ComplicationPayload`.
    public static let renderComplication = "caffe.v1.Renderer/RenderComplication"
    /// `HealthCheckRequest` → `HealthCheckResponse`.
    public static let healthCheck = "grpc.health.v1.Health/Check"
    /// `StatsRequest` → `StatsResponse`.
    public static let stats = "caffe.v1.Admin/Stats"
    /// Renders a dead letter's original event again (body: the `DeadLetter`; reply: empty).
    public static let redrive = "caffe.v1.Admin/Redrive"
    /// `ReplayRequest` → `ReplayResponse`, served by order sources.
    public static let replayFetch = "caffe.v1.Replay/Fetch"
    /// The operators' service (`Stats`, `Redrive`), which `rpc.admin_allowed_keys` can restrict.
    public static let adminService = "caffe.v1.Admin"
}

/// The wire schema's version, which Health and Stats replies carry in their `ResponseHeader`
/// metadata beside the worker's release (docs/WIRE.md "Versions and deprecation").
public enum CaffeSchema {
    /// `MAJOR.MINOR`: the major is the package's (`caffe.v1` is 1); the minor counts the releases
    /// that added to it. 1.0: the schema until 0.30.0; 1.1: service blocks, generator options.
    public static let version = "1.1"
    /// The metadata key of the schema version (`1.1`).
    public static let metadataKey = "caffe-schema"
    /// The metadata key of the worker's release (`0.30.0`).
    public static let workerVersionMetadataKey = "caffe-version"
}
