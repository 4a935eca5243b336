import Foundation
import RealmCore

/// The browser's pages, rendered on the server from the file: the class
/// list, a class's objects (filtered, sorted, paged), one object with its
/// edit forms, and the fragments a list or backlinks expand into.
struct BrowserPages {
    let file: RealmFile
    let token: String
    let csrf: String
    /// The script's nonce, allowed by the page's content security policy.
    let nonce: String

    static let pageSize = 50

    private var reader: ObjectReader { ObjectReader(file: file) }

    /// A URL of the browser, carrying the session token.
    func url(_ path: String, _ parameters: [(String, String)] = []) -> String {
        let query = ([("token", token)] + parameters).map { "\($0)=\(HTML.percentEncode($1))" }.joined(separator: "&")
        return HTML.escape(path + "?" + query)
    }

    private func segment(_ text: String) -> String { HTML.percentEncode(text) }

    // MARK: Layout

    func layout(title: String, _ content: String) -> String {
        """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
        <title>\(HTML.escape(title)) · Realm browser</title>
        <style>\(Self.style)</style></head>
        <body data-token="\(HTML.escape(token))">
        <header><a href="\(url("/"))"><b>Realm browser</b></a> <span class="path" title="\(HTML.escape(file.path))">\(HTML.escape(URL(fileURLWithPath: file.path).lastPathComponent))</span>
        \(file.isSynced ? "<span class=\"badge\">synced: read-only</span>" : file.isReadOnly ? "<span class=\"badge\">read-only</span>" : "")
        <span class="live" id="live" title="The page follows changes to the file">version <span id="version">\(file.version)</span></span></header>
        <main id="content">\(content)</main>
        <script nonce="\(nonce)">\(Self.script)</script>
        </body></html>
        """
    }

    static func errorPage(title: String, message: String) -> String {
        """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><title>\(HTML.escape(title))</title><style>\(style)</style></head>
        <body><header><b>Realm browser</b></header><main><h1>\(HTML.escape(title))</h1>
        <p class="error">\(HTML.escape(message))</p></main></body></html>
        """
    }

    // MARK: Classes

    func classList() throws(ToolError) -> String {
        var rows = ""
        for objectSchema in file.schema.objectSchemas.sorted(by: { $0.name < $1.name }) {
            let stored = try file.storedClass(named: objectSchema.name)
            let count = try file.count(of: stored)
            let name = objectSchema.isEmbedded
                ? HTML.escape(objectSchema.name)
                : "<a href=\"\(url("/class/" + segment(objectSchema.name)))\">\(HTML.escape(objectSchema.name))</a>"
            rows += "<tr><td>\(name)</td><td class=\"number\">\(count)</td><td>\(objectSchema.isEmbedded ? "embedded" : "")</td>"
                + "<td>\(HTML.escape(objectSchema.primaryKeyProperty?.name ?? ""))</td>"
                + "<td>\(objectSchema.properties.count)</td></tr>\n"
        }
        return layout(title: "Classes", """
            <h1>Classes</h1><p>Schema version \(file.schemaVersion).</p>
            <table class="classes"><thead><tr><th>class</th><th>objects</th><th></th><th>primary key</th><th>properties</th></tr></thead>
            <tbody>\(rows)</tbody></table>
            """)
    }

    /// What a class page shows.
    struct ClassRequest {
        var className: String
        var filter: String
        var sort: String?
        var descending: Bool
        var page: Int
    }

