/// How every replica names one object (Docs/SyncDesign.md, "Identities").
public enum ObjectIdentity: Hashable, Sendable, CustomStringConvertible {
    /// An object of a class with a primary key: the key's value, and the
    /// incarnation (0 for the first; one more each time it is created again
    /// after a deletion its creator had seen).
    case primaryKey(SyncValue, incarnation: UInt32)
    /// An object of a class without a primary key: the identity its
    /// creating client gave it.
    case global(GlobalKey)
    /// An embedded object: its owner, the owner's property, and in a list
    /// of embedded objects the element holding it.
    indirect case embedded(ownerClass: String, owner: ObjectIdentity, property: String, element: GlobalKey?)

    public var description: String {
        switch self {
        case .primaryKey(let value, let incarnation): "pk(\(value))\(incarnation == 0 ? "" : "#\(incarnation)")"
        case .global(let key): "g\(key)"
        case .embedded(let ownerClass, let owner, let property, let element):
            "\(ownerClass)[\(owner)].\(property)\(element.map { "[\($0)]" } ?? "")"
        }
    }
}
