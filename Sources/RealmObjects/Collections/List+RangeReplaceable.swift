import RealmCore

/// The list as a mutable, range-replaceable collection. The methods are
/// the list's own, not mutating, so that they work on the `let` list
/// properties models declare; each change of a managed list is one step of
/// the write transaction: it happens whole, or (on bad input) not at all,
/// with the error recorded for the commit to throw.
extension List: MutableCollection, RangeReplaceableCollection {
    /// The elements in `bounds`; setting it replaces them with the new
    /// slice's elements, as Realm's `list[1..<4] = other[0..<2]` does, on a
    /// `let` list too.
    public subscript(bounds: Range<Int>) -> Slice<List> {
        get { Slice(base: self, bounds: bounds) }
        set {
            // A slice of this very list changes as its elements are replaced.
            replaceSubrange(bounds, with: Array(newValue))
        }
    }

    /// Replaces the elements in `subrange` with `newElements`.
    ///
    /// - Precondition: `subrange` lies within the list; in a write
    ///   transaction when the list is managed.
    public func replaceSubrange<C: Collection>(_ subrange: Range<Int>, with newElements: C) where C.Element == Element {
        precondition(subrange.lowerBound >= 0 && subrange.upperBound <= count,
                     "Range \(subrange) is out of bounds (must be within 0..<\(count)).")
        guard let (realm, handle) = managed else {
            changeUnmanaged { $0.replaceSubrange(subrange, with: newElements) }
            return
        }
        realm.recordingFailure(of: "replace elements of list \(name(in: realm))") {
            try realm.transaction.atomicallyRethrowing {
                for index in subrange.reversed() {
                    try realm.transaction.remove(at: index, from: handle)
                }
                for (offset, element) in newElements.enumerated() {
                    try store(element, at: subrange.lowerBound + offset, realm: realm, handle: handle)
                }
            }
        }
    }

    /// Replaces the elements in `subrange` with `newElements`.
    public func replaceSubrange<C: Collection, R: RangeExpression>(_ subrange: R, with newElements: C)
    where C.Element == Element, R.Bound == Int {
        replaceSubrange(subrange.relative(to: 0..<count), with: newElements)
    }

    /// Appends every element of a sequence, in one step.
    public func append<S: Sequence>(contentsOf newElements: S) where S.Element == Element {
        insert(contentsOf: Array(newElements), at: count)
    }

    /// Inserts the elements of a collection at `index`, in one step.
    public func insert<C: Collection>(contentsOf newElements: C, at index: Int) where C.Element == Element {
        replaceSubrange(index..<index, with: newElements)
    }

    /// Removes the first `number` elements.
    ///
    /// - Precondition: the list has at least `number` elements.
    public func removeFirst(_ number: Int = 1) {
        precondition(number >= 0 && number <= count, "Cannot remove \(number) elements from a list of \(count).")
        removeSubrange(0..<number)
    }

    /// Removes the last `number` elements.
    ///
    /// - Precondition: the list has at least `number` elements.
    public func removeLast(_ number: Int = 1) {
        precondition(number >= 0 && number <= count, "Cannot remove \(number) elements from a list of \(count).")
        removeSubrange((count - number)..<count)
    }

    /// Removes the elements in `bounds`.
    public func removeSubrange(_ bounds: Range<Int>) {
        replaceSubrange(bounds, with: EmptyCollection())
    }

    /// Removes the elements in `bounds`.
    public func removeSubrange<R: RangeExpression>(_ bounds: R) where R.Bound == Int {
        removeSubrange(bounds.relative(to: 0..<count))
    }
}

extension List: Equatable {
    /// Whether the two are the same managed list (of one object's property
    /// in one Realm), or unmanaged lists of the same elements (objects
    /// compared as ``Object/isSameObject(as:)`` does), as Realm compares
    /// lists.
    public static func == (lhs: List, rhs: List) -> Bool {
        if lhs === rhs { return true }
        switch (lhs.managed, rhs.managed) {
        case (nil, nil):
            return lhs.count == rhs.count && zip(lhs, rhs).allSatisfy { same($0, $1) }
        case (let left?, let right?):
            return left.realm.configuration.identity == right.realm.configuration.identity && left.handle == right.handle
        default:
            return false
        }
    }
}
