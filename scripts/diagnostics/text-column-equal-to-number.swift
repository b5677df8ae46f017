// expected error: is unavailable: a typed column compares only with a value of its own Swift type
import Persistance

struct Player {}
let name = TypedColumn<Player, String>("name")
let ann = name == 5
