"""bundlemutators.py - program-bundle mutators of the mutation campaign
(scripts/mutation-campaign.py). A bundle (docs/bundle-format.md) is a
32-byte header (magic, version, reserved, payload size, xxh3-64 of the
payload) and a payload of tagged sections. The mutators change the payload
and recompute its size and checksum, so that the mutant gets past the
header checks to the section decoder, the linker and the simulator; one
mutator changes a header field instead and leaves the rest alone.

The checksum comes from the system's libxxhash (Debian's libxxhash0),
through ctypes: LLVM's xxh3_64bits is XXH3_64bits with seed 0.
"""

import ctypes
import ctypes.util
import struct

HEADER = 32


def _xxh3():
    for name in ("libxxhash.so.0", ctypes.util.find_library("xxhash")):
        if not name:
            continue
        try:
            fn = ctypes.CDLL(name).XXH3_64bits
        except (OSError, AttributeError):
            continue
        fn.restype = ctypes.c_uint64
        fn.argtypes = [ctypes.c_char_p, ctypes.c_size_t]
        return fn
    raise SystemExit("bundle mutants need libxxhash (apt-get install "
                     "libxxhash0)")


XXH3 = _xxh3()


def seal(header, payload):
    """The header with the payload's size and checksum, then the payload."""
    return (header[:16] + struct.pack("<QQ", len(payload),
                                      XXH3(payload, len(payload))) + payload)


def sections(payload):
    """(tag, start, end) of each section's bytes."""
    found, at = [], 0
    while at + 12 <= len(payload):
        tag, size = struct.unpack_from("<IQ", payload, at)
        if at + 12 + size > len(payload):
            break
        found.append((tag, at + 12, at + 12 + size))
        at += 12 + size
    return found


def leb(value):
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        out.append(byte | (0x80 if value else 0))
        if not value:
            return bytes(out)


def place(rng, payload):
    """An offset, inside CODE two times out of three (the code is where the
    simulator's inputs are), else anywhere in the payload."""
    code = [s for s in sections(payload)
            if s[0] == struct.unpack("<I", b"CODE")[0]]
    if code and rng.random() < 0.67 and code[0][2] > code[0][1]:
        return rng.randrange(code[0][1], code[0][2])
    return rng.randrange(len(payload)) if payload else 0


def mutate(rng, data):
    """(mutant, description) of a bundle's bytes."""
    header, payload = data[:HEADER], bytearray(data[HEADER:])
    how = rng.choice(["flip", "flip", "flip", "byte", "byte", "leb", "f64",
                      "f64", "insert", "delete", "truncate", "header"])
    at = place(rng, payload)
    if how == "flip":
        for _ in range(rng.randrange(1, 5)):
            i = place(rng, payload)
            payload[i] ^= 1 << rng.randrange(8)
        what = "bit flips"
    elif how == "byte":
        payload[at] = rng.choice([0, 1, 0x7F, 0x80, 0xFF, rng.randrange(256)])
        what = "byte %d = %d" % (at, payload[at])
    elif how == "leb":
        value = rng.choice([2 ** 31, 2 ** 32, 2 ** 62, 2 ** 64 - 1,
                            2 ** 70, 0xFFFFFFFF])
        encoded = leb(value)
        if rng.random() < 0.5:  # overwrite a LEB at `at`
            end = at
            while end < len(payload) and payload[end] & 0x80:
                end += 1
            payload[at:end + 1] = encoded
        else:
            payload[at:at] = encoded
        what = "LEB %d at %d" % (value, at)
    elif how == "f64":
        value = rng.choice([1e308, -1e308, float("inf"), float("nan"), 0.0,
                            -0.0, 5e-324, 2.0 ** 64])
        payload[at:at + 8] = struct.pack("<d", value)
        what = "f64 %r at %d" % (value, at)
    elif how == "insert":
        junk = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 17)))
        payload[at:at] = junk
        what = "insert %d bytes at %d" % (len(junk), at)
    elif how == "delete":
        n = rng.randrange(1, 17)
        del payload[at:at + n]
        what = "delete %d bytes at %d" % (n, at)
    elif how == "truncate":
        del payload[at:]
        what = "truncate payload at %d" % at
    else:
        field = rng.choice([(8, 4), (12, 4), (16, 8), (24, 8), (0, 8)])
        value = rng.choice([0, 1, 8, 9, 10, 2 ** 32 - 1, 2 ** 63,
                            len(payload) + 1, len(payload) - 1])
        raw = bytearray(data)
        size = field[1]
        raw[field[0]:field[0] + size] = (value % (1 << (8 * size))).to_bytes(
            size, "little")
        return bytes(raw), "header field at %d = %d" % (field[0], value)
    return seal(header, bytes(payload)), what
