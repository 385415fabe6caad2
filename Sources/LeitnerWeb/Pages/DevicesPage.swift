/// The paired devices: each one's name (a form to rename it), when it was paired and last seen,
/// and a button that revokes it. The device that asks is marked: revoking it logs it out.
public enum DevicesPage {
    public static func html(_ devices: [Device], current: Device, now: Int64, csrf: String, notice: String? = nil,
                            box: String? = nil) -> HTML {
        var body: HTML = "<h1>Devices</h1>\n"
        if let notice { body += "<p class=\"muted\" id=\"notice\">\(notice)</p>\n" }
        body += "<p>Each browser that opened a pairing link. A lost phone: revoke it here or with "
        body += "<code>leitnerctl web --revoke NAME</code>, and its cookie opens nothing more.</p>\n"
        body += "<ul class=\"devices\" id=\"devices\">\n"
        for device in devices {
            let this = device.id == current.id
            let marked: HTML = this ? " <span class=\"muted\">(this browser)</span>" : ""
            body += "<li class=\"device\" id=\"device-\(device.id)\">"
            body += "<p><strong class=\"device-name\">\(device.name)</strong>\(marked)<br>"
            body += "<span class=\"muted\">paired \(ago(now - device.paired)), last seen \(ago(now - device.lastSeen))</span></p>"
            let path = "/devices/\(device.id)"
            body += "<form method=\"post\" action=\"\(path)/rename\"><input type=\"hidden\" name=\"csrf\" value=\"\(csrf)\">"
            body += "<label for=\"name-\(device.id)\">Name</label><div class=\"actions\">"
            body += "<input type=\"text\" id=\"name-\(device.id)\" name=\"name\" maxlength=\"60\" required value=\"\(device.name)\">"
            body += "<button type=\"submit\">Rename</button></div></form>"
            body += Layout.form(action: "\(path)/revoke", csrf: csrf, button: this ? "Revoke (log out)" : "Revoke",
                                buttonClass: "secondary")
            body += "</li>\n"
        }
        body += "</ul>\n"
        return Layout.page(title: "Devices", section: .devices, body: body, box: box)
    }

    /// "today", "yesterday", "5 days ago": enough to tell an old device from one in use.
    static func ago(_ seconds: Int64) -> String {
        let days = max(0, seconds) / 86_400
        return days == 0 ? "today" : days == 1 ? "yesterday" : "\(days) days ago"
    }
}
