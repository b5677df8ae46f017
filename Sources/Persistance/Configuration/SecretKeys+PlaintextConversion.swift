import Foundation

extension SecretKeys {
    /// Encrypts the plaintext database at `path` with the newest key, in place.
    ///
    /// The database is exported (`sqlcipher_export`) to a uniquely named temporary file in
    /// the same directory, which then atomically replaces the original (`rename`). Until the
    /// rename the original is untouched; if anything fails the temporary file is removed.
    /// The original must not be open elsewhere: its connection is closed (checkpointing and
    /// removing its WAL) before the rename, and a WAL file left behind by another connection
    /// stops the conversion.
    func encryptInPlace(path: String) throws {
        let original = URL(fileURLWithPath: path)
        let temporary = original.deletingLastPathComponent()
            .appendingPathComponent(".\(original.lastPathComponent).persistance-\(UUID().uuidString).tmp").path
        do {
            var options = Connection.Options()
            options.mode = .readWrite
            let plaintext = try Connection(path: path, options: options)
            do {
                try plaintext.export(to: temporary, key: newest)
                try plaintext.close()
            } catch {
                try? plaintext.close()
                throw error
            }
            guard !FileManager.default.fileExists(atPath: path + "-wal") else {
                throw DatabaseError.fileSystem("cannot encrypt \(path) in place while another connection has it open")
            }
            try copyPermissions(from: path, to: temporary)
            try interruption?(.beforeReplacingFile)
            guard rename(temporary, path) == 0 else {
                throw DatabaseError.fileSystem(
                    "cannot replace \(path) with its encrypted copy: \(String(cString: strerror(errno)))")
            }
        } catch {
            for leftover in [temporary, temporary + "-journal"] {
                try? FileManager.default.removeItem(atPath: leftover)
            }
            throw error
        }
    }

    /// Gives the encrypted copy the original file's permissions.
    private func copyPermissions(from source: String, to destination: String) throws {
        do {
            let attributes = try FileManager.default.attributesOfItem(atPath: source)
            if let permissions = attributes[.posixPermissions] {
                try FileManager.default.setAttributes([.posixPermissions: permissions], ofItemAtPath: destination)
            }
        } catch {
            throw DatabaseError.fileSystem("cannot copy the permissions of \(source): \(error.localizedDescription)")
        }
    }
}
