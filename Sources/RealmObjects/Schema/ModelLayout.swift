@_spi(Reflection) import Swift
import RealmCore

/// Where a model class keeps its Realm properties inside an instance: the
/// one place that knows raw offsets into objects.
///
/// The offsets come from the runtime's field metadata, walked once per
/// class, so that copying an object into a Realm, reading an unmanaged
/// object's values or binding its lists needs no `Mirror` (which costs
/// microseconds an object). Debug builds check them against what `Mirror`
/// reflects of an instance (``verify(against:of:)``) when the class
/// is first used.
struct ModelLayout {
    /// A `@Persisted` property's storage.
    struct PersistedField {
        /// The property's index in the class's schema.
        let index: Int
        /// The property wrapper's offset in an instance.
        let offset: Int
        /// The property wrapper's type (`Persisted<Value>`).
        let type: any PersistedProperty.Type
        /// The unmanaged value's offset in an instance.
        let valueOffset: Int
        /// The binding's offset in an instance.
        let bindingOffset: Int
    }

    /// A `let` property holding a `List`, `RealmOptional` or
    /// `LinkingObjects`, or a `@Persisted` one holding a collection (the
    /// offset is then the wrapper's value's).
    struct ReferenceField {
        /// The property's index in the class's schema.
        let index: Int
        /// The reference's offset in an instance.
        let offset: Int
    }

    /// Every `@Persisted` property the schema has, in schema order (so a
    /// flat class's row is their values in turn).
    let persistedFields: [PersistedField]
    /// Every `let` property the schema has.
    let referenceFields: [ReferenceField]
    /// Whether an instance stores nothing beside `Object`'s own fields but
    /// the properties above (no ignored or other property of its own).
    let storesOnlyRealmProperties: Bool
    /// Where each `@Persisted` property's binding lies in an instance.
    let bindings: Bindings
    /// Where the bindings of `@Persisted` collection properties lie: bound
    /// on probes only, so that reading the collection is recorded (a
    /// managed object's collections are bound as `let` ones are).
    let collectionBindings: Bindings

    /// The bindings of a class's `@Persisted` storages in an instance: a
    /// flat buffer, walked for every object that becomes managed, so that
    /// binding one costs a few stores per property and no retain of the
    /// layout's arrays.
    final class Bindings: @unchecked Sendable {
        // @unchecked: the buffer is written only by `init`.

        private struct Slot {
            /// The binding's offset in an instance.
            var offset: Int
            /// The property's index in the class's schema.
            var index: Int
        }

        private let slots: UnsafeMutableBufferPointer<Slot>

        init(_ fields: [PersistedField]) {
            slots = .allocate(capacity: fields.count)
            _ = slots.initialize(from: fields.map { Slot(offset: $0.bindingOffset, index: $0.index) })
        }

        deinit { slots.deallocate() }

        /// Tells each `@Persisted` storage of `object` its object and
        /// property index, so that its accessors reach the Realm (see
        /// ``Persisted``). Properties the schema leaves out (ignored ones)
        /// stay unbound: plain stored values.
        func bind(_ object: Object) {
            let owner = Unmanaged.passUnretained(object)
            let base = UnsafeMutableRawPointer(owner.toOpaque())
            for slot in slots {
                (base + slot.offset).assumingMemoryBound(to: PersistedBinding.self).pointee = PersistedBinding(owner: owner, index: slot.index)
            }
        }
    }

    /// The layout of a class known only by its stored schema: its instances
    /// (`DynamicObject`s) keep their values by name, at no offset.
    static var dynamic: ModelLayout {
        ModelLayout(persistedFields: [], referenceFields: [], storesOnlyRealmProperties: false)
    }

    private init(persistedFields: [PersistedField], referenceFields: [ReferenceField], storesOnlyRealmProperties: Bool) {
        self.persistedFields = persistedFields
        self.referenceFields = referenceFields
        self.storesOnlyRealmProperties = storesOnlyRealmProperties
        bindings = Bindings(persistedFields)
        collectionBindings = Bindings([])
    }

    /// The layout of `type`, whose schema properties are `indexByName`;
    /// `bound` names its `let` properties by reflection label.
    init(of type: Object.Type, indexByName: [String: Int], bound: [(label: String, index: Int)]) {
        var persisted: [PersistedField] = []
        var collections: [PersistedField] = []
        var references: [ReferenceField] = []
        let boundByLabel = Dictionary(bound.map { ($0.label, $0.index) }, uniquingKeysWith: { first, _ in first })
        let fieldCount = Self.forEachStoredField(of: type) { label, offset, fieldType in
            if let persistedType = fieldType as? any PersistedProperty.Type, persistedType.valueType._isCollection {
                // `@Persisted var list: List<T>`: the wrapper's value is
                // the collection object, a reference like a `let` one's.
                if let index = boundByLabel[label] {
                    references.append(ReferenceField(index: index, offset: offset + persistedType.unmanagedValueOffset))
                    collections.append(PersistedField(index: index, offset: offset, type: persistedType,
                                                      valueOffset: offset + persistedType.unmanagedValueOffset,
                                                      bindingOffset: offset + persistedType.bindingOffset))
                }
            } else if let persistedType = fieldType as? any PersistedProperty.Type {
                if let index = indexByName[String(label.dropFirst())] {
                    persisted.append(PersistedField(index: index, offset: offset, type: persistedType,
                                                    valueOffset: offset + persistedType.unmanagedValueOffset,
                                                    bindingOffset: offset + persistedType.bindingOffset))
                }
            } else if let index = boundByLabel[label] {
                references.append(ReferenceField(index: index, offset: offset))
            }
        }
        persistedFields = persisted.sorted { $0.index < $1.index }
        referenceFields = references
        storesOnlyRealmProperties = fieldCount == Self.objectFieldCount + persisted.count + references.count
        bindings = Bindings(persistedFields)
        collectionBindings = Bindings(collections)
    }

