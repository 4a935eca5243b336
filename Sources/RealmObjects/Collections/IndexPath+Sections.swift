import Foundation

#if !canImport(UIKit) && !canImport(AppKit)
/// The section and row spelling of index paths that sectioned results and
/// their changes use. Apple's UI frameworks add it to Foundation; Linux's
/// Foundation has no such framework, so it is here.
extension IndexPath {
    /// An index path of row `item` in section `section`.
    public init(item: Int, section: Int) {
        self.init(indexes: [section, item])
    }

    /// The section: the first index.
    public var section: Int {
        get { self[0] }
        set { self[0] = newValue }
    }

    /// The row in the section: the second index.
    public var item: Int {
        get { self[1] }
        set { self[1] = newValue }
    }
}
#endif
