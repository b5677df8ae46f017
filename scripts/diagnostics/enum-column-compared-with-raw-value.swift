// expected error: is unavailable: a typed column compares only with a value of its own Swift type
import Persistance

struct TaskItem {}
enum Priority: Int { case low, high }
let priority = TypedColumn<TaskItem, Priority>("priority") { .integer(Int64($0.rawValue)) }
let urgent = priority > 1
