
/// What the sensor tells about itself: where it is worn, its battery.
extension HeartRateLink {
    /// Reads location and battery once per connection, each as soon as its characteristic is
    /// exported (they may appear after the heart-rate one).
    func readSensorInformation(_ device: Device) {
        let wanted: [(AssignedNumber, AssignedNumber, (UInt8) -> Event)] = [
            (.bodySensorLocation, .heartRateService, { .bodySensorLocation($0) }),
            (.batteryLevel, .batteryService, { .batteryLevel(Int($0)) }),
        ]
        let epoch = epoch
        for (characteristic, service, event) in wanted {
            guard let found = client.tree.characteristic(characteristic, in: service, of: device.path),
                  informationRead.insert(found.path).inserted
            else { continue }
            client.call(found.path, BlueZNames.gattCharacteristic, "ReadValue", [.properties([:])]) { [weak self] result in
                guard let self, epoch == self.epoch, let byte = (try? result.get())?.first?.bytes?.first else { return }
                self.onEvent(event(byte))
            }
        }
    }
}
