/// Every contender of this build, in report order: raw C first (the baseline of every
/// ratio), then each family. A family is one file that declares its contenders and a
/// function `…Contenders(_:)` returning them; adding one is one line here (see
/// Benchmarks/README.md).
func allContenders(_ settings: ContenderSettings) -> [any Contender] {
    var contenders: [any Contender] = rawCContenders(settings)
    #if SystemSQLite
    contenders += grdbContenders(settings)
    #endif
    contenders += persistanceContenders(settings)
    contenders += persistanceDAOContenders(settings)
    return contenders
}
