// Caffe — CaffeProtocol tests.
import CaffeProtocol
import CaffeProtocolFixtures
import Testing

@Suite("RPC status codes and error mapping")
struct RPCStatusTests {
    struct KitchenOnFire: Error, CustomStringConvertible {
        var description: String { "the kitchen is on fire" }
    }

    struct MenuItemMissing: RPCStatusConvertible {
        let item: String
        var rpcStatus: RPCStatus { RPCStatus(code: .notFound, message: "no menu item '\(item)'") }
    }

    @Test func protocolErrorsAreInvalidArgumentWithTheirMessage() {
        let error = CaffeProtocolError(
            code: .frameTooLarge,
            message: "topic frame of 300 bytes exceeds the limit of 256"
        )
        let status = RPCStatus(error)
        #expect(status.code == .invalidArgument)
        #expect(status.message == "topic frame of 300 bytes exceeds the limit of 256")
        #expect(
            status == RPCStatus(code: .invalidArgument, message: "topic frame of 300 bytes exceeds the limit of 256")
        )
        #expect(error.rpcStatus == status)
    }

    @Test func validationFailureBecomesInvalidArgument() throws {
        var order = Fixtures.order()
        order.customer.locale = ""
        let error = try invalidity(of: order)
        let status = RPCStatus(error as any Error)
        #expect(status.code == .invalidArgument)
        #expect(status.message == "OrderEvent is missing required field 'customer.locale'")
        #expect(status.description == "INVALID_ARGUMENT: OrderEvent is missing required field 'customer.locale'")
    }

    @Test func plainErrorsAreUnknownWithTheirDescription() {
        let status = RPCStatus(KitchenOnFire())
        #expect(status.code == .unknown)
        #expect(status.message == "the kitchen is on fire")
        #expect(status.description == "UNKNOWN: the kitchen is on fire")
    }

    @Test func convertibleErrorsChooseTheirOwnStatus() {
        let status = RPCStatus(MenuItemMissing(item: "kale-smoothie") as any Error)
        #expect(status == RPCStatus(code: .notFound, message: "no menu item 'kale-smoothie'"))
    }

    @Test func okIsCodeZeroWithoutMessage() {
        #expect(RPCStatus.ok.code == .ok)
        #expect(RPCStatus.ok.message == "")
        #expect(RPCStatus.ok.description == "OK")
        #expect(RPCStatus(code: .ok) == .ok)
        #expect(RPCStatus(code: .ok, message: "fine") != .ok)
    }

    static let allCodes: [(Caffe_V1_StatusCode, Int, String)] = [
        (.ok, 0, "OK"),
        (.cancelled, 1, "CANCELLED"),
        (.unknown, 2, "UNKNOWN"),
        (.invalidArgument, 3, "INVALID_ARGUMENT"),
        (.deadlineExceeded, 4, "DEADLINE_EXCEEDED"),
        (.notFound, 5, "NOT_FOUND"),
        (.alreadyExists, 6, "ALREADY_EXISTS"),
        (.permissionDenied, 7, "PERMISSION_DENIED"),
        (.resourceExhausted, 8, "RESOURCE_EXHAUSTED"),
        (.failedPrecondition, 9, "FAILED_PRECONDITION"),
        (.aborted, 10, "ABORTED"),
        (.outOfRange, 11, "OUT_OF_RANGE"),
        (.unimplemented, 12, "UNIMPLEMENTED"),
        (.internal, 13, "INTERNAL"),
        (.unavailable, 14, "UNAVAILABLE"),
        (.dataLoss, 15, "DATA_LOSS"),
        (.unauthenticated, 16, "UNAUTHENTICATED"),
    ]

    @Test func allSeventeenCodesHaveGRPCNamesAndNumbers() {
        #expect(Self.allCodes.count == 17)
        for (code, number, name) in Self.allCodes {
            #expect(code.grpcName == name)
            #expect(code.rawValue == number)
            #expect(Caffe_V1_StatusCode(rawValue: number) == code)
            #expect(RPCStatus(code: code).description == name)
        }
        #expect(Caffe_V1_StatusCode.allCases == Self.allCodes.map(\.0))
        #expect(Caffe_V1_StatusCode.allCases.map(\.grpcName) == Self.allCodes.map(\.2))
        #expect(Caffe_V1_StatusCode.allCases.map(\.rawValue) == Array(0...16))
    }

    @Test func everyCodeHasADistinctMeaning() {
        let meanings = Caffe_V1_StatusCode.allCases.map(\.meaning)
        #expect(Set(meanings).count == 17)
        #expect(!meanings.contains(""))
        #expect(Caffe_V1_StatusCode.ok.meaning == "not an error; returned on success")
        #expect(
            Caffe_V1_StatusCode.deadlineExceeded.meaning == "the deadline expired before the operation could complete"
        )
        #expect(Caffe_V1_StatusCode.UNRECOGNIZED(99).meaning == "a code this version does not know")
    }

    @Test func unrecognizedCodesKeepTheirNumber() {
        let code = Caffe_V1_StatusCode(rawValue: 42)
        #expect(code == .UNRECOGNIZED(42))
        #expect(code?.grpcName == "UNRECOGNIZED(42)")
        #expect(code?.rawValue == 42)
        #expect(RPCStatus(code: .UNRECOGNIZED(17), message: "new").description == "UNRECOGNIZED(17): new")
    }
}
