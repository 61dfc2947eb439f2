import Foundation

extension PropertyListReader {
    /// The deepest nesting of arrays and dictionaries converted from a binary property list.
    static let maximumBinaryDepth = 512

    /// Decodes a binary property list with Foundation and converts it; dictionaries come out sorted by key.
    static func readBinary(_ data: Data, collector: inout DiagnosticCollector) -> PropertyListValue? {
        let object: Any
        do {
            object = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        } catch {
            collector.report(
                .error,
                .unreadableFile,
                message: "the binary property list could not be decoded (\(error.localizedDescription))"
            )
            return nil
        }
        return convert(object, path: "", depth: 0, collector: &collector)
    }

    private static func convert(
        _ object: Any,
        path: String,
        depth: Int,
        collector: inout DiagnosticCollector
    ) -> PropertyListValue? {
        // A Swift `Bool` must be caught before `NSNumber`, and an `NSNumber` holding 0 or 1 must not be
        // taken for a Boolean: only the dynamic type tells them apart.
        if Swift.type(of: object) == Bool.self, let boolean = object as? Bool {
            return .boolean(boolean)
        }
        switch object {
        case let string as String:
            return .string(string)
        case let number as NSNumber:
            return convert(number, path: path, collector: &collector)
        case let date as Date:
            return .date(date)
        case let data as Data:
            return .data([UInt8](data))
        case let array as [Any]:
            guard depth < maximumBinaryDepth else {
                reportTooDeep(path: path, collector: &collector)
                return nil
            }
            var values: [PropertyListValue] = []
            values.reserveCapacity(array.count)
            for (index, element) in array.enumerated() {
                if let value = convert(element, path: "\(path)[\(index)]", depth: depth + 1, collector: &collector) {
                    values.append(value)
                }
            }
            return .array(values)
        case let dictionary as [AnyHashable: Any]:
            guard depth < maximumBinaryDepth else {
                reportTooDeep(path: path, collector: &collector)
                return nil
            }
            var entries: [PropertyListDictionary.Entry] = []
            entries.reserveCapacity(dictionary.count)
            for (key, element) in dictionary {
                guard let key = key.base as? String else {
                    collector.report(
                        .error,
                        .unexpectedValueType,
                        message: "a dictionary key\(describe(path)) is not a string: \(key)"
                    )
                    continue
                }
                let childPath = path.isEmpty ? key : "\(path).\(key)"
                if let value = convert(element, path: childPath, depth: depth + 1, collector: &collector) {
                    entries.append(PropertyListDictionary.Entry(key: key, value: value))
                }
            }
            entries.sort { $0.key < $1.key }
            return .dictionary(PropertyListDictionary(entries))
        default:
            collector.report(
                .error,
                .unexpectedValueType,
                key: path.isEmpty ? nil : path,
                message: "unsupported value of type \(Swift.type(of: object)) in the binary property list"
            )
            return nil
        }
    }

    private static func convert(
        _ number: NSNumber,
        path: String,
        collector: inout DiagnosticCollector
    ) -> PropertyListValue? {
        switch String(cString: number.objCType) {
        case "f", "d":
            return .real(number.doubleValue)
        case "Q", "L", "I", "S", "C":
            let value = number.uint64Value
            guard value <= UInt64(Int64.max) else {
                collector.report(
                    .error,
                    .unexpectedValueType,
                    key: path.isEmpty ? nil : path,
                    message: "the integer \(value) does not fit in a signed 64-bit integer"
                )
                return nil
            }
            return .integer(Int64(value))
        default:
            return .integer(number.int64Value)
        }
    }

    private static func reportTooDeep(path: String, collector: inout DiagnosticCollector) {
        collector.report(
            .error,
            .syntaxError,
            key: path.isEmpty ? nil : path,
            message: "arrays and dictionaries are nested more than \(maximumBinaryDepth) deep"
        )
    }

    private static func describe(_ path: String) -> String {
        path.isEmpty ? "" : " in '\(path)'"
    }
}