    func classPage(_ request: ClassRequest) throws(ToolError) -> String {
        let stored = try file.storedClass(named: request.className)
        var query = ObjectQuery(className: stored.name, predicate: request.filter.isEmpty ? nil : request.filter)
        if let sort = request.sort {
            _ = try stored.propertyIndex(named: sort)
            query.sort = [ObjectQuery.Sort(keyPath: sort, ascending: !request.descending)]
        }
        var parameters: [(String, String)] = []
        if !request.filter.isEmpty { parameters.append(("filter", request.filter)) }
        if let sort = request.sort { parameters.append(("sort", sort)) }
        if request.descending { parameters.append(("desc", "1")) }

        let form = """
            <form class="filter" method="get" action="/class/\(segment(stored.name))">
            <input type="hidden" name="token" value="\(HTML.escape(token))">
            \(request.sort.map { "<input type=\"hidden\" name=\"sort\" value=\"\(HTML.escape($0))\">" } ?? "")
            \(request.descending ? "<input type=\"hidden\" name=\"desc\" value=\"1\">" : "")
            <input name="filter" id="filter" size="60" placeholder="a predicate: age &gt; 2 AND name BEGINSWITH[c] 'r'" value="\(HTML.escape(request.filter))">
            <button type="submit">Filter</button></form>
            """
        let create = file.isReadOnly ? "" : createForm(stored)
        let total: Int
        do {
            total = try query.count(in: file)
        } catch {
            return layout(title: stored.name, "<h1>\(HTML.escape(stored.name))</h1>\(form)<p class=\"error\" id=\"error\">\(HTML.escape(error.message))</p>")
        }
        let pages = max(1, (total + Self.pageSize - 1) / Self.pageSize)
        let page = min(max(1, request.page), pages)
        query.offset = (page - 1) * Self.pageSize
        query.limit = Self.pageSize

        var header = "<th>object</th>"
        for index in stored.objectSchema.properties.indices {
            let property = stored.objectSchema.properties[index]
            guard property.isColumn && !(property.type == .object) else {
                header += "<th>\(HTML.escape(property.name))</th>"
                continue
            }
            let descending = request.sort == property.name && !request.descending
            var sortParameters = parameters.filter { $0.0 == "filter" }
            sortParameters.append(("sort", property.name))
            if descending { sortParameters.append(("desc", "1")) }
            let arrow = request.sort == property.name ? (request.descending ? " ▼" : " ▲") : ""
            header += "<th><a class=\"sort\" href=\"\(url("/class/" + segment(stored.name), sortParameters))\">\(HTML.escape(property.name))\(arrow)</a></th>"
        }
        var rows = ""
        try query.forEachMatch(in: file) { element, stored throws(ToolError) in
            let values = try reader.values(of: element, in: stored)
            rows += "<tr><td><a class=\"open\" href=\"\(url("/object/\(segment(stored.name))/\(element.key.rawValue)"))\">#\(element.key.rawValue)</a></td>"
            for index in stored.objectSchema.properties.indices {
                rows += "<td>\(try cell(key: element.key, values: values, property: index, of: stored))</td>"
            }
            rows += "</tr>\n"
        }
        var navigation = "<p class=\"pages\"><span id=\"matches\">\(total) object\(total == 1 ? "" : "s")</span>"
        if pages > 1 {
            navigation += " · page \(page) of \(pages)"
            if page > 1 { navigation += " <a id=\"previous\" href=\"\(url("/class/" + segment(stored.name), parameters + [("page", String(page - 1))]))\">previous</a>" }
            if page < pages { navigation += " <a id=\"next\" href=\"\(url("/class/" + segment(stored.name), parameters + [("page", String(page + 1))]))\">next</a>" }
        }
        navigation += "</p>"
        return layout(title: stored.name, """
            <h1>\(HTML.escape(stored.name))</h1>\(form)\(navigation)
            <table class="objects"><thead><tr>\(header)</tr></thead><tbody>\(rows)</tbody></table>\(create)
            """)
    }

    private func createForm(_ stored: StoredClass) -> String {
        let keyField = stored.primaryKeyIndex.map { index in
            let property = stored.objectSchema.properties[index]
            return "<label>\(HTML.escape(property.name)) <input name=\"primaryKey\" required></label>"
        } ?? ""
        return """
            <form class="create" method="post" action="\(url("/class/\(segment(stored.name))/create"))">
            <input type="hidden" name="csrf" value="\(csrf)">\(keyField) <button type="submit">Add an object</button></form>
            """
    }

