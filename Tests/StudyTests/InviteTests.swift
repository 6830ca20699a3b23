import Foundation
import Study
import Testing

@Suite struct InviteTests {
    static let certificate = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n"
    static let invite = Invite(
        study: "Sleep and stress", connection: Invite.connection(host: "db.example.org", port: "5432", database: "my 'study'", user: "p_0a1b"),
        password: "secret", certificate: certificate)

    @Test func anInviteReadsBackAsWritten() throws {
        #expect(try Invite(text: Self.invite.text, path: "a.invite") == Self.invite)
        #expect(Self.invite.text.hasPrefix("hrvmon-study-invite 1\nstudy: Sleep and stress\n"))
        // libpq's conninfo quoting: a quote inside a value is escaped.
        #expect(Self.invite.connection == #"host='db.example.org' port='5432' dbname='my \'study\'' user='p_0a1b'"#)
    }

    @Test func aTruncatedInviteSaysSo() {
        let text = Self.invite.text
        for cut in [text.count / 3, text.count - 10] {
            #expect {
                try Invite(text: String(text.prefix(cut)), path: "cut.invite")
            } throws: { error in
                "\(error)".hasPrefix("cut.invite: truncated or damaged")
            }
        }
    }

    /// `invite --expires`: the date in the invite, Unix seconds and UTC, read back as written.
    @Test func anExpiryReadsBackAndSaysWhenItPassed() throws {
        var expiring = Self.invite
        expiring.expires = 1_811_548_800
        #expect(expiring.text.contains("\npassword: secret\nexpires: 1811548800 2027-05-29T00:00:00Z\nca:\n"))
        let read = try Invite(text: expiring.text, path: "a.invite")
        #expect(read == expiring && !read.hasExpired(at: 1_811_548_799) && read.hasExpired(at: 1_811_548_800))
        #expect(!Self.invite.hasExpired(at: .infinity))
        #expect(Invite.utc(0) == "1970-01-01T00:00:00Z" && Invite.utc(951_868_799.5) == "2000-02-29T23:59:59Z" && Invite.utc(-1) == "1969-12-31T23:59:59Z")
        #expect {
            try Invite(text: expiring.text.replacingOccurrences(of: "expires: 1811548800", with: "expires: soon"), path: "b.invite")
        } throws: { error in
            "\(error)".hasPrefix("b.invite: damaged: its 'expires:' line is not a time")
        }
    }

    @Test func anotherFileIsNotAnInvite() {
        #expect {
            try Invite(text: "postgresql://someone@host/db\n", path: "x")
        } throws: { error in
            "\(error)".contains("not a hrvmon study invite")
        }
    }
}

@Suite struct SHA256Tests {
    /// FIPS 180-4's examples, and a message of exactly one block's padding boundary (55, 56, 64 bytes).
    @Test func knownDigests() {
        #expect(SHA256.hex([]) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            SHA256.hex(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(SHA256.hex([UInt8](repeating: 0x61, count: 1_000_000)) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }
}
