import Persistance

// The Persistance contenders need the records/tables layer, the query builder and the
// executor; they are added here as those land on main.

func persistanceContenders() -> [any Contender] {
    []
}
