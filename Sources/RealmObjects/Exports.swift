// A program that imports RealmObjects sees the value types of the layers
// below (ObjectId, Schema, ObjectSchema, Property, RealmQuery.SortDescriptor …), as it
// would see them in RealmSwift, without importing those modules itself.
@_exported import RealmCore
@_exported import RealmQuery
