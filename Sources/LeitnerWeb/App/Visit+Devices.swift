/// The devices page and its two changes (docs/web.md, "Devices").
extension Visit {
    /// `GET /devices`.
    func devicesPage() -> (HTTPResponse, String) {
        do {
            let notice = query["done"].flatMap { $0 == "renamed" ? "Renamed." : $0 == "revoked" ? "Revoked." : nil }
            return page(HTTPResponse.html(200, DevicesPage.html(try app.devices.devices(), current: device, now: app.clock(),
                                                                csrf: csrf, notice: notice, box: boxName)))
        } catch {
            return page(app.problem(500, "No devices", "\(error)", section: .devices))
        }
    }

    /// `POST /devices/DEVICE/rename` (`name`).
    func renameDevice(id: String) -> (HTTPResponse, String) {
        do {
            guard try app.devices.rename(id: id, to: form["name"] ?? "") != nil else { return page(app.notFound(section: .devices)) }
            return page(HTTPResponse.redirect("/devices?done=renamed"))
        } catch {
            return page(app.problem(422, "Not renamed", "\(error)", section: .devices))
        }
    }

    /// `POST /devices/DEVICE/revoke`: that device's cookie opens nothing from now on; revoking
    /// this browser is logging out.
    func revokeDevice(id: String) -> (HTTPResponse, String) {
        if id == device.id { return logout() }
        do {
            guard let revoked = try app.devices.revoke(id) else { return page(app.notFound(section: .devices)) }
            app.sessions.close(revoked.secret)
            return page(HTTPResponse.redirect("/devices?done=revoked"))
        } catch {
            return page(app.problem(500, "Not revoked", "\(error)", section: .devices))
        }
    }
}
