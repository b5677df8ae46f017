import Foundation
import PersistanceDAO
import Testing

@Suite("DAO: modules that do not load name the file, line and column")
struct DAOModuleErrorTests {
    func loadError(_ xml: String) -> DAOError? {
        daoError { _ = try DAOModule(xml: xml, file: "bad.xml") }
    }

    @Test("malformed XML")
    func malformed() {
        let error = loadError("<module name=\"m\">\n  <select id=\"a\">select 1</selec>\n</module>")
        #expect(error?.kind == .malformedXML)
        #expect(error?.location?.file == "bad.xml")
        // Where the XML parser stopped: the bad end tag's line, or the next one.
        #expect((2...3).contains(error?.location?.line ?? 0))
        #expect(loadError("")?.kind == .malformedXML)
    }

    @Test("unknown elements and attributes, wrong root, text in module")
    func unknownNames() {
        let element = loadError("<module name=\"m\">\n<selekt id=\"a\">select 1</selekt>\n</module>")
        #expect(element?.kind == .invalidModule)
        #expect(element?.location?.line == 2)
        #expect(loadError("<module name=\"m\" color=\"red\"/>")?.kind == .invalidModule)
        #expect(loadError("<module name=\"m\"><select id=\"a\"><iff true=\"1\">x</iff></select></module>")?.kind == .invalidModule)
        #expect(loadError("<mod name=\"m\"/>")?.kind == .invalidModule)
        #expect(loadError("<module name=\"m\">select 1</module>")?.kind == .invalidModule)
        #expect(loadError("<module><select id=\"a\" result=\"[int\">select 1</select></module>")?.kind == .invalidModule)
        #expect(loadError("<module><update id=\"a\"><step>x</step>y</update></module>")?.kind == .invalidModule)
        #expect(loadError("<module><update id=\"a\"><step><step>x</step></step></update></module>")?.kind == .invalidModule)
        #expect(loadError("<module><if true=\"a\">x</if></module>")?.kind == .invalidModule)
        #expect(loadError("<module><select id=\"a\">x</select><select id=\"a\">y</select></module>")?.kind == .invalidModule)
        #expect(loadError("<module version=\"one\"/>")?.kind == .invalidModule)
    }

    @Test("undefined constants, fragments, maps, initializer and foreach collection")
    func undefinedReferences() {
        let fragment = loadError("<module>\n<select id=\"a\">\nselect ${nothing}</select></module>")
        #expect(fragment?.kind == .undefinedReference)
        #expect(fragment?.location?.line == 3)
        #expect(fragment?.location?.column == 8)
        #expect(loadError("<module><select id=\"a\" result=\":nomap\">select 1</select></module>")?.kind == .undefinedReference)
        #expect(loadError("<module initializer=\"create\"/>")?.kind == .undefinedReference)
        #expect(loadError("<module><insert id=\"a\" arguments=\"x\" foreach=\"y.z\">select 1</insert></module>")?.kind == .undefinedReference)
        #expect(loadError("<module><insert id=\"a\" arguments=\"x, z\" foreach=\"x.z\">select 1</insert></module>")?.kind == .invalidModule)
        #expect(loadError("<module><sql id=\"T\">x</sql></module>")?.kind == .invalidModule)
    }

    @Test("fragment cycles, direct and through dynamic elements")
    func cycles() {
        let direct = loadError("<module><sql id=\"a\">${b}</sql><sql id=\"b\">${a}</sql></module>")
        #expect(direct?.kind == .fragmentCycle)
        let nested = loadError("<module><sql id=\"a\"><if true=\"x\">${a}</if></sql><select id=\"s\">${a}</select></module>")
        #expect(nested?.kind == .fragmentCycle)
        #expect(daoError {
            _ = try DAOModule(xml: "<module><sql id=\"a\">1</sql><sql id=\"b\">${a}, ${a}</sql><select id=\"s\">${b}</select></module>")
        } == nil)
    }

    @Test("expression syntax errors name the column inside the expression")
    func expressionSyntax() {
        let error = loadError("<module>\n<select id=\"a\" arguments=\"x\"><if true=\"x &gt; (1 +\">y</if></select></module>")
        #expect(error?.kind == .expressionSyntax)
        #expect(error?.message.contains("column 9") == true)
        #expect(error?.location?.line == 2)
        #expect(loadError("<module><select id=\"a\"><if true=\"'open\">y</if></select></module>")?.message.contains("unterminated") == true)
        #expect(loadError("<module><select id=\"a\"><if true=\"a ? b\">y</if></select></module>")?.kind == .expressionSyntax)
        #expect(loadError("<module><select id=\"a\"><if true=\"a b\">y</if></select></module>")?.kind == .expressionSyntax)
        #expect(loadError("<module><select id=\"a\"><if true=\"a\" false=\"b\">y</if></select></module>")?.kind == .invalidModule)
        #expect(loadError("<module><select id=\"a\">#{a.}</select></module>")?.kind == .invalidModule)
        #expect(loadError("<module><select id=\"a\">#{a</select></module>")?.kind == .invalidModule)
    }
}
