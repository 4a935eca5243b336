import RealmCore

extension Realm {
    /// Whether the Realm holds no objects of any class, at the version it
    /// reads. Costs one count per class of the file.
    public var isEmpty: Bool {
        verifyThread()
        return perform("count the objects of the Realm", ifDamaged: true) { transaction in
            for objectSchema in transaction.schema.objectSchemas where !objectSchema.isEmbedded {
                if try transaction.count(of: transaction.classHandle(named: objectSchema.name)) > 0 { return false }
            }
            return true
        }
    }
}