    /// The number of stored fields of `Object` itself.
    private static let objectFieldCount = forEachStoredField(of: Object.self) { _, _, _ in }

    /// Calls `body` with the label, offset and type of every stored field
    /// of `type`, its superclasses' included, and returns their number.
    @discardableResult
    private static func forEachStoredField(of type: Object.Type, _ body: (String, Int, Any.Type) -> Void) -> Int {
        var count = 0
        // `_EachFieldOptions.classType` is a mutable static in the standard
        // library, which Swift 6 refuses to read; its raw value is 1.
        _ = _forEachField(of: type, options: _EachFieldOptions(rawValue: 1)) { name, offset, fieldType, _ in
            count += 1
            body(String(cString: name), offset, fieldType)
            return true
        }
        return count
    }

    // MARK: Reading instances

    /// The unmanaged value of every `@Persisted` property of an unmanaged
    /// object, by schema index (overrides set by name included).
    func unmanagedValues(of object: Object) -> [Int: _Persistable?] {
        var values: [Int: _Persistable?] = [:]
        withExtendedLifetime(object) {
            let base = UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque())
            for field in persistedFields {
                values[field.index] = object._override(field.index) ?? field.type.unmanagedValue(at: base + field.offset)
            }
        }
        return values
    }

    /// Appends the stored form of every `@Persisted` property's unmanaged
    /// value of `object` to `row`, in schema order.
    ///
    /// - Throws: a value that cannot be stored (see
    ///   ``PersistedProperty/storedValue(ofUnmanagedValueAt:)``).
    func appendStoredValues(of object: Object, to row: inout [RealmCore.Value]) throws {
        try withExtendedLifetime(object) {
            let base = UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque())
            for field in persistedFields {
                row.append(try field.type.storedValue(ofUnmanagedValueAt: base + field.valueOffset))
            }
        }
    }

    /// The object held by a `let` property (a `List`, `RealmOptional` or
    /// `LinkingObjects`) of an instance.
    func reference(_ index: Int, of object: Object) -> AnyObject? {
        guard let field = referenceFields.first(where: { $0.index == index }) else { return nil }
        return withExtendedLifetime(object) {
            UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque()).load(fromByteOffset: field.offset, as: AnyObject.self)
        }
    }

    /// Every `let` property's object of an instance, with its schema index.
    func references(of object: Object) -> [(index: Int, object: AnyObject)] {
        withExtendedLifetime(object) {
            let base = UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque())
            return referenceFields.map { ($0.index, base.load(fromByteOffset: $0.offset, as: AnyObject.self)) }
        }
    }

    // MARK: Checking

    /// Stops, naming the class and the property, unless every offset is
    /// where `Mirror` finds the property in `instance` (a new instance of
    /// the class): each `@Persisted` property's wrapper is marked through
    /// its offset and must be the one `Mirror` sees marked, and each `let`
    /// property's offset must hold the object `Mirror` reports.
    ///
    /// The offsets come from the runtime's field metadata and `Mirror` from
    /// the reflection metadata; they must agree, or values would be read
    /// from and written to the wrong memory. Run in debug builds only, once
    /// per class.
    func verify(against instance: Object, of schema: ObjectSchema) {
        let className = schema.name
        withExtendedLifetime(instance) {
            let base = UnsafeMutableRawPointer(Unmanaged.passUnretained(instance).toOpaque())
            for field in persistedFields {
                let name = schema.properties[field.index].name
                field.type.setProbe(true, at: base + field.offset)
                // A wrapper's storage is labelled with an underscore.
                let marked = ClassInfo.children(of: instance).compactMap { child in
                    (child.1 as? PersistedProperty)?.isProbe == true ? String(child.0.dropFirst()) : nil
                }
                field.type.setProbe(false, at: base + field.offset)
                precondition(marked == [name], """
                    The layout of '\(className)' puts property '\(name)' at offset \(field.offset), \
                    where reflection finds \(marked.isEmpty ? "no property" : "'\(marked.joined(separator: "', '"))'").
                    """)
            }
            let children = Dictionary(ClassInfo.children(of: instance), uniquingKeysWith: { first, _ in first })
            for field in referenceFields {
                let label = schema.properties[field.index].name
                let stored = UnsafeRawPointer(base).load(fromByteOffset: field.offset, as: AnyObject.self)
                // A `@Persisted` collection's object is its wrapper's value.
                let child: Any? = children[label] ?? (children["_" + label] as? PersistedProperty)?.unmanagedValue.map { $0 as Any }
                precondition(child.map { ($0 as AnyObject) === stored } == true,
                             "The layout of '\(className)' puts property '\(label)' at offset \(field.offset), where reflection finds another object.")
            }
        }
    }
}
