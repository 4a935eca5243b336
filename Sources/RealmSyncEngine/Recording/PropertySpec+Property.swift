import RealmCore
import RealmSyncWire

extension PropertySpec {
    /// How `addProperty` describes a property of the file's schema.
    package init(_ property: Property) {
        self.init(name: property.name, type: property.type.rawValue, isOptional: property.isOptional, isList: property.isList,
                  isSet: property.isSet, isMap: property.isMap, target: property.objectClassName)
    }
}
