import Foundation

extension Realm.Configuration: CustomStringConvertible {
    /// A human-readable description of the configuration: where the Realm
    /// lives and how it is opened. The encryption key is never shown, only
    /// whether there is one.
    public var description: String {
        var fields: [String] = []
        if let inMemoryIdentifier {
            fields.append("inMemoryIdentifier = \(inMemoryIdentifier)")
        } else {
            fields.append("fileURL = \((fileURL ?? Realm.Configuration.defaultFileURL).path)")
        }
        fields.append("encryptionKey = \(encryptionKey == nil ? "(null)" : "(\(encryptionKey!.count) bytes, not shown)")")
        fields.append("readOnly = \(readOnly)")
        fields.append("schemaVersion = \(schemaVersion)")
        fields.append("migrationBlock = \(migrationBlock == nil ? "(null)" : "(a block)")")
        fields.append("deleteRealmIfMigrationNeeded = \(deleteRealmIfMigrationNeeded)")
        fields.append("shouldCompactOnLaunch = \(shouldCompactOnLaunch == nil ? "(null)" : "(a block)")")
        let types = objectTypes.map { "[" + $0.map { $0.className() }.joined(separator: ", ") + "]" } ?? "(all classes)"
        fields.append("objectTypes = \(types)")
        return "Realm.Configuration {\n" + fields.map { "\t" + $0 + ";" }.joined(separator: "\n") + "\n}"
    }
}
