import RealmCore
import RealmQuery

/// What a Realm has learned of its file's schema and of the model classes
/// used with it: which classes were checked against the file, their class
/// handles, what object factories need of them.
///
/// It is one value so that whatever may invalidate it (a cancelled write
/// that had added classes, a commit that failed) replaces it whole, and no
/// lookup is forgotten when a new one is added.
struct SchemaCache {
    /// The model classes registered when the Realm opened: the
    /// configuration's subset, whose schema opening checked.
    let initiallyRegistered: Set<ObjectIdentifier>
    /// Model classes whose schema was checked against the file.
    var registered: Set<ObjectIdentifier>
    /// The class found registered last, compared before hashing: a loop of
    /// adds asks about one class for every object.
    var recentlyRegistered: ObjectIdentifier?
    /// Class handles by class name, for the classes the file has.
    var handles: [String: ClassHandle] = [:]
    /// The handle found last, compared before hashing: a loop of lookups
    /// asks for one class again and again.
    var recentHandle: ClassHandle?
    /// What object factories need of the stored model classes, by class.
    var storedClasses: [ObjectIdentifier: ObjectFactory.StoredClass] = [:]
    /// The model class registered last, with its stored name and the query
    /// for all its objects.
    var recentModel: (type: ObjectIdentifier, name: String, allObjects: Query)?
    /// The info of stored classes for dynamic access, by class name.
    var dynamicInfos: [String: ClassInfo] = [:]

    /// A cache that knows only the classes the Realm opened with.
    init(registered: Set<ObjectIdentifier>) {
        initiallyRegistered = registered
        self.registered = registered
    }

    /// The cache as it was when the Realm opened.
    var reset: SchemaCache { SchemaCache(registered: initiallyRegistered) }
}