    /// A table cell: a link to the target object, an expandable list or
    /// backlinks, or the value as text.
    private func cell(key: ObjectKey, values: [Value], property index: Int, of stored: StoredClass) throws(ToolError) -> String {
        let property = stored.objectSchema.properties[index]
        let base = "/\(segment(stored.name))/\(key.rawValue)/\(segment(property.name))"
        if property.type == .linkingObjects {
            return "<details data-src=\"\(url("/backlinks" + base))\"><summary>backlinks</summary><div class=\"items\"></div></details>"
        }
        if property.isList {
            let count = try reader.listValues(index, of: key, in: stored).count
            return "<details data-src=\"\(url("/list" + base))\"><summary>\(count) item\(count == 1 ? "" : "s")</summary><div class=\"items\"></div></details>"
        }
        return try valueHTML(values[index], of: property)
    }

    private func valueHTML(_ value: Value, of property: Property) throws(ToolError) -> String {
        if case .object(let target) = value {
            let targetClass = try reader.target(of: property)
            if targetClass.objectSchema.isEmbedded {
                var json = JSONWriter()
                try reader.writeJSON(value, of: property, into: &json, depth: 0)
                return "<code>\(HTML.escape(String(decoding: json.bytes, as: UTF8.self)))</code>"
            }
            let text = try reader.scalarText(value, of: property, linkStyle: .short) ?? ""
            return "<a class=\"link\" href=\"\(url("/object/\(segment(targetClass.name))/\(target.rawValue)"))\">\(HTML.escape(text))</a>"
        }
        guard let text = try reader.scalarText(value, of: property, linkStyle: .short) else { return "<i class=\"null\">null</i>" }
        return HTML.escape(text.count > 200 ? String(text.prefix(199)) + "…" : text)
    }

    // MARK: Objects

    func objectPage(className: String, key: ObjectKey, error: String? = nil) throws(ToolError) -> String {
        let stored = try file.storedClass(named: className)
        let values: [Value]
        do {
            guard try file.transaction.objectExists(key, in: stored.handle) else {
                return layout(title: className, "<h1>\(HTML.escape(className)) #\(key.rawValue)</h1><p class=\"error\">This object does not exist (any more).</p>"
                              + "<p><a href=\"\(url("/class/" + segment(className)))\">All \(HTML.escape(className)) objects</a></p>")
            }
        } catch {
            throw ToolError(error, while: "reading \(className) #\(key.rawValue)")
        }
        values = try reader.values(of: key, in: stored)
        var rows = ""
        for (index, property) in stored.objectSchema.properties.enumerated() {
            var editor = ""
            if !file.isReadOnly && property.type != .linkingObjects && !property.isPrimaryKey {
                let current = try reader.csvText(key: key, values: values, property: index, of: stored)
                let isLong = property.isList || (current?.count ?? 0) > 60 || current?.contains("\n") == true
                let field = isLong
                    ? "<textarea name=\"value\" rows=\"3\" cols=\"50\">\(HTML.escape(current ?? ""))</textarea>"
                    : "<input name=\"value\" size=\"40\" value=\"\(HTML.escape(current ?? ""))\">"
                let null = property.isOptional && !property.isList
                    ? "<label><input type=\"checkbox\" name=\"null\" value=\"1\"\(current == nil ? " checked" : "")> null</label>" : ""
                editor = """
                    <form class="edit" method="post" action="\(url("/object/\(segment(className))/\(key.rawValue)/set"))">
                    <input type="hidden" name="csrf" value="\(csrf)"><input type="hidden" name="property" value="\(HTML.escape(property.name))">
                    \(field) \(null) <button type="submit">Save</button></form>
                    """
            }
            rows += "<tr data-property=\"\(HTML.escape(property.name))\"><th>\(HTML.escape(property.name))</th>"
                + "<td class=\"type\">\(HTML.escape(property.typeDescription))</td>"
                + "<td class=\"value\">\(try cell(key: key, values: values, property: index, of: stored))</td><td>\(editor)</td></tr>\n"
        }
        let delete = file.isReadOnly || stored.objectSchema.isEmbedded ? "" : """
            <form class="delete" method="post" action="\(url("/object/\(segment(className))/\(key.rawValue)/delete"))">
            <input type="hidden" name="csrf" value="\(csrf)"><button type="submit">Delete this object</button></form>
            """
        let banner = error.map { "<p class=\"error\" id=\"error\">\(HTML.escape($0))</p>" } ?? ""
        return layout(title: "\(className) #\(key.rawValue)", """
            <h1><a href="\(url("/class/" + segment(className)))">\(HTML.escape(className))</a> #\(key.rawValue)</h1>\(banner)
            <table class="object"><tbody>\(rows)</tbody></table>\(delete)
            """)
    }

