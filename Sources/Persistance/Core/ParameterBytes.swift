/// Memory that holds the text and blob values bound to one statement's parameters until
/// the statement runs, so that SQLite can use the bytes in place (`SQLITE_STATIC`) instead
/// of allocating and copying them on every bind (`SQLITE_TRANSIENT`).
///
/// Each parameter has its own region, reused from row to row and grown when a value does
/// not fit, so binding one parameter never moves the bytes another one points to. The
/// owner must rebind or clear a statement's parameters before it frees this memory: see
/// `Statement.clearBindings()`.
@usableFromInline
final class ParameterBytes {
    @exclusivity(unchecked) @usableFromInline var regions: [UnsafeMutableRawBufferPointer]

    /// Regions for parameters `1...count`, allocated on first use.
    init(count: Int) {
        regions = Array(repeating: UnsafeMutableRawBufferPointer(start: nil, count: 0), count: count)
    }

    deinit {
        for region in regions { region.deallocate() }
    }

    /// Copies `bytes` into the region of parameter `index` (1-based) and returns where they
    /// are; they stay there until the next copy for the same parameter.
    @inlinable
    func copy(_ bytes: UnsafeRawBufferPointer, parameter index: Int) -> UnsafeRawPointer {
        let slot = index - 1
        if regions[slot].count < bytes.count { grow(slot, to: bytes.count) }
        let region = regions[slot]
        region.baseAddress.unsafelyUnwrapped.copyMemory(from: bytes.baseAddress.unsafelyUnwrapped, byteCount: bytes.count)
        return UnsafeRawPointer(region.baseAddress.unsafelyUnwrapped)
    }

    @usableFromInline
    func grow(_ slot: Int, to count: Int) {
        regions[slot].deallocate()
        regions[slot] = .allocate(byteCount: max(count, 2 * regions[slot].count, 32), alignment: 8)
    }
}
