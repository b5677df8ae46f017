/// A part of a statement that writes itself into an `SQLWriter`: an expression, an
/// ordering term, a result column, an assignment.
protocol SQLRenderable {
    func render<Writer: SQLWriter>(into writer: inout Writer) throws
}
