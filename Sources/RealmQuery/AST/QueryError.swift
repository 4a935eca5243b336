/// A predicate, sort or aggregate that cannot be run: malformed (a syntax
/// error), or ill-typed for the schema (an unknown property, an operator on
/// a type that does not support it, a value of the wrong type).
///
/// ``description`` quotes the predicate and gives the reason, as in
/// `"agee > 5": Dog has no property 'agee'`; ``offset`` points at the
/// offending token, and ``annotated`` draws it.
public struct QueryError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Why the predicate cannot run, as a sentence a user can act on.
    public var message: String
    /// The predicate (format string) concerned, or the key path of a sort or
    /// aggregate.
    public var predicate: String
    /// Where in ``predicate`` the offending token starts, in `Character`s;
    /// nil when the error concerns the whole.
    public var offset: Int?
    /// How many `Character`s the offending token spans, at least 1.
    public var length: Int

    /// An error about `predicate`, pointing at `length` characters from
    /// `offset` when given.
    public init(_ message: String, predicate: String, offset: Int? = nil, length: Int = 1) {
        self.message = message
        self.predicate = predicate
        self.offset = offset
        self.length = max(1, length)
    }

    /// `"predicate": message`.
    public var description: String {
        "\"\(predicate)\": \(message)"
    }

    /// The predicate on one line and a caret under the offending token on
    /// the next, for terminals and logs.
    public var annotated: String {
        guard let offset else { return predicate }
        let caret = String(repeating: " ", count: offset) + "^" + String(repeating: "~", count: max(0, length - 1))
        return predicate + "\n" + caret
    }
}
