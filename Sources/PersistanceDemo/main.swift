import Persistance
print(SQLiteEngine.version)
