/// The one place Caffe's version is written: `caffe --version`, `caffe-sim --version`, the
/// `caffe_build_info` metric and the load report's run details all read it.
public enum CaffeVersion {
    /// Semantic version of this tree; CHANGELOG.md's newest heading names the same.
    public static let current = "0.30.0"

    /// The Swift compiler that built it, such as `6.3`.
    public static let swift: String = {
        #if compiler(>=6.4)
        "6.4+"
        #elseif compiler(>=6.3)
        "6.3"
        #elseif compiler(>=6.2)
        "6.2"
        #else
        "6.1"
        #endif
    }()
}
