// expected error: is unavailable: the values of a typed column's `in` have the column's Swift type
import Persistance

struct TaskItem {}
enum Priority: Int { case low, high }
let priority = TypedColumn<TaskItem, Priority>("priority") { .integer(Int64($0.rawValue)) }
let some = priority.in([0, 1])
