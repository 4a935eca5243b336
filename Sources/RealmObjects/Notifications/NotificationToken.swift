/// Keeps a notification registration alive: invalidate it (or let it go)
/// to stop delivery.
public final class NotificationToken {
    private var onInvalidate: (() -> Void)?

    init(_ onInvalidate: @escaping () -> Void) {
        self.onInvalidate = onInvalidate
    }

    /// Stops delivery. Safe to call more than once, and from inside the
    /// token's own handler.
    public func invalidate() {
        let action = onInvalidate
        onInvalidate = nil
        action?()
    }

    deinit {
        invalidate()
    }
}