    /// The elements of a list, as an HTML fragment.
    func listFragment(className: String, key: ObjectKey, propertyName: String) throws(ToolError) -> String {
        let stored = try file.storedClass(named: className)
        let index = try stored.propertyIndex(named: propertyName)
        let property = stored.objectSchema.properties[index]
        guard property.isList else { throw ToolError("'\(className).\(propertyName)' is not a list") }
        let items = try reader.listValues(index, of: key, in: stored).map { value throws(ToolError) in
            "<li>\(try valueHTML(value, of: property))</li>"
        }
        return items.isEmpty ? "<i>empty</i>" : "<ol start=\"0\">\(items.joined())</ol>"
    }

    /// The objects linking to an object through a linking-objects
    /// property, as an HTML fragment.
    func backlinksFragment(className: String, key: ObjectKey, propertyName: String) throws(ToolError) -> String {
        let stored = try file.storedClass(named: className)
        let property = stored.objectSchema.properties[try stored.propertyIndex(named: propertyName)]
        guard property.type == .linkingObjects else { throw ToolError("'\(className).\(propertyName)' is not linking objects") }
        let (source, keys) = try reader.linkingObjects(property, to: key)
        let items = keys.map { key in
            "<li><a class=\"link\" href=\"\(url("/object/\(segment(source.name))/\(key.rawValue)"))\">\(HTML.escape(source.name)) #\(key.rawValue)</a></li>"
        }
        return items.isEmpty ? "<i>none</i>" : "<ul>\(items.joined())</ul>"
    }

    // MARK: Assets

    static let style = """
        body{font:14px/1.4 system-ui,sans-serif;margin:0;color:#222}
        header{background:#39477f;color:#fff;padding:8px 16px;display:flex;gap:12px;align-items:center}
        header a{color:#fff;text-decoration:none}.path{opacity:.8;font-family:monospace}
        .badge{background:#c33;border-radius:3px;padding:0 6px}.live{margin-left:auto;opacity:.8}
        main{padding:8px 16px}h1{font-size:20px}h1 a{color:inherit}
        table{border-collapse:collapse;margin:8px 0}th,td{border:1px solid #ddd;padding:3px 8px;text-align:left;vertical-align:top}
        thead th{background:#f2f3f7}td.number{text-align:right}.null{color:#999}.type{color:#666;font-family:monospace}
        .error{background:#fde8e8;border:1px solid #e99;padding:6px 10px;white-space:pre-wrap;font-family:monospace}
        form.filter input{font-family:monospace}form.edit{display:flex;gap:6px;align-items:center;margin:0}
        details summary{cursor:pointer;color:#39477f}code{font-size:12px}a.sort{color:inherit}
        """

    /// Expands lists and backlinks on click, and follows the file: on each
    /// commit (a server-sent event), the page's content is fetched again
    /// and swapped in, unless the user is typing in one of its forms.
    static let script = """
        const token = document.body.dataset.token;
        document.addEventListener("toggle", async (event) => {
          const details = event.target;
          if (!(details instanceof HTMLDetailsElement) || !details.open || !details.dataset.src) return;
          const response = await fetch(details.dataset.src);
          details.querySelector(".items").innerHTML = await response.text();
        }, true);
        let stale = false;
        async function reload() {
          const active = document.activeElement;
          if (active && active.closest("#content form") && active.matches("input,textarea")) { stale = true; return; }
          stale = false;
          const response = await fetch(location.href);
          if (!response.ok) return;
          const page = new DOMParser().parseFromString(await response.text(), "text/html");
          const fresh = page.getElementById("content");
          if (fresh) document.getElementById("content").replaceWith(fresh);
          const version = page.getElementById("version");
          if (version) document.getElementById("version").textContent = version.textContent;
        }
        document.addEventListener("focusout", () => { if (stale) setTimeout(reload, 0); });
        const events = new EventSource("/events?token=" + encodeURIComponent(token));
        events.onmessage = () => reload();
        """
}
