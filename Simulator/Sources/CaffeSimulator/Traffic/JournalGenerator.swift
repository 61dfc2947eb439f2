import CaffeCore
import CaffeProtocol
import Foundation
import SwiftProtobuf

/// `caffe-sim generate`: a deterministic synthetic order stream written as a journal. The same
/// seed, menu and options give the same bytes, apart from the header's creation time.
public struct JournalGenerator: Sendable {
    public struct Configuration: Sendable {
        public var seed: UInt64
        public var orders: Int
        public var sourceID: String
        /// Markets and their weights (``MarketDirectory/mix(_:)``).
        public var markets: [(market: Market, weight: Int)]
        /// Mean orders per second of capture time (arrivals are exponentially spaced).
        public var rate: Double
        /// The first capture time.
        public var start: Date

        public init(
            seed: UInt64 = 1,
            orders: Int = 10_000,
            sourceID: String = "sim-1",
            markets: [(market: Market, weight: Int)],
            rate: Double = 100,
            start: Date = Date(timeIntervalSince1970: 1_774_728_000)
        ) {
            self.seed = seed
            self.orders = orders
            self.sourceID = sourceID
            self.markets = markets
            self.rate = rate
            self.start = start
        }
    }

    public let configuration: Configuration

    public init(configuration: Configuration) {
        self.configuration = configuration
    }

    /// The stream's records, in order.
    public func records(menu: Menu) throws -> [Caffe_V1_JournalRecord] {
        var generator = try OrderGenerator(
            menu: menu,
            configuration: .init(
                seed: configuration.seed,
                sourceID: configuration.sourceID,
                markets: configuration.markets,
                start: configuration.start
            )
        )
        var arrivals = SeededRandom(seed: configuration.seed ^ 0x9E37_79B9_7F4A_7C15)
        var time = configuration.start.timeIntervalSince1970
        var records: [Caffe_V1_JournalRecord] = []
        records.reserveCapacity(configuration.orders)
        for _ in 0..<configuration.orders {
            let order = generator.next()
            records.append(
                try Caffe_V1_JournalRecord(
                    capturedAt: Date(timeIntervalSince1970: time),
                    topic: CaffeTopic.order(store: order.storeID),
                    header: Caffe_V1_EventHeader(for: order),
                    body: order
                )
            )
            // Exponential spacing: a Poisson stream at the configured mean rate, in whole microseconds.
            let uniform = (Double(arrivals.next() >> 11) + 0.5) / Double(1 << 53)
            time += (-log(uniform) / configuration.rate * 1e6).rounded() / 1e6
        }
        return records
    }

    /// Writes the stream to `url`; returns how many records were written.
    @discardableResult
    public func write(
        to url: URL,
        menu: Menu,
        menuURL: URL?,
        catalogURL: URL?,
        origin: String,
        now: Date = Date()
    ) throws -> Int {
        var header = Caffe_V1_JournalHeader()
        header.createdAt = Google_Protobuf_Timestamp(date: now)
        header.origin = origin
        header.menuFingerprint = menuURL.map { Journal.fingerprint([$0]) } ?? ""
        header.catalogFingerprint = catalogURL.map { Journal.fingerprint(Self.files(in: $0)) } ?? ""
        header.metadata = [
            "seed": "\(configuration.seed)", "source_id": configuration.sourceID,
            "rate": "\(configuration.rate)",
        ]
        let writer = try JournalWriter(url: url, header: header)
        for record in try records(menu: menu) { try writer.append(record) }
        try writer.close()
        return writer.records
    }

    /// Every regular file under `folder`.
    static func files(in folder: URL) -> [URL] {
        let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey])
        return (enumerator?.allObjects as? [URL] ?? []).filter {
            (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true
        }
    }
}
