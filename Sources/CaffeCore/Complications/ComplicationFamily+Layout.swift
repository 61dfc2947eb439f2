import CaffeProtocol

extension Caffe_V1_ComplicationFamily {
    /// The families a request with none listed gets, in wire order.
    public static let rendered: [Self] = [
        .modularSmall, .modularLarge, .utilitarianSmall, .utilitarianLarge, .circularSmall, .graphicCorner,
        .graphicRectangular,
    ]

    /// How wide a text the family shows, in terminal-style columns (``DisplayWidth``): wide East
    /// Asian characters take two. Chosen so the English formats land as the watch faces show them.
    public var widthLimit: Int {
        switch self {
        case .circularSmall: 5
        case .modularSmall: 7
        case .graphicCorner: 10
        case .utilitarianSmall: 11
        case .modularLarge, .utilitarianLarge: 20
        case .graphicRectangular: 24
        case .unspecified, .UNRECOGNIZED: 0
        }
    }

    /// The family's command-line name ("modular-small").
    public var name: String {
        switch self {
        case .modularSmall: "modular-small"
        case .modularLarge: "modular-large"
        case .utilitarianSmall: "utilitarian-small"
        case .utilitarianLarge: "utilitarian-large"
        case .circularSmall: "circular-small"
        case .graphicCorner: "graphic-corner"
        case .graphicRectangular: "graphic-rectangular"
        case .unspecified: "unspecified"
        case .UNRECOGNIZED(let value): "unrecognized(\(value))"
        }
    }

    /// The family called `name` on the command line.
    public init?(name: String) {
        guard let family = Self.rendered.first(where: { $0.name == name }) else { return nil }
        self = family
    }
}
