/// Gathers a reader's diagnostics for one file, turning byte offsets into locations.
///
/// After ``syntaxErrorLimit`` syntax errors the collector adds one note and drops further syntax
/// errors, so a file of garbage gives a readable report; parsing itself carries on.
struct DiagnosticCollector {
    static let syntaxErrorLimit = 100

    let file: String
    var locator: SourceLocator
    private(set) var diagnostics: [CatalogDiagnostic] = []
    private var syntaxErrorCount = 0

    init(file: String, text: [UInt8] = []) {
        self.file = file
        self.locator = SourceLocator(text)
    }

    /// The location of the byte at `offset` in the text given to ``init(file:text:)``.
    mutating func location(at offset: Int) -> SourceLocation {
        locator.location(at: offset)
    }

    /// Reports a `.syntaxError` (an error) at `offset`.
    mutating func syntaxError(_ message: String, at offset: Int, key: String? = nil) {
        syntaxErrorCount += 1
        if syntaxErrorCount > Self.syntaxErrorLimit {
            if syntaxErrorCount == Self.syntaxErrorLimit + 1 {
                diagnostics.append(
                    CatalogDiagnostic(
                        .note,
                        .syntaxError,
                        file: file,
                        location: location(at: offset),
                        message: "more than \(Self.syntaxErrorLimit) syntax errors; later ones are not reported"
                    )
                )
            }
            return
        }
        diagnostics.append(
            CatalogDiagnostic(
                .error,
                .syntaxError,
                file: file,
                location: location(at: offset),
                key: key,
                message: message
            )
        )
    }

    /// Reports any diagnostic at a known location.
    mutating func report(
        _ severity: CatalogDiagnostic.Severity,
        _ code: CatalogDiagnostic.Code,
        location: SourceLocation = .unknown,
        key: String? = nil,
        message: String
    ) {
        diagnostics.append(
            CatalogDiagnostic(severity, code, file: file, location: location, key: key, message: message)
        )
    }
}
