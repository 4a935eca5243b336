import RealmCore

/// Resolves key paths against a schema, reporting the first component that
/// does not resolve.
struct KeyPathResolver {
    let schema: Schema

    /// A failure at component `index` of the path.
    struct Failure: Error {
        let message: String
        let component: Int
    }

    /// Resolves `text` from `className`. Inside a SUBQUERY, `variable` is its
    /// variable and the path must start with it.
    func resolve(_ text: String, from className: String, variable: String? = nil) throws(Failure) -> ResolvedPath {
        var components = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        var componentIndex = 0
        if let variable {
            guard components.first == "$" + variable else {
                throw Failure(
                    message: "Key paths inside SUBQUERY must start with its variable $\(variable); '\(text)' refers to the enclosing object, and correlated subqueries are not supported",
                    component: 0)
            }
            components.removeFirst()
            componentIndex = 1
        } else if let first = components.first, first.hasPrefix("$") {
            throw Failure(message: "Unknown variable '\(first)'; variables exist only inside SUBQUERY", component: 0)
        }
        if components.first == "SELF", objectSchema(className)?[propertyNamed: "SELF"] == nil {
            components.removeFirst()
            componentIndex += 1
        }
        // `map.@values` is the map's values, as `map` alone is.
        if let first = components.firstIndex(of: "@values"), first > 0,
           Self.isMapName(components[first - 1], in: components[..<(first - 1)], from: className, schema: schema) {
            components.remove(at: first)
        }
        var current = className
        var steps: [PathStep] = []
        // Set when a component was read with the one before it.
        var consumed = false
        for (offset, name) in components.enumerated() {
            if consumed {
                consumed = false
                continue
            }
            let index = componentIndex + offset
            let isLast = offset == components.count - 1
            guard let objectSchema = objectSchema(current) else {
                throw Failure(message: "The schema has no class named '\(current)'", component: index)
            }
            guard let propertyIndex = objectSchema.propertyIndex(named: name) else {
                throw Failure(message: "\(current) has no property '\(name)'", component: index)
            }
            let property = objectSchema.properties[propertyIndex]
            if property.isMap, !isLast {
                // `map.@values` is the map's values, as `map` alone is;
                // `map.@keys` its keys; `map['key']` one value.
                let next = components[offset + 1]
                if property.type == .object, next.hasPrefix("['"), offset + 2 < components.count {
                    // The object held for the key, followed on as a link.
                    let target = property.objectClassName ?? ""
                    steps.append(PathStep(kind: .mapValue(key: String(next.dropFirst(2).dropLast(2))), ownerClass: current, property: name,
                                          propertyIndex: propertyIndex, targetClass: target))
                    current = target
                    consumed = true
                    continue
                }
                // A key after a dot, in a map of values, is the key in
                // brackets (`scores.math` is `scores['math']`), as in Realm.
                let isDottedKey = property.type != .object && !next.hasPrefix("@") && !next.hasPrefix("[")
                if next == "@keys" || next.hasPrefix("['") || isDottedKey {
                    guard offset + 2 == components.count else {
                        throw Failure(message: "'\(next)' of map '\(current).\(name)' ends a key path; nothing can follow it", component: index + 2)
                    }
                    let terminal: PathTerminal = next == "@keys"
                        ? .mapKeys(property, index: propertyIndex)
                        : .mapValue(property, index: propertyIndex, key: isDottedKey ? next : String(next.dropFirst(2).dropLast(2)))
                    return ResolvedPath(rootClass: className, steps: steps, terminal: terminal, text: text)
                }
            }
            // Subscripts into a mixed value's nested collections, or a
            // dictionary key after a dot (`value.color`, as `value['color']`).
            if property.type == .mixed, !property.isCollection, !isLast, components[offset + 1] != "@type" {
                let terminal = try Self.mixedPath(property, index: propertyIndex, components[(offset + 1)...], firstComponent: index + 1)
                return ResolvedPath(rootClass: className, steps: steps, terminal: terminal, text: text)
            }
            if property.type == .mixed, !isLast, components[offset + 1] == "@type" {
                guard offset + 2 == components.count else {
                    throw Failure(message: "@type ends a key path; nothing can follow it", component: index + 2)
                }
                return ResolvedPath(rootClass: className, steps: steps, terminal: .mixedType(property, index: propertyIndex), text: text)
            }
            if name == "@values" {
                throw Failure(message: "@values follows a map property", component: index)
            }
            switch property.type {
            case .object:
                let target = property.objectClassName ?? ""
                // A set or map of links is walked like a list: its table has
                // the same owner and value columns.
                steps.append(PathStep(kind: property.isCollection ? .list : .link, ownerClass: current, property: name,
                                      propertyIndex: propertyIndex, targetClass: target))
                current = target
            case .linkingObjects:
                guard let origin = property.objectClassName, let originProperty = property.linkOriginPropertyName,
                      let originSchema = self.objectSchema(origin), let originIndex = originSchema.propertyIndex(named: originProperty) else {
                    throw Failure(message: "Linking objects property '\(current).\(name)' names an origin that is not in the schema", component: index)
                }
                steps.append(PathStep(kind: .backlink(originIsList: originSchema.properties[originIndex].isCollection), ownerClass: origin,
                                      property: originProperty, propertyIndex: originIndex, targetClass: origin))
                current = origin
            default:
                guard isLast else {
                    throw Failure(
                        message: "'\(name)' is a \(property.typeDescription) property of \(current), so key path '\(text)' cannot continue past it",
                        component: index)
                }
                let terminal: PathTerminal = property.isCollection ? .primitiveList(property, index: propertyIndex) : .column(property, index: propertyIndex)
                return ResolvedPath(rootClass: className, steps: steps, terminal: terminal, text: text)
            }
        }
        return ResolvedPath(rootClass: className, steps: steps, terminal: .object, text: text)
    }

