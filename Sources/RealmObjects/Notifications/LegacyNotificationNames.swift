/// The block a Realm notification calls: what ``Realm/observe(_:)`` takes.
public typealias NotificationBlock = (_ notification: Realm.Notification, _ realm: Realm) -> Void

/// The names Realm Swift 2 gave Realm notifications, which seeds 002 and
/// 003 use; `observe(_:)` and `NotificationToken.invalidate()` are the
/// names since Realm Swift 3, and these only forward to them.
extension Realm {
    /// Calls `block` after every commit this Realm sees; the same as
    /// ``observe(_:)``.
    ///
    /// - Returns: a token to hold for as long as notifications should
    ///   arrive.
    public func addNotificationBlock(_ block: @escaping NotificationBlock) -> NotificationToken {
        observe(block)
    }

    /// Stops the notifications of `token`; the same as
    /// `token.invalidate()`.
    public func removeNotificationBlock(_ token: NotificationToken) {
        token.invalidate()
    }
}

extension NotificationToken {
    /// Stops delivery; the same as ``invalidate()``.
    public func stop() {
        invalidate()
    }
}
