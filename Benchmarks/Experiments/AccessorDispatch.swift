// What the dispatch of a property wrapper's read costs, in instructions:
// the `_enclosingInstance` subscript that `@Persisted` uses (the compiler
// materializes the storage key path for every access, and the wrapper
// finds its property by the key path's identity) against a wrapper whose
// storage holds a pointer back to its object and its property's index.
// Both read the same value; the difference is the dispatch alone.
//
// Not part of any target. Run (Docs/Performance.md quotes the result):
//
//   swiftc -O Benchmarks/Experiments/AccessorDispatch.swift -o /tmp/dispatch
//   for variant in keypath backpointer; do for n in 1000 101000; do
//     valgrind --tool=callgrind --callgrind-out-file=/tmp/dispatch-$variant-$n.out \
//       --toggle-collect='$s8dispatch*readBy*' /tmp/dispatch $variant $n >/dev/null
//   done; done
//   # (totals of the 101000 run - totals of the 1000 run) / 100000 = per read

final class Values { let values: [Int] = Array(0..<10) }

class Model {
    final let store = Values()
    @exclusivity(unchecked) final var lastKeyPath: AnyKeyPath?
    @exclusivity(unchecked) final var lastIndex = 0

    /// The property's index by the key path's identity (a one-entry cache
    /// here; `@Persisted` scans a short lock-free table).
    @inline(never) final func slot(_ keyPath: AnyKeyPath) -> Int {
        if keyPath === lastKeyPath { return lastIndex }
        lastKeyPath = keyPath
        lastIndex = 0
        return 0
    }
}

@propertyWrapper struct ByKeyPath<Value> {
    var storage: Value
    init(wrappedValue: Value) { storage = wrappedValue }
    @available(*, unavailable) var wrappedValue: Value { get { fatalError() } set { fatalError() } }
    static subscript<Enclosing: Model>(_enclosingInstance model: Enclosing,
                                       wrapped wrapped: ReferenceWritableKeyPath<Enclosing, Value>,
                                       storage storage: ReferenceWritableKeyPath<Enclosing, Self>) -> Value {
        get { model.store.values[model.slot(storage)] as! Value }
        set {}
    }
}

let nobody = Model()

@propertyWrapper struct ByBackPointer<Value> {
    var index = 0
    unowned(unsafe) var owner: Model = nobody
    var storage: Value
    init(wrappedValue: Value) { storage = wrappedValue }
    var wrappedValue: Value {
        get { owner.store.values[index] as! Value }
        set {}
    }
}

final class KeyPathModel: Model { @ByKeyPath var x = 0 }
final class BackPointerModel: Model { @ByBackPointer var x = 0 }

@inline(never) func readByKeyPath(_ model: KeyPathModel, _ count: Int) -> Int {
    var sum = 0
    for _ in 0..<count { sum &+= model.x }
    return sum
}

@inline(never) func readByBackPointer(_ model: BackPointerModel, _ count: Int) -> Int {
    var sum = 0
    for _ in 0..<count { sum &+= model.x }
    return sum
}

let count = Int(CommandLine.arguments[2])!
switch CommandLine.arguments[1] {
case "keypath": print(readByKeyPath(KeyPathModel(), count))
default: print(readByBackPointer(BackPointerModel(), count))
}
