/// Realm Swift's spelling for catching one kind of error:
///
/// ```swift
/// do {
///     let realm = try Realm(configuration: configuration)
/// } catch Realm.Error.fileNotFound {
///     // …
/// }
/// ```
extension Realm.Error {
    public static var fail: Code { .fail }
    public static var fileAccess: Code { .fileAccess }
    public static var filePermissionDenied: Code { .filePermissionDenied }
    public static var fileExists: Code { .fileExists }
    public static var fileNotFound: Code { .fileNotFound }
    public static var fileFormatUpgradeRequired: Code { .fileFormatUpgradeRequired }
    public static var incompatibleLockFile: Code { .incompatibleLockFile }
    public static var addressSpaceExhausted: Code { .addressSpaceExhausted }
    public static var schemaMismatch: Code { .schemaMismatch }
    public static var alreadyOpen: Code { .alreadyOpen }
    public static var fileCorrupt: Code { .fileCorrupt }
    public static var duplicatePrimaryKey: Code { .duplicatePrimaryKey }
    public static var wrongType: Code { .wrongType }
    public static var missingValue: Code { .missingValue }
    public static var valueTooLarge: Code { .valueTooLarge }
    public static var invalidPredicate: Code { .invalidPredicate }
    public static var invalidSchema: Code { .invalidSchema }
}

/// Whether `error` is a ``Realm/Error`` of `code`: what `catch
/// Realm.Error.fileNotFound` matches with.
public func ~= (code: Realm.Error.Code, error: any Error) -> Bool {
    (error as? Realm.Error)?.code == code
}
