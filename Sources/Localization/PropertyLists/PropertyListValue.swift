import Foundation

/// A value read from a property list: a `.stringsdict` file, an XML or binary `.strings` file.
///
/// Dictionaries keep their entries in file order (see ``PropertyListDictionary``), which Foundation's
/// `PropertyListSerialization` does not, so linters can point at the key a finding is about.
///
/// ```swift
/// let result = PropertyListReader.read(data, file: "ru.lproj/Account.stringsdict")
/// let format = result.value?.dictionaryValue?["call"]?.dictionaryValue?["NSStringLocalizedFormatKey"]?.stringValue
/// ```
public indirect enum PropertyListValue: Hashable, Sendable {
    /// `<string>` (and `<key>` text).
    case string(String)
    /// `<integer>`, decimal or `0x` hexadecimal.
    case integer(Int64)
    /// `<real>`.
    case real(Double)
    /// `<true/>` or `<false/>`.
    case boolean(Bool)
    /// `<date>`, ISO 8601 in UTC (`2024-05-01T12:00:00Z`).
    case date(Date)
    /// `<data>`, base64 in XML.
    case data([UInt8])
    /// `<array>`.
    case array([PropertyListValue])
    /// `<dict>`, entries in file order.
    case dictionary(PropertyListDictionary)
}

extension PropertyListValue {
    /// The string, when this is a ``string(_:)``; otherwise `nil`.
    public var stringValue: String? {
        if case .string(let value) = self { value } else { nil }
    }

    /// The dictionary, when this is a ``dictionary(_:)``; otherwise `nil`.
    public var dictionaryValue: PropertyListDictionary? {
        if case .dictionary(let value) = self { value } else { nil }
    }

    /// The elements, when this is an ``array(_:)``; otherwise `nil`.
    public var arrayValue: [PropertyListValue]? {
        if case .array(let value) = self { value } else { nil }
    }

    /// A short English name for the kind of value, for messages ("an integer", "a dictionary").
    var kindDescription: String {
        switch self {
        case .string: "a string"
        case .integer: "an integer"
        case .real: "a real number"
        case .boolean: "a Boolean"
        case .date: "a date"
        case .data: "data"
        case .array: "an array"
        case .dictionary: "a dictionary"
        }
    }
}