    /// Whether `name`, reached from `className` through the to-one or
    /// collection links `before`, is a map property.
    private static func isMapName(_ name: String, in before: ArraySlice<String>, from className: String, schema: Schema) -> Bool {
        var current = className
        for component in before {
            guard let property = schema[current]?[propertyNamed: component], property.type == .object,
                  let target = property.objectClassName else { return false }
            current = target
        }
        return schema[current]?[propertyNamed: name]?.isMap == true
    }

    func objectSchema(_ className: String) -> ObjectSchema? {
        schema[className]
    }

    /// A path for sorting, distinct or an aggregate: to-one links only,
    /// ending at a column whose type `allowed` accepts.
    func resolveColumnPath(_ text: String, from className: String, purpose: String,
                           allowed: (PropertyType) -> Bool, allowedDescription: String) throws(QueryError) -> ResolvedPath {
        let path: ResolvedPath
        do {
            path = try resolve(text, from: className)
        } catch {
            throw QueryError(error.message, predicate: text, offset: Self.componentOffset(text, error.component),
                             length: Self.componentLength(text, error.component))
        }
        if let step = path.steps.first(where: \.isToMany) {
            throw QueryError("Cannot \(purpose) key path '\(text)': '\(step.kind == .list ? step.property : "linking objects")' is a collection; only to-one links can be followed here", predicate: text, offset: 0, length: text.count)
        }
        guard case .column(let property, _) = path.terminal else {
            let reason: String
            switch path.terminal {
            case .primitiveList(let property, _), .mapKeys(let property, _), .mapValue(let property, _, _), .mixedType(let property, _):
                reason = "'\(property.name)' is a \(property.isSet ? "set" : property.isMap ? "map" : "list")"
            default: reason = "it ends at an object, not a property value"
            }
            throw QueryError("Cannot \(purpose) key path '\(text)': \(reason)", predicate: text, offset: 0, length: text.count)
        }
        guard allowed(property.type) else {
            throw QueryError("Cannot \(purpose) key path '\(text)' of type \(property.type): only \(allowedDescription) properties can be used", predicate: text, offset: 0, length: text.count)
        }
        return path
    }

    /// The Character offset of component `index` within the dotted `text`.
    static func componentOffset(_ text: String, _ index: Int) -> Int {
        var offset = 0
        for (position, component) in text.split(separator: ".", omittingEmptySubsequences: false).enumerated() {
            if position == index { return offset }
            offset += component.count + 1
        }
        return 0
    }

    static func componentLength(_ text: String, _ index: Int) -> Int {
        let components = text.split(separator: ".", omittingEmptySubsequences: false)
        return index < components.count ? components[index].count : 1
    }
}

extension KeyPathResolver {
    /// The subscripts after a mixed property (`[0]`, `['key']`, `[*]`,
    /// `[FIRST]`, `[LAST]`), then optionally `[SIZE]` or `@type`.
    static func mixedPath(_ property: Property, index: Int, _ components: ArraySlice<String>, firstComponent: Int) throws(Failure) -> PathTerminal {
        var steps: [MixedStep] = []
        var end = MixedPathEnd.values
        for (offset, component) in components.enumerated() {
            let position = firstComponent + offset
            guard end == .values else {
                throw Failure(message: "'\(components[components.index(before: components.startIndex + offset)])' ends a key path; nothing can follow it", component: position)
            }
            switch component {
            case "[*]": steps.append(.all)
            case "[FIRST]": steps.append(.position(0))
            case "[LAST]": steps.append(.fromEnd(1))
            case "[SIZE]": end = .size
            case "@type": end = .typeNames
            case let key where key.hasPrefix("['"): steps.append(.key(String(key.dropFirst(2).dropLast(2))))
            case let number where number.hasPrefix("["):
                guard let value = Int(number.dropFirst().dropLast()) else {
                    throw Failure(message: "'\(number)' is no subscript of a mixed value", component: position)
                }
                steps.append(.position(value))
            case let name where !name.hasPrefix("@") && !name.hasPrefix("$"):
                // A dictionary's key, after a dot.
                steps.append(.key(name))
            default:
                throw Failure(message: "'\(component)' cannot follow mixed property '\(property.name)'; use [index], ['key'], .key, [*], [FIRST], [LAST], [SIZE] or @type",
                              component: position)
            }
        }
        return .mixedPath(property, index: index, steps: steps, end: end)
    }
}
