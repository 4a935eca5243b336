import Synchronization

/// The stored class names of model classes, remembered: `className()`
/// formats the type's name each time, which costs microseconds on paths
/// that run per query or per lookup.
enum ClassNames {
    private static let cache = Mutex<[ObjectIdentifier: String]>([:])

    static func name(of type: Object.Type) -> String {
        if let name = cache.withLock({ $0[ObjectIdentifier(type)] }) { return name }
        let name = type.className()
        cache.withLock { $0[ObjectIdentifier(type)] = name }
        return name
    }
}
