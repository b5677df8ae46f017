import Foundation

/// The CPU time this process has used (user and system, every thread): what a contender costs
/// the client, apart from the time it waits for the server.
enum ProcessClock {
    static func cpuTime() -> Duration {
        #if os(Linux)
        let process = __rusage_who_t(RUSAGE_SELF.rawValue)
        #else
        let process = RUSAGE_SELF
        #endif
        var usage = rusage()
        getrusage(process, &usage)
        func duration(_ time: timeval) -> Duration {
            .seconds(Int64(time.tv_sec)) + .microseconds(Int64(time.tv_usec))
        }
        return duration(usage.ru_utime) + duration(usage.ru_stime)
    }
}
