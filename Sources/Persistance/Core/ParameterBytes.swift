/// Memory that holds the text and blob values bound to one statement's parameters until
/// the statement runs, so that SQLite can use the bytes in place (`SQLITE_STATIC`) instead
/// of allocating and copying them on every bind (`SQLITE_TRANSIENT`).
///
/// Each parameter has its own region, reused from row to row and grown when a value does
/// not fit, so binding one parameter never moves the bytes another one points to. A plain
/// pointer, so that binding retains nothing: its owner calls `deallocate()`, after
/// clearing the parameters of the statement that points into it.
@usableFromInline
struct ParameterBytes {
    @usableFromInline let regions: UnsafeMutableBufferPointer<UnsafeMutableRawBufferPointer>

    /// Regions for parameters `1...count`, allocated on first use.
    init(count: Int) {
        regions = .allocate(capacity: count)
        regions.initialize(repeating: UnsafeMutableRawBufferPointer(start: nil, count: 0))
    }

    /// Frees every region.
    func deallocate() {
        for region in regions { region.deallocate() }
        regions.deallocate()
    }

    /// Copies the non-empty `bytes` into the region of parameter `index` (1-based) and
    /// returns where they are; they stay there until the next copy for the same parameter.
    @inlinable
    func copy(_ bytes: UnsafeRawBufferPointer, parameter index: Int) -> UnsafeRawPointer {
        let slot = index - 1
        if regions[slot].count < bytes.count { grow(slot, to: bytes.count) }
        let start = regions[slot].baseAddress.unsafelyUnwrapped
        start.copyMemory(from: bytes.baseAddress.unsafelyUnwrapped, byteCount: bytes.count)
        return UnsafeRawPointer(start)
    }

    @usableFromInline
    func grow(_ slot: Int, to count: Int) {
        let size = max(count, 2 * regions[slot].count, 32)
        regions[slot].deallocate()
        regions[slot] = .allocate(byteCount: size, alignment: 8)
    }
}
