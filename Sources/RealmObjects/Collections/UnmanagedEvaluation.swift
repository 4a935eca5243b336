import Foundation

/// Evaluates a predicate on objects that no Realm manages (an unmanaged
/// list's), with the query engine itself, so that they match exactly as
/// they would once added: each object is copied, alone, into a private
/// in-memory Realm of its class, and the predicate runs there.
///
/// A copy per object costs far more than a query, but unmanaged lists are
/// built by hand and short, and one engine means one set of answers.
enum UnmanagedEvaluation {
    /// The index of the first of `objects` that matches the predicate, or
    /// nil.
    ///
    /// - Precondition: the predicate is valid for the class, as for
    ///   `filter(_:_:)`.
    static func firstIndex(of objects: [Object], ofClass type: Object.Type, matching predicateFormat: String, arguments: [Any]) -> Int? {
        // The model class itself, not Object: a class method's `Self`.
        type._unmanagedFirstIndex(of: objects, matching: predicateFormat, arguments: arguments)
    }

    static func firstIndex<Element: Object>(of objects: [Object], as type: Element.Type, matching predicateFormat: String,
                                            arguments: [Any]) -> Int? {
        guard !objects.isEmpty else { return nil }
        let configuration = Realm.Configuration(
            inMemoryIdentifier: "unmanaged-evaluation-\(UUID().uuidString)",
            objectTypes: SchemaDiscovery.closure(of: [Element.self]))
        let scratch: Realm
        do {
            scratch = try Realm(configuration: configuration)
        } catch {
            preconditionFailure("Cannot evaluate '\(predicateFormat)' on an unmanaged list of '\(Element.className())': \(error)")
        }
        scratch.beginWrite()
        // Nothing of it is ever kept.
        defer { scratch.cancelWrite() }
        let matches = scratch.objects(Element.self).filter(predicateFormat, arguments: arguments)
        for (index, object) in objects.enumerated() {
            // One object (and what it links to) at a time: the list may hold
            // one object twice, or two with one primary key.
            scratch.deleteAll()
            scratch.create(Element.self, value: object)
            if !matches.isEmpty { return index }
        }
        return nil
    }
}

extension Object {
    /// ``UnmanagedEvaluation/firstIndex(of:ofClass:matching:arguments:)``
    /// for this model class.
    static func _unmanagedFirstIndex(of objects: [Object], matching predicateFormat: String, arguments: [Any]) -> Int? {
        UnmanagedEvaluation.firstIndex(of: objects, as: Self.self, matching: predicateFormat, arguments: arguments)
    }
}
