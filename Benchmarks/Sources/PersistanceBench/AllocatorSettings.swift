#if canImport(Glibc)
import CBenchMalloc

/// Fixes glibc's allocator thresholds for the whole run, so that no contender's time depends
/// on whether its result arrays come from fresh memory or from memory it freed before.
///
/// By default glibc serves a large block (a fetched array of 100,000 records, megabytes) from
/// a fresh `mmap` until a freed one has raised its threshold, and trims the heap's top after
/// a free; fresh pages cost a page fault each on first touch, which callgrind does not count.
/// Which contender got fresh pages then varied from one process to the next: raw C's
/// fetch-all ran at 4.1 M rows/s in some processes and 6.5 M in others, the `@Table`
/// record's at 3.2 M or 6.6 M, while each process's own iterations agreed. With large blocks
/// taken from the heap and the heap never trimmed, every contender reuses its memory from
/// one iteration to the next, as a long-running server does.
func fixAllocatorThresholds() {
    _ = mallopt(M_MMAP_THRESHOLD, 1 << 30)
    _ = mallopt(M_TRIM_THRESHOLD, Int32.max)
}
#else
/// Other systems' allocators are left as they are.
func fixAllocatorThresholds() {}
#endif
