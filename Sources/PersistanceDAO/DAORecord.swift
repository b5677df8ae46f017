import Persistance

/// What a custom type declares to be passed to DAO methods and returned by them, in one
/// conformance: a `Codable` record (`result="MessageModel"`, `<map result=…>`, `#{model.content}`).
///
/// ```swift
/// struct MessageModel: DAORecord {
///     var msgId: Int64
///     var content: String?
/// }
/// dao.register(MessageModel.self)
/// ```
public typealias DAORecord = Record & Codable & Sendable & DAOValueConvertible
