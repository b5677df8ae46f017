// expected error: @Table applies to a struct: a record is a value, stored as one row
import Persistance
import PersistanceMacros

@Table("status")
enum Status {
    case active, retired
}
