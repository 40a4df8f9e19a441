//===- ReferenceCache.cpp - Interpreter results shared by runs ------------===//
//
// This file implements the cache of `ktflow run --reference-cache`: entries
// named by the SHA-256 of their key, each a file holding the key, the
// tensors and a checksum of them, written whole under a temporary name and
// renamed into place.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Check/ReferenceCache.h"

#include "ktflow/Support/Version.h"

#include "mlir/IR/OperationSupport.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/xxhash.h"

#include <cstring>

using namespace llvm;
using namespace ktflow;
using namespace ktflow::check;

/// The first bytes of an entry; a new layout gets a new one.
static constexpr StringLiteral kMagic = "ktflow-reference-cache-1\n";

namespace {
/// Feeds the key's fields to a SHA-256, each with its length so that two
/// keys cannot run into each other.
class KeyHasher {
public:
  void add(StringRef text) {
    addWord(text.size());
    hash.update(text);
  }
  void addWord(uint64_t word) {
    uint8_t bytes[8];
    std::memcpy(bytes, &word, 8);
    hash.update(ArrayRef<uint8_t>(bytes, 8));
  }
  void addDouble(double value) {
    uint64_t bits;
    std::memcpy(&bits, &value, 8);
    addWord(bits);
  }
  /// Large arrays (the inputs' elements) by their XXH3 digest: SHA-256
  /// costs a second per few hundred megabytes.
  template <typename T> void addArray(ArrayRef<T> values) {
    XXH128_hash_t digest = xxh3_128bits(
        ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(values.data()),
                          values.size() * sizeof(T)));
    addWord(values.size());
    addWord(digest.low64);
    addWord(digest.high64);
  }
  std::array<uint8_t, 32> final() { return hash.final(); }

private:
  SHA256 hash;
};
} // namespace

/// What identifies the running executable: a rebuilt one is another.
static std::string getExecutableIdentity() {
  std::string path = sys::fs::getMainExecutable(nullptr, nullptr);
  sys::fs::file_status status;
  if (path.empty() || sys::fs::status(path, status))
    return "unknown executable";
  return path + " " + std::to_string(status.getSize()) + " " +
         std::to_string(
             status.getLastModificationTime().time_since_epoch().count());
}

ReferenceCache::ReferenceCache(StringRef directory, mlir::ModuleOp module,
                               const interp::InterpreterOptions &options,
                               const ReferenceBindings &bindings,
                               ArrayRef<std::string> names)
    : directory(directory.str()) {
  KeyHasher key;
  key.add(kMagic);
  key.add(getVersion());
  key.add(getGitHash());
  key.add(getExecutableIdentity());
  // The kernel with its locations: arguments are bound by the names their
  // NameLocs carry.
  std::string text;
  raw_string_ostream os(text);
  module->print(os, mlir::OpPrintingFlags().enableDebugInfo());
  key.add(text);
  key.add(bindings.function);
  key.addWord(bindings.scalars.size());
  for (const auto &[name, value] : bindings.scalars) {
    key.add(name);
    key.add(value);
  }
  key.addWord(bindings.inputs.size());
  for (const auto &[name, spec] : bindings.inputs) {
    key.add(name);
    key.addWord(static_cast<uint64_t>(spec.kind));
    key.addDouble(spec.value);
    key.addWord(spec.lo);
    key.addWord(spec.hi);
    if (!spec.data)
      continue;
    const host::Tensor &data = spec.data->tensor();
    key.addWord(static_cast<uint64_t>(data.dtype));
    key.addArray(ArrayRef<int64_t>(data.shape));
    key.addArray(ArrayRef<double>(data.floats));
    key.addArray(ArrayRef<int64_t>(data.ints));
  }
  key.addWord(options.scratchpadBytes);
  key.addWord(options.chargeIntermediates);
  key.addWord(options.seed);
  key.addWord(static_cast<uint64_t>(options.numerics));
  key.addWord(options.maxElementOps);
  key.addDouble(options.maxSeconds);
  key.addWord(options.maxMemoryBytes);
  key.addWord(names.size());
  for (const std::string &name : names)
    key.add(name);
  kernelKey = key.final();
}

ReferenceCache::Digest ReferenceCache::entryKey(StringRef entry) const {
  KeyHasher key;
  key.add(StringRef(reinterpret_cast<const char *>(kernelKey.data()),
                    kernelKey.size()));
  key.add(entry);
  return key.final();
}

