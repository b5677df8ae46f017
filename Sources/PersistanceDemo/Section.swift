/// Prints a demo section heading.
func section(_ title: String) {
    print("\n== \(title)")
}
