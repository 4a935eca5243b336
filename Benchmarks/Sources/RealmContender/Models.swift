import RealmObjects

// The models, declared as the docs and the seeds declare them.

/// The main class: an Int primary key, an unindexed and an indexed string,
/// and an integer.
final class BenchObject: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var stringCol = ""
    @Persisted(indexed: true) var indexedString = ""
    @Persisted var intCol = 0
}

/// The class the lookup workloads search: the same unique string in an
/// indexed and an unindexed property.
final class LookupObject: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted(indexed: true) var indexedString = ""
    @Persisted var unindexedString = ""
    @Persisted var intCol = 0
}

/// Ten integer properties, for the fetch workload.
final class TenIntsObject: Object {
    @Persisted var i0 = 0
    @Persisted var i1 = 0
    @Persisted var i2 = 0
    @Persisted var i3 = 0
    @Persisted var i4 = 0
    @Persisted var i5 = 0
    @Persisted var i6 = 0
    @Persisted var i7 = 0
    @Persisted var i8 = 0
    @Persisted var i9 = 0
}

/// The owner of the list the list workloads append to and iterate.
final class ListOwner: Object {
    @Persisted(primaryKey: true) var id = 0
    let items = List<ListItem>()
}

/// An element of the list.
final class ListItem: Object {
    @Persisted var score = 0
}

/// The owner of the set and map workloads' collections.
final class CollectionOwner: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var numbers: MutableSet<Int>
    @Persisted var entries: Map<String, Int>
}

/// The class of the mixed-value workload.
final class MixedObject: Object {
    @Persisted var value: AnyRealmValue
}

/// Every class, so that every file has the same schema whatever it holds.
let allObjectTypes: [Object.Type] = [BenchObject.self, LookupObject.self, TenIntsObject.self, ListOwner.self, ListItem.self,
                                     CollectionOwner.self, MixedObject.self]
