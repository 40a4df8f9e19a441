//===- SectionIO.h - One field list for writing and reading ----*- C++ -*-===//
//
// This file defines SectionWriter and SectionReader, two views of the
// bundle's byte streams with the same member names. A record's fields are
// listed once, in a function template over the view, so the writer and the
// reader cannot disagree on their order or encoding. Reading keeps the
// ByteReader's rule (the first malformed field records an error and later
// reads yield zero); `check` places a semantic check at the point where the
// reader has read what it needs, and is free when writing.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_BUNDLE_SECTIONIO_H
#define KTFLOW_LIB_BUNDLE_SECTIONIO_H

#include "ByteStream.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ktflow::bundle::detail {

/// Encodes fields in the order a field list names them.
class SectionWriter {
public:
  static constexpr bool kReading = false;

  explicit SectionWriter(ByteWriter &w) : w(w) {}

  void str(const std::string &s) { w.str(s); }
  void f64(double v) { w.f64(v); }
  void fixed64(uint64_t v) { w.fixed64(v); }
  void uleb(uint64_t v) { w.uleb(v); }
  void sleb(int64_t v) { w.sleb(v); }
  /// An enum or a flag, in one byte.
  template <typename T> void u8(T v) { w.u8(static_cast<uint8_t>(v)); }
  /// An index where UINT32_MAX means none, stored plus one so none is 0.
  void optionalIndex(uint32_t v) {
    w.uleb(v == UINT32_MAX ? 0 : uint64_t(v) + 1);
  }
  /// A value below UINT64_MAX, or none, stored plus one so none is 0.
  void optionalValue(const std::optional<uint64_t> &v) {
    w.uleb(v ? *v + 1 : 0);
  }
  /// A length-prefixed byte string.
  void bytes(const std::vector<uint8_t> &data) {
    w.uleb(data.size());
    w.raw(data);
  }
  /// A list: its length, then every item as `each` lists its fields.
  /// `minItemBytes` bounds the length when reading.
  template <typename T, typename F>
  void list(const std::vector<T> &items, size_t minItemBytes, F each) {
    w.uleb(items.size());
    for (const T &item : items)
      each(item);
  }
  void check(bool, const char *) {}

private:
  ByteWriter &w;
};

/// Decodes fields in the order a field list names them, in place.
class SectionReader {
public:
  static constexpr bool kReading = true;

  explicit SectionReader(ByteReader &r) : r(r) {}

  void str(std::string &s) { s = r.str(); }
  void f64(double &v) { v = r.f64(); }
  void fixed64(uint64_t &v) { v = r.fixed64(); }
  /// A 32-bit field must fit its type; a 64-bit one takes any ULEB.
  void uleb(uint32_t &v) { v = r.u32(); }
  void uleb(uint64_t &v) { v = r.uleb(); }
  void sleb(int64_t &v) { v = r.sleb(); }
  /// Enums here have a one-byte underlying type, so any byte is a value;
  /// a `check` after the read rejects the ones out of range.
  template <typename T> void u8(T &v) { v = static_cast<T>(r.u8()); }
  void optionalIndex(uint32_t &v) {
    uint32_t stored = r.u32();
    v = stored == 0 ? UINT32_MAX : stored - 1;
  }
  void optionalValue(std::optional<uint64_t> &v) {
    uint64_t stored = r.uleb();
    v = stored == 0 ? std::nullopt : std::optional<uint64_t>(stored - 1);
  }
  void bytes(std::vector<uint8_t> &data) {
    llvm::ArrayRef<uint8_t> stored = r.raw(r.count());
    data.assign(stored.begin(), stored.end());
  }
  template <typename T, typename F>
  void list(std::vector<T> &items, size_t minItemBytes, F each) {
    items.resize(r.count(minItemBytes));
    for (T &item : items)
      each(item);
  }
  void check(bool valid, const char *what) {
    if (!valid)
      r.fail(what);
  }
  /// For encodings that differ by direction (e.g. sparse tables).
  ByteReader &stream() { return r; }

private:
  ByteReader &r;
};

} // namespace ktflow::bundle::detail

#endif // KTFLOW_LIB_BUNDLE_SECTIONIO_H
