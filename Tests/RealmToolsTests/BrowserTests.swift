import Foundation
import RealmCore
import RealmObjects
import RealmSyncEngine
import Testing

/// `realm browse` in headless Chromium: the pages as a user sees and uses
/// them, a change from another process, and the attacks the server must
/// refuse. Screenshots go to $REALM_BROWSER_SCREENSHOTS when it is set
/// (Docs/images/ holds two of them).
@Suite("realm browse", .serialized)
struct BrowserTests {
    /// A sample Realm with 120 notes, so that notes take three pages.
    private func makeBrowsableRealm(_ url: URL) throws {
        try makeSampleRealm(url)
        try autoreleasepool {
            let realm = try Realm(configuration: configuration(url))
            try realm.write {
                for index in 1..<120 { realm.create(ToolNote.self, value: ["text": "note \(index)"]) }
            }
        }
    }

    private func screenshot(_ chromium: HeadlessChromium, _ name: String) async throws {
        guard let directory = ProcessInfo.processInfo.environment["REALM_BROWSER_SCREENSHOTS"] else { return }
        try await chromium.screenshot(to: URL(fileURLWithPath: directory).appendingPathComponent(name))
    }

    private func withBrowser(_ arguments: [String], _ body: (BrowseProcess, HeadlessChromium) async throws -> Void) async throws {
        let browse = try await BrowseProcess.start(arguments)
        defer { browse.stop() }
        // Generous deadlines: with the whole suite running on two cores, a
        // browser has taken more than 20 s to come up. They bound a wedged
        // browser; they measure nothing.
        let chromium = try await HeadlessChromium.launch(launchTimeout: 180, commandTimeout: 90)
        do {
            try await body(browse, chromium)
        } catch {
            await chromium.close()
            throw error
        }
        await chromium.close()
    }

