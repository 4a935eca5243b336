// RealmQuery: the predicate language of Realm (NSPredicate's format-string
// syntax), parsed, type-checked against a RealmCore schema and compiled to
// SQL plus post-filters. Built in issue #4; this file anchors the module so
// that the package has its final shape from the start.
import RealmCore
