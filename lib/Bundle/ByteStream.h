//===- ByteStream.h - Little-endian byte writer and checked reader -*- C++ -*-===//
//
// This file declares the primitive encodings of the bundle: fixed-width
// little-endian integers and doubles, ULEB128/SLEB128 variable-length
// integers and length-prefixed strings. The reader never reads past its
// buffer: the first malformed or truncated field sets an error and every
// later read returns zero.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_BUNDLE_BYTESTREAM_H
#define KTFLOW_LIB_BUNDLE_BYTESTREAM_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/LEB128.h"

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace ktflow::bundle::detail {

class ByteWriter {
public:
  std::vector<uint8_t> bytes;

  void u8(uint8_t v) { bytes.push_back(v); }
  void fixed64(uint64_t v) {
    for (int i = 0; i < 8; ++i)
      bytes.push_back(static_cast<uint8_t>(v >> (8 * i)));
  }
  void fixed32(uint32_t v) {
    for (int i = 0; i < 4; ++i)
      bytes.push_back(static_cast<uint8_t>(v >> (8 * i)));
  }
  void f64(double v) {
    uint64_t bits;
    std::memcpy(&bits, &v, 8);
    fixed64(bits);
  }
  void uleb(uint64_t v) {
    uint8_t buf[16];
    unsigned n = llvm::encodeULEB128(v, buf);
    bytes.insert(bytes.end(), buf, buf + n);
  }
  void sleb(int64_t v) {
    uint8_t buf[16];
    unsigned n = llvm::encodeSLEB128(v, buf);
    bytes.insert(bytes.end(), buf, buf + n);
  }
  void str(const std::string &s) {
    uleb(s.size());
    bytes.insert(bytes.end(), s.begin(), s.end());
  }
  void raw(llvm::ArrayRef<uint8_t> data) {
    bytes.insert(bytes.end(), data.begin(), data.end());
  }
};

class ByteReader {
public:
  explicit ByteReader(llvm::ArrayRef<uint8_t> data) : data(data) {}

  bool ok() const { return error.empty(); }
  bool atEnd() const { return pos >= data.size(); }
  size_t offset() const { return pos; }
  const std::string &getError() const { return error; }
  void fail(const std::string &what) {
    if (error.empty())
      error = what + " at byte " + std::to_string(pos);
  }

  uint8_t u8() {
    if (!need(1))
      return 0;
    return data[pos++];
  }
  uint64_t fixed64() {
    if (!need(8))
      return 0;
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i)
      v |= uint64_t(data[pos + i]) << (8 * i);
    pos += 8;
    return v;
  }
  uint32_t fixed32() {
    if (!need(4))
      return 0;
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i)
      v |= uint32_t(data[pos + i]) << (8 * i);
    pos += 4;
    return v;
  }
  double f64() {
    uint64_t bits = fixed64();
    double v;
    std::memcpy(&v, &bits, 8);
    return v;
  }
  uint64_t uleb() { return leb<uint64_t>(llvm::decodeULEB128); }
  int64_t sleb() { return leb<int64_t>(llvm::decodeSLEB128); }
  /// A ULEB that must fit 32 bits.
  uint32_t u32() {
    uint64_t v = uleb();
    if (v > UINT32_MAX) {
      fail("integer out of range");
      return 0;
    }
    return static_cast<uint32_t>(v);
  }
  /// A count of items that each take at least `minBytes`: bounded by what
  /// is left, so a corrupt count cannot trigger a huge allocation.
  size_t count(size_t minBytes = 1) {
    uint64_t n = uleb();
    if (n > (data.size() - std::min(pos, data.size())) / std::max<size_t>(minBytes, 1)) {
      fail("count " + std::to_string(n) + " exceeds the data left");
      return 0;
    }
    return static_cast<size_t>(n);
  }
  std::string str() {
    size_t n = count();
    if (!need(n))
      return "";
    std::string s(reinterpret_cast<const char *>(data.data() + pos), n);
    pos += n;
    return s;
  }
  llvm::ArrayRef<uint8_t> raw(size_t n) {
    if (!need(n))
      return {};
    llvm::ArrayRef<uint8_t> r = data.slice(pos, n);
    pos += n;
    return r;
  }

private:
  /// The longest LEB128 encoding of a 64-bit integer.
  static constexpr size_t kMaxLebBytes = 10;

  /// Decodes one LEB128 integer with `decode` (LLVM's ULEB or SLEB decoder),
  /// which checks the end of the buffer and the value's range itself. It
  /// also takes redundant padding bytes past 64 bits (0x80.. 0x00, 0xff..
  /// 0x7f), but shifts each by 64 or more: undefined behaviour (UBSan in
  /// ktflow-fuzz-simulator), so a longer encoding is refused first.
  template <typename T, typename Decode> T leb(Decode decode) {
    if (!ok())
      return 0;
    if (data.size() - pos > kMaxLebBytes &&
        llvm::all_of(data.slice(pos, kMaxLebBytes),
                     [](uint8_t byte) { return byte & 0x80; })) {
      fail("malformed integer (longer than 10 bytes)");
      return 0;
    }
    unsigned n = 0;
    const char *err = nullptr;
    T v = decode(data.data() + pos, &n, data.data() + data.size(), &err);
    if (err) {
      fail(std::string("malformed integer (") + err + ")");
      return 0;
    }
    pos += n;
    return v;
  }

  bool need(size_t n) {
    if (!ok())
      return false;
    if (n > data.size() - pos) {
      fail("unexpected end of data");
      return false;
    }
    return true;
  }

  llvm::ArrayRef<uint8_t> data;
  size_t pos = 0;
  std::string error;
};

} // namespace ktflow::bundle::detail

#endif // KTFLOW_LIB_BUNDLE_BYTESTREAM_H
