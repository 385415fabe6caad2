extension SettlePlanner {
    /// A log line that places the card being settled, with what the rules compare.
    struct Placed {
        var event: DeviceEvent
        var placement: SettlePlacement
        /// The device's name as bytes: compared byte by byte, as the directory names are, so that
        /// the order does not hang on a Unicode library's version.
        var device: [UInt8]
        /// Found in the store by the daemon (R13): a person's change, or a sync tool's delivery.
        var byHand: Bool
        /// Found as a copy beside the card's other copy (`origin=copy`): a sync tool's delivery.
        var isCopy: Bool
        /// When the change was made: a hand line's `made` (its folder's change time, when it was
        /// noticed later), else the line's time.
        var time: Int64 { event.entry.made ?? event.entry.time }

        init(_ event: DeviceEvent, _ placement: SettlePlacement) {
            self.event = event
            self.placement = placement
            device = Array(event.device.utf8)
            byHand = event.entry.origin == .hand
            isCopy = event.entry.origin == .copy
        }

        /// The order that names the winner: time, then the device's name, then the offset; the
        /// placement, the origin and the event's name only break the tie of a `(device, offset)`
        /// given twice, so that even then the answer and its reason do not hang on the order.
        func isNewer(than other: Placed) -> Bool {
            if time != other.time { return time > other.time }
            if device != other.device { return other.device.lexicographicallyPrecedes(device) }
            if event.offset != other.event.offset { return event.offset > other.event.offset }
            if placement != other.placement { return placement > other.placement }
            if byHand != other.byHand { return byHand }
            return other.event.entry.event.rawValue.utf8.lexicographicallyPrecedes(event.entry.event.rawValue.utf8)
        }

        /// Later in the same device's log: a device only appends, so the offset says what that
        /// device did last, whatever its clock said.
        func laterOnDevice(than other: Placed) -> Bool {
            event.offset != other.event.offset ? event.offset > other.event.offset : isNewer(than: other)
        }
    }
}
