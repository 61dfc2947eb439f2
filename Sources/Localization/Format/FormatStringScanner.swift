/// Splits a catalog format string into literal text, conversions and variable references.
///
/// Works on UTF-8 bytes; literal runs are sliced, never built character by character.
enum FormatStringScanner {
    /// One piece of a format string.
    enum Token: Hashable, Sendable {
        /// Text to copy; `%%` arrives here as `%`.
        case literal(String)
        /// A conversion such as `%1$lld`.
        case specifier(FormatSpecifier)
        /// `%#@name@` or `%2$#@name@`: a stringsdict variable or String Catalog substitution.
        /// `isMalformed` marks `%1#@name@` (a position without `$`), which is read as position 1.
        case variable(name: String, position: Int?, isMalformed: Bool)
        /// `%arg`: the argument of the substitution being expanded (String Catalog variants only).
        case substitutionArgument
        /// Text after `%` that is not a conversion this implementation accepts.
        case invalid(text: String, utf8Offset: Int, reason: String)
    }

    /// Scans `format`. `recognizesArg` enables `%arg`, which only String Catalog substitution variants use.
    static func scan(_ format: String, recognizesArg: Bool = false) -> [Token] {
        var tokens: [Token] = []
        for (token, _) in scanWithRanges(format, recognizesArg: recognizesArg) {
            if case .literal(let text) = token, case .literal(let previous)? = tokens.last {
                tokens[tokens.count - 1] = .literal(previous + text)
            } else {
                tokens.append(token)
            }
        }
        return tokens
    }

