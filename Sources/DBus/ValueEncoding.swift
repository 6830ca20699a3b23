import CDBus

extension DBusValue {
    /// Appends the value; false when libdbus refuses it (out of memory, invalid string or path).
    func encode(into iterator: inout DBusMessageIter) -> Bool {
        switch self {
        case .byte(let value): return appendBasic(TypeCode.byte, value, to: &iterator)
        case .boolean(let value): return appendBasic(TypeCode.boolean, dbus_bool_t(value ? 1 : 0), to: &iterator)
        case .int16(let value): return appendBasic(TypeCode.int16, value, to: &iterator)
        case .uint16(let value): return appendBasic(TypeCode.uint16, value, to: &iterator)
        case .int32(let value): return appendBasic(TypeCode.int32, value, to: &iterator)
        case .uint32(let value): return appendBasic(TypeCode.uint32, value, to: &iterator)
        case .int64(let value): return appendBasic(TypeCode.int64, value, to: &iterator)
        case .uint64(let value): return appendBasic(TypeCode.uint64, value, to: &iterator)
        case .double(let value): return appendBasic(TypeCode.double, value, to: &iterator)
        case .unixFD(let value): return appendBasic(TypeCode.unixFD, value, to: &iterator)
        case .string(let text): return appendText(TypeCode.string, text, to: &iterator)
        case .objectPath(let text): return appendText(TypeCode.objectPath, text, to: &iterator)
        case .signature(let text): return appendText(TypeCode.signature, text, to: &iterator)
        case .bytes(let bytes):
            return container(TypeCode.array, "y", in: &iterator) { inner in
                bytes.withUnsafeBufferPointer { buffer in
                    var base = UnsafeRawPointer(buffer.baseAddress ?? UnsafePointer(bitPattern: 1)!)
                    return dbus_message_iter_append_fixed_array(&inner, TypeCode.byte, &base, Int32(buffer.count)) != 0
                }
            }
        case .array(let element, let values):
            return container(TypeCode.array, element, in: &iterator) { inner in values.allSatisfy { $0.encode(into: &inner) } }
        case .dictionary(let key, let value, let entries):
            return container(TypeCode.array, "{" + key + value + "}", in: &iterator) { inner in
                entries.allSatisfy { entry in
                    container(TypeCode.dictionaryEntry, nil, in: &inner) { pair in
                        entry.key.encode(into: &pair) && entry.value.encode(into: &pair)
                    }
                }
            }
        case .structure(let fields):
            return container(TypeCode.structure, nil, in: &iterator) { inner in fields.allSatisfy { $0.encode(into: &inner) } }
        case .variant(let inner):
            return container(TypeCode.variant, inner.signature, in: &iterator) { inner.encode(into: &$0) }
        }
    }

    private func appendBasic<T: BitwiseCopyable>(_ type: Int32, _ value: T, to iterator: inout DBusMessageIter) -> Bool {
        var value = value
        return dbus_message_iter_append_basic(&iterator, type, &value) != 0
    }

    private func appendText(_ type: Int32, _ text: String, to iterator: inout DBusMessageIter) -> Bool {
        text.withCString { pointer in
            var pointer: UnsafePointer<CChar>? = pointer
            return dbus_message_iter_append_basic(&iterator, type, &pointer) != 0
        }
    }

    private func container(
        _ type: Int32, _ signature: String?, in iterator: inout DBusMessageIter,
        contents: (inout DBusMessageIter) -> Bool
    ) -> Bool {
        var inner = DBusMessageIter()
        let opened = signature.map { $0.withCString { dbus_message_iter_open_container(&iterator, type, $0, &inner) } }
            ?? dbus_message_iter_open_container(&iterator, type, nil, &inner)
        guard opened != 0 else { return false }
        guard contents(&inner) else {
            dbus_message_iter_abandon_container(&iterator, &inner)
            return false
        }
        return dbus_message_iter_close_container(&iterator, &inner) != 0
    }
}
