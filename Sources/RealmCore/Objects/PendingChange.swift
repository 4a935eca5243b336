/// One change record, as made by an object-store operation.
enum PendingChange {
    case inserted(ObjectKey, classIndex: Int)
    case modified(ObjectKey, property: Int, classIndex: Int)
    case deleted(ObjectKey, classIndex: Int)
    case deletedAll(classIndex: Int)
    /// An operation on a list that had `countBefore` elements just before it.
    case list(classIndex: Int, property: Int, owner: ObjectKey, countBefore: Int, ListOperation)

    enum ListOperation {
        case insert(Int)
        case remove(Int)
        case modify(Int)
        case move(from: Int, to: Int)
        case removeAll
    }
}

extension Transaction {
    /// Records a change: at once, or when the enclosing atomic operation
    /// succeeds.
    func record(_ change: PendingChange) {
        changeCounterDidChange()
        switch change {
        case .inserted, .modified: break
        default: listEpoch &+= 1
        }
        if pendingChanges != nil {
            pendingChanges!.append(change)
        } else {
            apply(change)
        }
    }

    func apply(_ change: PendingChange) {
        switch change {
        case .inserted(let key, let classIndex):
            recorder.inserted(key, classIndex: classIndex)
        case .modified(let key, let property, let classIndex):
            recorder.modified(key, property: property, classIndex: classIndex)
        case .deleted(let key, let classIndex):
            recorder.deleted(key, classIndex: classIndex)
        case .deletedAll(let classIndex):
            recorder.deletedAll(classIndex: classIndex)
        case .list(let classIndex, let property, let owner, let countBefore, let operation):
            recorder.withList(classIndex: classIndex, property: property, owner: owner, countBefore: countBefore) { builder in
                switch operation {
                case .insert(let index): builder.insert(at: index)
                case .remove(let index): builder.remove(at: index)
                case .modify(let index): builder.modify(at: index)
                case .move(let from, let to): builder.move(from: from, to: to)
                case .removeAll: builder.removeAll()
                }
            }
        }
    }
}
