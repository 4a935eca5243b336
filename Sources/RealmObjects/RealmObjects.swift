// RealmObjects: the Swift object SDK (Object, @Persisted, List, Results,
// Realm, Configuration, notifications). Built in issue #3; this file anchors
// the module so that the package has its final shape from the start.
import RealmCore
import RealmQuery
