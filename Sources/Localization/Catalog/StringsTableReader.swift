import Foundation

/// Turns a `.strings` file into catalog entries.
enum StringsTableReader {
    static func entries(
        data: Data,
        file: String,
        table: String,
        localization: String
    ) -> (entries: [CatalogEntry], diagnostics: [CatalogDiagnostic]) {
        let result = StringsFileReader.read(data, file: file)
        var diagnostics = result.diagnostics.located(in: localization)
        var entries: [CatalogEntry] = []
        entries.reserveCapacity(result.entries.count)
        for item in result.entries {
            var compiler = TemplateCompiler()
            let value = compiler.compile(item.value)
            diagnostics += compiler.issues(for: value).map {
                CatalogDiagnostic(
                    $0.severity,
                    $0.code,
                    file: file,
                    location: item.location,
                    key: item.key,
                    locale: localization,
                    message: $0.message
                )
            }
            entries.append(
                CatalogEntry(
                    key: item.key,
                    table: table,
                    localization: localization,
                    value: value,
                    format: .strings,
                    file: file,
                    location: item.location,
                    comment: item.comment
                )
            )
        }
        return (entries, diagnostics)
    }
}
