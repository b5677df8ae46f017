// expected error: only an integer primary key can autoincrement
import Persistance
import PersistanceMacros

@Table("tag")
struct Tag {
    @Column(primaryKey: .autoincrement) var code: String
    var label: String
}
