import Foundation

/// The change of sectioned results between two deliveries, from the change
/// of the collection sectioned, as realm-core computes it:
///
/// - sections whose key appeared are inserted, those whose key went are
///   deleted (their rows are not listed);
/// - the collection's deletions and insertions become index paths of the
///   old and the new sections;
/// - a modified element that stayed in its section at the same row stays a
///   modification; one that moved between sections (its key changed) is a
///   deletion from the old section and an insertion into the new one.
struct SectionDiff {
    var deletions: [IndexPath] = []
    var insertions: [IndexPath] = []
    var modifications: [IndexPath] = []
    var sectionsToInsert = IndexSet()
    var sectionsToDelete = IndexSet()

    var isEmpty: Bool {
        deletions.isEmpty && insertions.isEmpty && modifications.isEmpty && sectionsToInsert.isEmpty && sectionsToDelete.isEmpty
    }

    /// - Parameters:
    ///   - deletions: indices in `old` of the elements removed.
    ///   - insertions: indices in `new` of the elements added.
    ///   - modifications: indices in `new` of the elements kept and changed.
    init<Key, Element>(old: SectionedSource<Key, Element>.Snapshot, new: SectionedSource<Key, Element>.Snapshot,
                       deletions: [Int], insertions: [Int], modifications: [Int]) {
        for (index, section) in new.sections.enumerated() where old.sectionIndex[section.key] == nil {
            sectionsToInsert.insert(index)
        }
        for (index, section) in old.sections.enumerated() where new.sectionIndex[section.key] == nil {
            sectionsToDelete.insert(index)
        }
        let oldPaths = old.indexPaths
        let newPaths = new.indexPaths
        // The kept elements, in order, are the old ones not deleted and
        // the new ones not inserted: a modification's old index is found
        // by its rank among them.
        let deleted = Set(deletions)
        let inserted = Set(insertions)
        let keptOld = oldPaths.indices.filter { !deleted.contains($0) }
        var rankInNew: [Int: Int] = [:]
        for (rank, index) in newPaths.indices.filter({ !inserted.contains($0) }).enumerated() { rankInNew[index] = rank }

        var deletionsBySection: [Int: Set<Int>] = [:]
        var insertionsBySection: [Int: Set<Int>] = [:]
        for index in insertions where index < newPaths.count {
            insertionsBySection[newPaths[index].section, default: []].insert(newPaths[index].item)
        }
        for index in deletions where index < oldPaths.count && !sectionsToDelete.contains(oldPaths[index].section) {
            deletionsBySection[oldPaths[index].section, default: []].insert(oldPaths[index].item)
        }
        var oldModified: [Int: Set<Int>] = [:]
        var newModified: [Int: Set<Int>] = [:]
        for index in modifications where index < newPaths.count {
            newModified[newPaths[index].section, default: []].insert(newPaths[index].item)
            if let rank = rankInNew[index], rank < keptOld.count {
                let path = oldPaths[keptOld[rank]]
                oldModified[path.section, default: []].insert(path.item)
            }
        }
        var modificationsBySection: [Int: Set<Int>] = [:]
        for (oldSection, rows) in oldModified {
            // A section emptied of its rows is deleted whole.
            guard let newSection = new.sectionIndex[old.sections[oldSection].key] else { continue }
            let stillPresent = rows.intersection(newModified[newSection] ?? [])
            newModified[newSection]?.subtract(stillPresent)
            deletionsBySection[oldSection, default: []].formUnion(rows.subtracting(stillPresent))
            if !stillPresent.isEmpty { modificationsBySection[oldSection] = stillPresent }
        }
        for (newSection, rows) in newModified {
            insertionsBySection[newSection, default: []].formUnion(rows)
        }
        self.deletions = Self.paths(deletionsBySection)
        self.insertions = Self.paths(insertionsBySection)
        self.modifications = Self.paths(modificationsBySection)
    }

    /// Only what concerns one section, at `old` in the previous sections
    /// and `new` in the current ones (nil where it is not).
    func limited(to old: Int?, new: Int?) -> SectionDiff {
        var limited = self
        limited.sectionsToInsert = IndexSet(sectionsToInsert.filter { $0 == new })
        limited.sectionsToDelete = IndexSet(sectionsToDelete.filter { $0 == old })
        limited.insertions = insertions.filter { $0.section == new }
        limited.deletions = new == nil ? [] : deletions.filter { $0.section == old }
        limited.modifications = modifications.filter { $0.section == old }
        return limited
    }

    /// Index paths in order, from rows grouped by section.
    private static func paths(_ rows: [Int: Set<Int>]) -> [IndexPath] {
        rows.keys.sorted().flatMap { section in
            rows[section]!.sorted().map { IndexPath(item: $0, section: section) }
        }
    }
}
