/// Stops the fuzzer with a crash the fuzzer records, when a property of the library fails.
public func fuzzCheck(_ condition: @autoclosure () throws -> Bool, _ message: @autoclosure () -> String) {
    let holds: Bool
    do {
        holds = try condition()
    } catch {
        fatalError("\(message()) — threw \(error)")
    }
    if !holds { fatalError(message()) }
}
