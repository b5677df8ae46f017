/// Persistance's macros. Importing this module imports the core library too.
@_exported import Persistance