std::string ReferenceCache::entryPath(const Digest &key) const {
  SmallString<256> path(directory);
  sys::path::append(path, toHex(key, /*LowerCase=*/true));
  return path.str().str();
}

namespace {
/// Reads the words of an entry in order; false once one is missing.
class EntryReader {
public:
  explicit EntryReader(StringRef bytes) : rest(bytes) {}
  bool take(void *out, size_t size) {
    if (rest.size() < size)
      return false;
    if (size != 0) // An empty array's data() may be null.
      std::memcpy(out, rest.data(), size);
    rest = rest.drop_front(size);
    return true;
  }
  bool takeWord(uint64_t &word) { return take(&word, 8); }
  template <typename T> bool takeArray(std::vector<T> &values) {
    uint64_t count;
    if (!takeWord(count) || count > rest.size() / sizeof(T))
      return false;
    values.resize(count);
    return take(values.data(), count * sizeof(T));
  }
  bool done() const { return rest.empty(); }

private:
  StringRef rest;
};
} // namespace

std::optional<std::vector<host::Tensor>>
ReferenceCache::lookup(StringRef entry) const {
  Digest key = entryKey(entry);
  ErrorOr<std::unique_ptr<MemoryBuffer>> file =
      MemoryBuffer::getFile(entryPath(key), /*IsText=*/false,
                            /*RequiresNullTerminator=*/false);
  if (!file)
    return std::nullopt;
  StringRef bytes = (*file)->getBuffer();
  // The magic, the key, the tensors, then the XXH3 of all that.
  size_t header = kMagic.size() + key.size();
  if (bytes.size() < header + 8 || !bytes.starts_with(kMagic) ||
      bytes.substr(kMagic.size(), key.size()) !=
          StringRef(reinterpret_cast<const char *>(key.data()), key.size()))
    return std::nullopt;
  StringRef body = bytes.drop_back(8);
  uint64_t checksum;
  std::memcpy(&checksum, bytes.end() - 8, 8);
  if (checksum != xxh3_64bits(arrayRefFromStringRef(body)))
    return std::nullopt;
  EntryReader reader(body.drop_front(header));
  uint64_t count;
  if (!reader.takeWord(count) || count > body.size())
    return std::nullopt;
  std::vector<host::Tensor> tensors(count);
  for (host::Tensor &t : tensors) {
    uint64_t dtype;
    std::vector<int64_t> shape;
    if (!reader.takeWord(dtype) ||
        dtype > static_cast<uint64_t>(host::DType::F64) ||
        !reader.takeArray(shape) || !reader.takeArray(t.floats) ||
        !reader.takeArray(t.ints))
      return std::nullopt;
    t.dtype = static_cast<host::DType>(dtype);
    t.shape.assign(shape.begin(), shape.end());
  }
  if (!reader.done())
    return std::nullopt;
  return tensors;
}

void ReferenceCache::store(StringRef entry,
                           ArrayRef<host::Tensor> tensors) const {
  Digest key = entryKey(entry);
  std::string bytes(kMagic);
  bytes.append(reinterpret_cast<const char *>(key.data()), key.size());
  auto word = [&](uint64_t w) {
    bytes.append(reinterpret_cast<const char *>(&w), 8);
  };
  auto array = [&](const auto &values) {
    word(values.size());
    if (!values.empty())
      bytes.append(reinterpret_cast<const char *>(values.data()),
                   values.size() * sizeof(values[0]));
  };
  word(tensors.size());
  for (const host::Tensor &t : tensors) {
    word(static_cast<uint64_t>(t.dtype));
    array(t.shape);
    array(t.floats);
    array(t.ints);
  }
  word(xxh3_64bits(arrayRefFromStringRef(bytes)));

  std::string path = entryPath(key);
  SmallString<256> temporary;
  int fd;
  if (sys::fs::create_directories(directory) ||
      sys::fs::createUniqueFile(path + ".tmp-%%%%%%%%", fd, temporary))
    return;
  bool written;
  {
    raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << bytes;
    os.close();
    written = !os.has_error();
    os.clear_error();
  }
  if (!written || sys::fs::rename(temporary, path))
    sys::fs::remove(temporary);
}

std::string ktflow::check::getReferenceCacheDirectory(StringRef flag) {
  if (!flag.empty())
    return flag.str();
  return sys::Process::GetEnv(kReferenceCacheEnv).value_or("");
}