    /// Scans `format`, giving each token with the UTF-8 range it covers (literal runs unmerged).
    static func scanWithRanges(_ format: String, recognizesArg: Bool = false) -> [(Token, Range<Int>)] {
        let bytes = Array(format.utf8)
        var tokens: [(Token, Range<Int>)] = []
        var literalStart = 0
        var index = 0
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "%") else {
                index += 1
                continue
            }
            if index > literalStart {
                tokens.append(
                    (.literal(String(decoding: bytes[literalStart..<index], as: UTF8.self)), literalStart..<index)
                )
            }
            let start = index
            let (token, next) = scanConversion(bytes, at: index, recognizesArg: recognizesArg)
            index = max(next, start + 1)
            tokens.append((token, start..<index))
            literalStart = index
        }
        if bytes.count > literalStart {
            tokens.append(
                (.literal(String(decoding: bytes[literalStart...], as: UTF8.self)), literalStart..<bytes.count)
            )
        }
        return tokens
    }

    /// Scans one conversion starting at the `%` at `start`; returns the token and the index after it.
    private static func scanConversion(_ bytes: [UInt8], at start: Int, recognizesArg: Bool) -> (Token, Int) {
        var index = start + 1
        func invalid(_ reason: String) -> (Token, Int) {
            var end = min(max(index + 1, start + 1), bytes.count)
            // Never split a UTF-8 sequence: take its continuation bytes too.
            while end < bytes.count, bytes[end] & 0b1100_0000 == 0b1000_0000 { end += 1 }
            return (
                .invalid(text: String(decoding: bytes[start..<end], as: UTF8.self), utf8Offset: start, reason: reason),
                end
            )
        }
        guard index < bytes.count else { return invalid("a lone % at the end; write %% for a percent sign") }
        if bytes[index] == UInt8(ascii: "%") { return (.literal("%"), index + 1) }

        if recognizesArg, bytes[index...].starts(with: Array("arg".utf8)) {
            return (.substitutionArgument, index + 3)
        }

        // Position: digits followed by `$` (or, malformed, by `#@`).
        var position: Int?
        var isMalformedPosition = false
        let digitsStart = index
        let digits = readNumber(bytes, &index)
        if let digits {
            if index < bytes.count, bytes[index] == UInt8(ascii: "$") {
                guard digits > 0 else { return invalid("argument positions start at 1") }
                guard digits <= maximumPosition else {
                    return invalid("argument position \(digits) is beyond \(maximumPosition)")
                }
                position = digits
                index += 1
            } else if bytes[index...].starts(with: Array("#@".utf8)) {
                guard digits > 0, digits <= maximumPosition else {
                    return invalid("argument positions run from 1 to \(maximumPosition)")
                }
                position = digits
                isMalformedPosition = true
            } else {
                index = digitsStart  // they were a width
            }
        }

        if bytes[index...].starts(with: Array("#@".utf8)) {
            index += 2
            let nameStart = index
            while index < bytes.count, bytes[index] != UInt8(ascii: "@") { index += 1 }
            guard index < bytes.count else { return invalid("a %#@ variable reference needs a closing @") }
            let name = String(decoding: bytes[nameStart..<index], as: UTF8.self)
            guard !name.isEmpty else { return invalid("a %#@ variable reference needs a name") }
            return (.variable(name: name, position: position, isMalformed: isMalformedPosition), index + 1)
        }

        var flags: FormatSpecifier.Flags = []
        flagLoop: while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "-"): flags.insert(.leftAlign)
            case UInt8(ascii: "+"): flags.insert(.plusSign)
            case UInt8(ascii: " "): flags.insert(.spaceSign)
            case UInt8(ascii: "#"): flags.insert(.alternate)
            case UInt8(ascii: "0"): flags.insert(.zeroPad)
            case UInt8(ascii: "'"): flags.insert(.grouping)
            default: break flagLoop
            }
            index += 1
        }
        guard index < bytes.count else { return invalid("the conversion is cut off") }
        if bytes[index] == UInt8(ascii: "*") {
            return invalid("a * width takes its value from an argument, which is not supported")
        }
        let width = readNumber(bytes, &index)
        if let width, width > maximumWidth { return invalid("a width of \(width) is beyond \(maximumWidth)") }
        var precision: Int?
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "*") {
                return invalid("a * precision takes its value from an argument, which is not supported")
            }
            precision = readNumber(bytes, &index) ?? 0
            if let precision, precision > maximumWidth {
                return invalid("a precision of \(precision) is beyond \(maximumWidth)")
            }
        }
        var length = FormatSpecifier.Length.none
        if index + 1 < bytes.count, bytes[index] == UInt8(ascii: "h"), bytes[index + 1] == UInt8(ascii: "h") {
            length = .hh
            index += 2
        } else if index + 1 < bytes.count, bytes[index] == UInt8(ascii: "l"), bytes[index + 1] == UInt8(ascii: "l") {
            length = .ll
            index += 2
        } else if index < bytes.count, let single = singleLengths[bytes[index]] {
            length = single
            index += 1
        }
        guard index < bytes.count else { return invalid("the conversion is cut off") }
        guard bytes[index] < 0x80,
            let conversion = FormatSpecifier.Conversion(rawValue: Character(UnicodeScalar(bytes[index])))
        else {
            return invalid("a % not followed by a conversion; if the string is formatted, write %% for a percent sign")
        }
        let specifier = FormatSpecifier(
            position: position,
            flags: flags,
            width: width,
            precision: precision,
            length: length,
            conversion: conversion
        )
        return (.specifier(specifier), index + 1)
    }

    /// The highest argument position accepted (`%100$@`); catalogs use a handful.
    static let maximumPosition = 100
    /// The largest width or precision accepted, so no catalog string can make a render allocate megabytes.
    static let maximumWidth = 1024

    private static let singleLengths: [UInt8: FormatSpecifier.Length] = [
        UInt8(ascii: "h"): .h, UInt8(ascii: "l"): .l, UInt8(ascii: "q"): .q, UInt8(ascii: "z"): .z,
        UInt8(ascii: "t"): .t, UInt8(ascii: "j"): .j, UInt8(ascii: "L"): .longDouble,
    ]

    /// Reads decimal digits at `index`, advancing past them; `nil` if there are none.
    private static func readNumber(_ bytes: [UInt8], _ index: inout Int) -> Int? {
        var value = 0
        var sawDigit = false
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
            value = min(value * 10 + Int(bytes[index] - UInt8(ascii: "0")), 1_000_000)
            sawDigit = true
            index += 1
        }
        return sawDigit ? value : nil
    }
}
