import CDBus

extension DBusValue {
    /// Reads the value under the iterator (which stays where it is).
    static func decode(_ iterator: inout DBusMessageIter) -> DBusValue? {
        let type = dbus_message_iter_get_arg_type(&iterator)
        switch type {
        case TypeCode.byte: return .byte(basic(&iterator, as: UInt8.self))
        case TypeCode.boolean: return .boolean(basic(&iterator, as: dbus_bool_t.self) != 0)
        case TypeCode.int16: return .int16(basic(&iterator, as: Int16.self))
        case TypeCode.uint16: return .uint16(basic(&iterator, as: UInt16.self))
        case TypeCode.int32: return .int32(basic(&iterator, as: Int32.self))
        case TypeCode.uint32: return .uint32(basic(&iterator, as: UInt32.self))
        case TypeCode.int64: return .int64(basic(&iterator, as: Int64.self))
        case TypeCode.uint64: return .uint64(basic(&iterator, as: UInt64.self))
        case TypeCode.double: return .double(basic(&iterator, as: Double.self))
        case TypeCode.unixFD: return .unixFD(basic(&iterator, as: Int32.self))
        case TypeCode.string: return .string(text(&iterator))
        case TypeCode.objectPath: return .objectPath(text(&iterator))
        case TypeCode.signature: return .signature(text(&iterator))
        case TypeCode.variant:
            var inner = DBusMessageIter()
            dbus_message_iter_recurse(&iterator, &inner)
            return decode(&inner).map(DBusValue.variant)
        case TypeCode.structure:
            var inner = DBusMessageIter()
            dbus_message_iter_recurse(&iterator, &inner)
            return decodeAll(&inner).map(DBusValue.structure)
        case TypeCode.array: return decodeArray(&iterator)
        default: return nil
        }
    }

    /// Reads every value from the iterator's position to the end of its container.
    static func decodeAll(_ iterator: inout DBusMessageIter) -> [DBusValue]? {
        var values: [DBusValue] = []
        while dbus_message_iter_get_arg_type(&iterator) != TypeCode.invalid {
            guard let value = decode(&iterator) else { return nil }
            values.append(value)
            dbus_message_iter_next(&iterator)
        }
        return values
    }

    private static func decodeArray(_ iterator: inout DBusMessageIter) -> DBusValue? {
        var inner = DBusMessageIter()
        dbus_message_iter_recurse(&iterator, &inner)
        // Byte arrays (every notification) need no signature string: one copy and done.
        if dbus_message_iter_get_element_type(&iterator) == TypeCode.byte {
            var pointer: UnsafeRawPointer?
            var count: Int32 = 0
            withUnsafeMutablePointer(to: &pointer) { dbus_message_iter_get_fixed_array(&inner, $0, &count) }
            guard let pointer, count > 0 else { return .bytes([]) }
            return .bytes(Array(UnsafeBufferPointer(start: pointer.assumingMemoryBound(to: UInt8.self), count: Int(count))))
        }
        let element = String(containerSignature(&iterator).dropFirst())
        if element.hasPrefix("{") {
            var entries: [DictionaryEntry] = []
            while dbus_message_iter_get_arg_type(&inner) == TypeCode.dictionaryEntry {
                var pair = DBusMessageIter()
                dbus_message_iter_recurse(&inner, &pair)
                guard let key = decode(&pair), dbus_message_iter_next(&pair) != 0, let value = decode(&pair) else { return nil }
                entries.append(DictionaryEntry(key, value))
                dbus_message_iter_next(&inner)
            }
            let types = element.dropFirst().dropLast()
            let keySignature = String(types.prefix(1))
            return .dictionary(keySignature: keySignature, valueSignature: String(types.dropFirst()), entries)
        }
        return decodeAll(&inner).map { .array(elementSignature: element, $0) }
    }

    private static func basic<T>(_ iterator: inout DBusMessageIter, as type: T.Type) -> T where T: BinaryInteger & BitwiseCopyable {
        var value: T = 0
        dbus_message_iter_get_basic(&iterator, &value)
        return value
    }

    private static func basic(_ iterator: inout DBusMessageIter, as type: Double.Type) -> Double {
        var value = 0.0
        dbus_message_iter_get_basic(&iterator, &value)
        return value
    }

    private static func text(_ iterator: inout DBusMessageIter) -> String {
        var pointer: UnsafePointer<CChar>?
        dbus_message_iter_get_basic(&iterator, &pointer)
        return pointer.map { String(cString: $0) } ?? ""
    }

    private static func containerSignature(_ iterator: inout DBusMessageIter) -> String {
        guard let signature = dbus_message_iter_get_signature(&iterator) else { return "" }
        defer { dbus_free(signature) }
        return String(cString: signature)
    }
}