    @Test("classes, a filtered and paged class, links, lists, editing, and a change from another process")
    func browse() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.appendingPathComponent("sample.realm")
            try makeBrowsableRealm(file)
            try await withBrowser([file.path]) { browse, chromium in
                // The classes and their counts.
                try await chromium.navigate(to: browse.url)
                let classes = try #require(try await chromium.evaluate("document.querySelector('table.classes').innerText") as? String)
                #expect(classes.contains("ToolPet\t3"))
                #expect(classes.contains("ToolNote\t120"))
                #expect(classes.contains("ToolAddress\t1\tembedded"))

                // A class, filtered with the predicate language.
                try await chromium.evaluate("document.querySelector('a[href*=\"/class/ToolPet\"]').click()")
                try await chromium.waitUntil("document.querySelector('#matches')?.textContent === '3 objects'")
                try await chromium.evaluate("""
                    document.getElementById('filter').value = "score > 1 AND name CONTAINS[c] 'script'";
                    document.querySelector('form.filter').submit()
                    """)
                try await chromium.waitUntil("document.querySelector('#matches')?.textContent === '1 object'")
                // The string holding <script> shows as text and runs nothing.
                let cell = try await chromium.evaluate("document.querySelector('table.objects tbody tr').innerText") as? String
                #expect(cell?.contains("<script>alert(1)</script>") == true)
                #expect(try await chromium.evaluate("document.querySelectorAll('main script').length") as? Int == 0)
                // A predicate that does not parse is shown, pointing at the token.
                try await chromium.evaluate("""
                    document.getElementById('filter').value = "score >> 1";
                    document.querySelector('form.filter').submit()
                    """)
                try await chromium.waitUntil("document.querySelector('#error') !== null")
                let error = try await chromium.evaluate("document.querySelector('#error').textContent") as? String
                #expect(error?.contains("invalid predicate \"score >> 1\" at column") == true, "\(error ?? "")")

                // Sorting by a column, and paging.
                try await chromium.navigate(to: browse.origin + "/class/ToolNote?token=\(browse.token)")
                try await chromium.waitUntil("document.querySelector('.pages')?.textContent.includes('page 1 of 3')")
                try await chromium.evaluate("document.querySelector('#next').click()")
                try await chromium.waitUntil("document.querySelector('.pages')?.textContent.includes('page 2 of 3')")
                #expect(try await chromium.evaluate("document.querySelectorAll('table.objects tbody tr').length") as? Int == 50)
                try await chromium.evaluate("[...document.querySelectorAll('a.sort')].find(a => a.textContent.startsWith('text')).click()")
                // The new page's address is current as soon as it starts
                // loading: wait for its table too.
                try await chromium.waitUntil("location.search.includes('sort=text') && document.querySelector('table.objects tbody tr td:nth-child(2)') !== null")
                let firstText = try await chromium.evaluate("document.querySelector('table.objects tbody tr td:nth-child(2)').textContent") as? String
                #expect(firstText == "no primary key")

                // An owner: follow a link, expand a list and backlinks.
                try await chromium.navigate(to: browse.origin + "/class/ToolOwner?token=\(browse.token)")
                try await chromium.evaluate("document.querySelector('table.objects details').open = true")
                try await chromium.waitUntil("document.querySelectorAll('table.objects .items li').length === 2")
                try await screenshot(chromium, "browser-class.png")
                try await chromium.evaluate("document.querySelector('a.open').click()")
                try await chromium.waitUntil("location.pathname.startsWith('/object/ToolOwner/') && document.querySelector('tr[data-property=pets] details') !== null")
                try await chromium.evaluate("document.querySelector('tr[data-property=pets] details').open = true")
                try await chromium.waitUntil("document.querySelectorAll('tr[data-property=pets] .items li').length === 2")
                try await chromium.evaluate("document.querySelector('tr[data-property=friend] a.link').click()")
                try await chromium.waitUntil("document.querySelector('h1')?.textContent.includes('ToolOwner #') && document.body.innerText.includes('Bob') && document.querySelector('tr[data-property=pets] details') !== null")
                try await chromium.evaluate("document.querySelector('tr[data-property=pets] details').open = true")
                try await chromium.waitUntil("document.querySelectorAll('tr[data-property=pets] .items a.link').length === 1")
                try await chromium.evaluate("document.querySelector('tr[data-property=pets] .items a.link').click()")
                try await chromium.waitUntil("location.pathname.startsWith('/object/ToolPet/') && document.querySelector('tr[data-property=owners] details') !== null")
                try await chromium.evaluate("document.querySelector('tr[data-property=owners] details').open = true")
                try await chromium.waitUntil("document.querySelectorAll('tr[data-property=owners] .items li').length === 1")

                // Edit a value: it is in the file.
                try await chromium.evaluate("""
                    const form = document.querySelector('tr[data-property=name] form');
                    form.querySelector('[name=value]').value = '<img src=x onerror="window.__xss = 1">';
                    form.submit()
                    """)
                try await chromium.waitUntil("document.querySelector('tr[data-property=name] td.value')?.textContent.startsWith('<img')")
                #expect(try await chromium.evaluate("window.__xss === undefined") as? Bool == true)
                let stored = try await realm(["query", file.path, "ToolPet", "name BEGINSWITH '<img'", "--format", "csv"])
                #expect(stored.stdout.split(separator: "\n").count == 2, "\(stored.stdout)")
                try await screenshot(chromium, "browser-object.png")

                // A value the property cannot take: the error is shown, nothing written.
                try await chromium.evaluate("""
                    const form = document.querySelector('tr[data-property=score] form');
                    form.querySelector('[name=value]').value = 'lots';
                    form.submit()
                    """)
                try await chromium.waitUntil("document.querySelector('#error') !== null")
                let refusal = try await chromium.evaluate("document.querySelector('#error').textContent") as? String
                #expect(refusal?.contains("property 'ToolPet.score': expected a number, found \"lots\"") == true, "\(refusal ?? "")")

                // Another process writes: the page follows without a reload.
                try await chromium.navigate(to: browse.origin + "/class/ToolPet?token=\(browse.token)")
                try await chromium.waitUntil("document.querySelector('#matches')?.textContent === '3 objects'")
                try await chromium.evaluate("window.__marker = 42")
                let input = directory.appendingPathComponent("newcomer.json")
                try Data("[{\"id\": 7, \"name\": \"Newcomer\"}]".utf8).write(to: input)
                let imported = try await realm(["import", file.path, "ToolPet", input.path, "--quiet"])
                #expect(imported.status == 0, "\(imported.stderr)")
                try await chromium.waitUntil("document.querySelector('#matches')?.textContent === '4 objects' && document.body.innerText.includes('Newcomer')")
                #expect(try await chromium.evaluate("window.__marker") as? Int == 42, "the page was not reloaded")

                // Add and delete objects.
                try await chromium.evaluate("""
                    document.querySelector('form.create [name=primaryKey]').value = '99';
                    document.querySelector('form.create').submit()
                    """)
                // The whole page, not its first part: the pathname and the
                // key show while the rest is still being parsed.
                try await chromium.waitUntil("location.pathname.startsWith('/object/ToolPet/') && document.readyState === 'complete' "
                                             + "&& document.body.innerText.includes('99') && document.querySelector('form.delete') !== null")
                try await chromium.evaluate("document.querySelector('form.delete').submit()")
                try await chromium.waitUntil("location.pathname === '/class/ToolPet' && document.querySelector('#matches')?.textContent === '4 objects'")
            }
        }
    }

    @Test("requests without the token, writes without the form's token or from another origin, are refused")
    func security() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.appendingPathComponent("sample.realm")
            try makeSampleRealm(file)
            let browse = try await BrowseProcess.start([file.path])
            defer { browse.stop() }
            #expect(browse.url.hasPrefix("http://127.0.0.1:"))
            let (status, _) = try await browse.request("/")
            #expect(status == 403)
            let (wrong, _) = try await browse.request("/class/ToolPet?token=0123")
            #expect(wrong == 403)
            let (fine, page) = try await browse.request("/object/ToolPet/1?token=\(browse.token)")
            #expect(fine == 200)
            // No form token: refused, and nothing changes.
            let (forged, _) = try await browse.request("/object/ToolPet/1/set?token=\(browse.token)", method: "POST",
                                                       body: "property=name&value=pwned",
                                                       headers: ["Content-Type": "application/x-www-form-urlencoded"])
            #expect(forged == 403)
            // The right form token from another site's page: refused.
            let csrf = try #require(page.range(of: "name=\"csrf\" value=\"").map { String(page[$0.upperBound...].prefix(48)) })
            let (crossSite, _) = try await browse.request("/object/ToolPet/1/set?token=\(browse.token)", method: "POST",
                                                          body: "csrf=\(csrf)&property=name&value=pwned",
                                                          headers: ["Content-Type": "application/x-www-form-urlencoded",
                                                                    "Origin": "http://evil.example"])
            #expect(crossSite == 403)
            let names = try await realm(["query", file.path, "ToolPet", "name == 'pwned'", "--format", "csv"])
            #expect(names.stdout.split(separator: "\n").count == 1, "only the header")
            // Names outside ASCII, percent-encoded in the URL.
            let accented = directory.appendingPathComponent("accented.realm")
            do {
                let schema = Schema([ObjectSchema(name: "Café", properties: [Property(name: "crème", type: .string)])])
                let coordinator = try Coordinator.open(.file(accented.path, schema: schema))
                let transaction = try coordinator.makeTransaction()
                let cafe = try transaction.classHandle(named: "Café")
                try transaction.write { try transaction.createObject(in: cafe, values: [.string("brûlée")]) }
            }
            let accentedBrowse = try await BrowseProcess.start([accented.path])
            defer { accentedBrowse.stop() }
            let (cafeStatus, cafePage) = try await accentedBrowse.request("/class/Caf%C3%A9?token=\(accentedBrowse.token)")
            #expect(cafeStatus == 200)
            #expect(cafePage.contains("brûlée"))
            let (objectStatus, objectPage) = try await accentedBrowse.request("/object/Caf%C3%A9/1?token=\(accentedBrowse.token)")
            #expect(objectStatus == 200)
            #expect(objectPage.contains("crème"))
            // Paths do not reach the file system.
            let (traversal, _) = try await browse.request("/class/..%2F..%2Fetc%2Fpasswd?token=\(browse.token)")
            #expect(traversal == 404)
        }
    }

    @Test("read-only mode and a synced Realm show no forms; a file that is not a Realm gets a page that says so")
    func readOnlyAndNotARealm() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.appendingPathComponent("sample.realm")
            try makeSampleRealm(file)
            try await withBrowser([file.path, "--read-only"]) { browse, chromium in
                try await chromium.navigate(to: browse.origin + "/object/ToolPet/1?token=\(browse.token)")
                try await chromium.waitUntil("document.querySelector('h1') !== null")
                #expect(try await chromium.evaluate("document.querySelectorAll('form.edit, form.delete').length") as? Int == 0)
                #expect(try await chromium.evaluate("document.querySelector('.badge').textContent") as? String == "read-only")
            }
            let synced = directory.appendingPathComponent("synced.realm")
            try makeSampleRealm(synced)
            do {
                let coordinator = try Coordinator.open(.file(synced.path))
                try ChangesetRecorder.install(on: coordinator)
            }
            try await withBrowser([synced.path]) { browse, chromium in
                try await chromium.navigate(to: browse.origin + "/object/ToolPet/1?token=\(browse.token)")
                try await chromium.waitUntil("document.querySelector('h1') !== null")
                #expect(try await chromium.evaluate("document.querySelectorAll('form').length") as? Int == 0)
                #expect(try await chromium.evaluate("document.querySelector('.badge').textContent") as? String == "synced: read-only")
            }
            let text = directory.appendingPathComponent("notes.txt")
            try Data("not a database".utf8).write(to: text)
            try await withBrowser([text.path]) { browse, chromium in
                try await chromium.navigate(to: browse.url)
                let body = try await chromium.evaluate("document.body.innerText") as? String
                #expect(body?.contains("This file cannot be browsed") == true, "\(body ?? "")")
                #expect(body?.contains("not a Realm file") == true)
            }
            #expect(try String(contentsOf: text, encoding: .utf8) == "not a database")
        }
    }
}
