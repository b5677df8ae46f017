/// A part of a statement that writes itself into an `SQLRenderer`: an expression, an
/// ordering term, a result column, an assignment.
protocol SQLRenderable {
    func render(into renderer: inout SQLRenderer) throws
}
