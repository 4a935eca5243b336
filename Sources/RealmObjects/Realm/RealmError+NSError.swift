import Foundation

extension Realm.Error: CustomNSError {
    /// The domain of every ``Realm/Error`` seen as an `NSError`: Realm's.
    public static var errorDomain: String { "io.realm" }

    /// The raw value of ``code``, Realm's number for it.
    public var errorCode: Int { code.rawValue }

    /// The message as the localized description, and the file's path when
    /// the error concerns a file.
    public var errorUserInfo: [String: Any] {
        var userInfo: [String: Any] = [NSLocalizedDescriptionKey: message]
        if let fileURL { userInfo[NSFilePathErrorKey] = fileURL.path }
        return userInfo
    }
}

// `catch let error as NSError` is how Realm's samples catch its errors. On
// Apple platforms any error bridges to NSError; on Linux a cast of an error
// to a class succeeds only for a type that bridges itself, and
// `_ObjectiveCBridgeable` is the conformance the runtime's casts consult
// there too (swift-corelibs-foundation bridges its value types the same
// way). It also lets an NSError of Realm's domain be caught as
// `Realm.Error`.
extension Realm.Error: _ObjectiveCBridgeable {
    public func _bridgeToObjectiveC() -> NSError {
        NSError(domain: Self.errorDomain, code: errorCode, userInfo: errorUserInfo)
    }

    public static func _forceBridgeFromObjectiveC(_ source: NSError, result: inout Realm.Error?) {
        result = Realm.Error(bridging: source)
    }

    public static func _conditionallyBridgeFromObjectiveC(_ source: NSError, result: inout Realm.Error?) -> Bool {
        guard source.domain == errorDomain else { return false }
        result = Realm.Error(bridging: source)
        return true
    }

    public static func _unconditionallyBridgeFromObjectiveC(_ source: NSError?) -> Realm.Error {
        source.map(Realm.Error.init(bridging:)) ?? Realm.Error(.fail, "An unknown error occurred.")
    }

    /// The error an NSError of Realm's domain stands for.
    private init(bridging error: NSError) {
        let path = error.userInfo[NSFilePathErrorKey] as? String
        self.init(Code(rawValue: error.code) ?? .fail, error.localizedDescription,
                  fileURL: path.map { URL(fileURLWithPath: $0) })
    }
}
