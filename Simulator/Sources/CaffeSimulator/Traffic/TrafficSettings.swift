import CaffeProtocol
import Foundation
import Localization

/// `traffic.json` of a configuration folder: who the simulator's customers are in each language,
/// and which markets traffic goes to when no `--locales` is given.
///
/// ```json
/// {"version": 1, "defaultLocales": ["en-US", "es-MX"],
///  "customers": {"en-US": [{"name": "Ana", "termOfAddress": "feminine"}], "pl": […]}}
/// ```
///
/// Customers are listed by locale (`es-MX`) or language (`pl`); a market takes its locale's list,
/// else the nearest of its parents' (`es-MX` → `es-419` → `es`). `termOfAddress` is `feminine`, `masculine`, `neutral` or `unspecified`; an
/// empty name is a customer who gave none.
public struct TrafficSettings: Sendable, Equatable {
    /// The file's name in a configuration folder.
    public static let fileName = "traffic.json"

    /// Customers by locale or language tag.
    public var customers: [String: [Market.Customer]]
    /// The markets of traffic without `--locales`; `nil`: every configured market.
    public var defaultLocales: [String]?

    public init(customers: [String: [Market.Customer]] = [:], defaultLocales: [String]? = nil) {
        self.customers = customers
        self.defaultLocales = defaultLocales
    }

    /// A `traffic.json` that cannot be used: where (`customers.pl[1].termOfAddress`) and why.
    public struct Failure: Error, CustomStringConvertible, Equatable {
        public var path: String
        public var message: String

        public var description: String {
            "\(TrafficSettings.fileName): " + (path.isEmpty ? message : "\(path): \(message)")
        }
    }

    /// Reads the settings of the configuration folder `folder`; `nil` when it has no `traffic.json`.
    public static func load(from folder: URL) throws(Failure) -> TrafficSettings? {
        let url = folder.appendingPathComponent(fileName)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw Failure(path: "", message: "cannot read \(url.path): \(error.localizedDescription)")
        }
        return try TrafficSettings(json: data)
    }

    /// Decodes and checks the settings.
    public init(json: Data) throws(Failure) {
        struct File: Decodable {
            struct Customer: Decodable {
                var name: String
                var termOfAddress: String
            }
            var version: Int
            var defaultLocales: [String]?
            var customers: [String: [Customer]]
        }
        let file: File
        do {
            file = try JSONDecoder().decode(File.self, from: json)
        } catch {
            throw Failure(path: "", message: "not traffic settings: \(error)")
        }
        guard file.version == 1 else {
            throw Failure(path: "version", message: "version \(file.version) is not supported (this build reads 1)")
        }
        var customers: [String: [Market.Customer]] = [:]
        for (tag, list) in file.customers {
            guard !list.isEmpty else { throw Failure(path: "customers.\(tag)", message: "lists no customer") }
            customers[tag] = try list.enumerated().map { index, customer throws(Failure) in
                guard let term = Self.termsOfAddress[customer.termOfAddress] else {
                    throw Failure(
                        path: "customers.\(tag)[\(index)].termOfAddress",
                        message: "'\(customer.termOfAddress)' is not feminine, masculine, neutral or unspecified"
                    )
                }
                return Market.Customer(customer.name, term)
            }
        }
        self.customers = customers
        defaultLocales = file.defaultLocales
    }

    private static let termsOfAddress: [String: Caffe_V1_TermOfAddress] = [
        "feminine": .feminine, "masculine": .masculine, "neutral": .neutral, "unspecified": .unspecified,
    ]

    /// The customers of `locale`: its own list, else the nearest of its CLDR parents' (`es-MX`,
    /// `es-419`, `es`); `nil` when none is listed.
    public func customers(for locale: String) -> [Market.Customer]? {
        LocalizationMatcher.ancestry(of: locale).lazy.compactMap { customers[$0] }.first
    }
}
