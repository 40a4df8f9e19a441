//===- Npy.cpp - NumPy .npy files -----------------------------------------===//
//
// This file implements the .npy reader and writer. The header is a Python
// dict literal; only the three keys numpy writes ('descr', 'fortran_order',
// 'shape') are accepted, with the literal forms numpy produces.
//
//===----------------------------------------------------------------------===//

#include "ktflow/HostTensor/Npy.h"

#include "NpyFile.h"
#include "ktflow/Support/OutputFile.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>

using namespace ktflow::host;
using llvm::StringRef;

static llvm::Error npyError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "invalid .npy data: " + message);
}

namespace {

/// A cursor over the header's dict literal.
class HeaderLexer {
public:
  explicit HeaderLexer(StringRef text) : text(text) {}

  void skipSpace() { text = text.ltrim(" \t\r\n"); }
  bool consume(char c) {
    skipSpace();
    if (text.empty() || text.front() != c)
      return false;
    text = text.drop_front();
    return true;
  }
  bool peek(char c) {
    skipSpace();
    return !text.empty() && text.front() == c;
  }
  std::optional<std::string> parseString() {
    skipSpace();
    if (text.empty() || (text.front() != '\'' && text.front() != '"'))
      return std::nullopt;
    char quote = text.front();
    size_t end = text.find(quote, 1);
    if (end == StringRef::npos)
      return std::nullopt;
    std::string s = text.substr(1, end - 1).str();
    text = text.drop_front(end + 1);
    return s;
  }
  std::optional<bool> parseBool() {
    skipSpace();
    if (text.consume_front("True"))
      return true;
    if (text.consume_front("False"))
      return false;
    return std::nullopt;
  }
  std::optional<int64_t> parseInt() {
    skipSpace();
    size_t len = 0;
    while (len < text.size() && llvm::isDigit(text[len]))
      ++len;
    int64_t value;
    if (len == 0 || text.substr(0, len).getAsInteger(10, value))
      return std::nullopt;
    text = text.drop_front(len);
    // Python 2 era files may spell longs as `3L`.
    text.consume_front("L");
    return value;
  }
  bool atEnd() {
    skipSpace();
    return text.empty();
  }

private:
  StringRef text;
};

struct Header {
  std::string descr;
  bool fortranOrder = false;
  llvm::SmallVector<int64_t, 4> shape;
};

} // namespace

static llvm::Expected<Header> parseHeader(StringRef text) {
  HeaderLexer lex(text);
  Header header;
  bool seenDescr = false, seenOrder = false, seenShape = false;
  if (!lex.consume('{'))
    return npyError("header is not a dict literal");
  while (!lex.consume('}')) {
    std::optional<std::string> key = lex.parseString();
    if (!key || !lex.consume(':'))
      return npyError("expected 'key': value in the header");
    if (*key == "descr") {
      std::optional<std::string> descr = lex.parseString();
      if (!descr)
        return npyError("'descr' must be a simple dtype string (structured "
                        "dtypes are not supported)");
      header.descr = *descr;
      seenDescr = true;
    } else if (*key == "fortran_order") {
      std::optional<bool> value = lex.parseBool();
      if (!value)
        return npyError("'fortran_order' must be True or False");
      header.fortranOrder = *value;
      seenOrder = true;
    } else if (*key == "shape") {
      if (!lex.consume('('))
        return npyError("'shape' must be a tuple");
      while (!lex.consume(')')) {
        std::optional<int64_t> dim = lex.parseInt();
        if (!dim)
          return npyError("'shape' must hold non-negative integers");
        header.shape.push_back(*dim);
        if (!lex.consume(',') && !lex.peek(')'))
          return npyError("malformed 'shape' tuple");
      }
      seenShape = true;
    } else {
      return npyError("unexpected header key '" + *key + "'");
    }
    if (!lex.consume(',') && !lex.peek('}'))
      return npyError("malformed header dict");
  }
  if (!lex.atEnd())
    return npyError("trailing characters after the header dict");
  if (!seenDescr || !seenOrder || !seenShape)
    return npyError("header must have 'descr', 'fortran_order' and 'shape'");
  return header;
}

static std::optional<DType> dtypeFromDescr(StringRef descr) {
  // Single-byte types are written with '|'; '=' means native, which is
  // little-endian on every platform we build for.
  char order = descr.empty() ? 0 : descr.front();
  StringRef code = descr.drop_front();
  if (order == '|' || order == '<' || order == '=') {
    if (code == "b1" || code == "?")
      return DType::I1;
    if (code == "i1")
      return DType::I8;
  }
  if (order == '<' || order == '=') {
    if (code == "i2")
      return DType::I16;
    if (code == "i4")
      return DType::I32;
    if (code == "i8")
      return DType::I64;
    if (code == "f2")
      return DType::F16;
    if (code == "f4")
      return DType::F32;
    if (code == "f8")
      return DType::F64;
  }
  return std::nullopt;
}

StringRef ktflow::host::npyDescr(DType t) {
  switch (t) {
  case DType::I1:
    return "|b1";
  case DType::I8:
    return "|i1";
  case DType::I16:
    return "<i2";
  case DType::I32:
    return "<i4";
  case DType::I64:
  case DType::Index:
    return "<i8";
  case DType::F16:
    return "<f2";
  case DType::BF16:
  case DType::DF16:
  case DType::F32:
    return "<f4";
  case DType::F64:
    return "<f8";
  }
  return "<f8";
}

DType ktflow::host::npyStorageType(DType t) {
  switch (t) {
  case DType::BF16:
  case DType::DF16:
    return DType::F32;
  case DType::Index:
    return DType::I64;
  default:
    return t;
  }
}

static uint64_t readLE(const char *p, unsigned bytes) {
  uint64_t v = 0;
  for (unsigned i = 0; i < bytes; ++i)
    v |= static_cast<uint64_t>(static_cast<unsigned char>(p[i])) << (8 * i);
  return v;
}

static void writeLE(std::string &out, uint64_t v, unsigned bytes) {
  for (unsigned i = 0; i < bytes; ++i)
    out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

llvm::Expected<NpyLayout> ktflow::host::parseNpyLayout(StringRef bytes) {
  static const char magic[] = "\x93NUMPY";
  if (bytes.size() < 10 || !bytes.starts_with(StringRef(magic, 6)))
    return npyError("missing \\x93NUMPY magic");
  unsigned major = static_cast<unsigned char>(bytes[6]);
  unsigned lenBytes;
  if (major == 1)
    lenBytes = 2;
  else if (major == 2 || major == 3)
    lenBytes = 4;
  else
    return npyError("unsupported format version " + llvm::Twine(major));
  size_t start = 8 + lenBytes;
  if (bytes.size() < start)
    return npyError("truncated header length");
  uint64_t headerLen = readLE(bytes.data() + 8, lenBytes);
  if (bytes.size() < start + headerLen)
    return npyError("truncated header");
  llvm::Expected<Header> header = parseHeader(bytes.substr(start, headerLen));
  if (!header)
    return header.takeError();
  if (header->fortranOrder)
    return npyError("Fortran-ordered arrays are not supported");
  std::optional<DType> dtype = dtypeFromDescr(header->descr);
  if (!dtype)
    return npyError("unsupported dtype '" + header->descr +
                    "' (supported: little-endian b1, i1, i2, i4, i8, f2, "
                    "f4, f8)");
  uint64_t count = 1;
  for (int64_t d : header->shape) {
    if (d != 0 && count > (uint64_t(1) << 40) / static_cast<uint64_t>(d))
      return npyError("shape is too large");
    count *= static_cast<uint64_t>(d);
  }
  unsigned elemBytes = byteSize(*dtype);
  StringRef payload = bytes.drop_front(start + headerLen);
  if (payload.size() != count * elemBytes)
    return npyError("payload has " + llvm::Twine(payload.size()) +
                    " bytes, expected " + llvm::Twine(count * elemBytes));
  return NpyLayout{*dtype, header->shape, payload};
}

llvm::Expected<Tensor> ktflow::host::parseNpy(StringRef bytes) {
  llvm::Expected<NpyLayout> layout = parseNpyLayout(bytes);
  if (!layout)
    return layout.takeError();
  DType dtype = layout->dtype;
  Tensor tensor = Tensor::zeros(dtype, {});
  tensor.shape = layout->shape;
  uint64_t count = tensor.numElements();
  unsigned elemBytes = byteSize(dtype);
  const char *p = layout->payload.data();
  if (isFloat(dtype)) {
    tensor.floats.resize(count);
    for (uint64_t i = 0; i < count; ++i)
      tensor.floats[i] =
          bitsToFloat(readLE(p + i * elemBytes, elemBytes), dtype);
  } else {
    tensor.ints.resize(count);
    for (uint64_t i = 0; i < count; ++i) {
      int64_t raw = static_cast<int64_t>(readLE(p + i * elemBytes, elemBytes));
      // Numpy bools are any non-zero byte.
      tensor.ints[i] = dtype == DType::I1 ? (raw != 0) : wrapInt(raw, dtype);
    }
  }
  return tensor;
}

llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
ktflow::host::readNpyBytes(StringRef path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
  if (!buffer)
    return llvm::createStringError(buffer.getError(),
                                   "cannot read '" + path +
                                       "': " + buffer.getError().message());
  return std::move(*buffer);
}

llvm::Error ktflow::host::inNpyFile(StringRef path, llvm::Error error) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 path + ": " +
                                     llvm::toString(std::move(error)));
}

llvm::Expected<Tensor> ktflow::host::readNpyFile(StringRef path) {
  llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      readNpyBytes(path);
  if (!buffer)
    return buffer.takeError();
  llvm::Expected<Tensor> tensor = parseNpy((*buffer)->getBuffer());
  if (!tensor)
    return inNpyFile(path, tensor.takeError());
  return tensor;
}

std::string ktflow::host::npyHeader(DType dtype, llvm::ArrayRef<int64_t> shape,
                                    unsigned version) {
  // numpy spells shapes as Python tuples: "()", "(96,)", "(96, 64)".
  std::string shapeText = "(";
  for (auto [i, d] : llvm::enumerate(shape))
    shapeText += (i ? ", " : "") + std::to_string(d);
  if (shape.size() == 1)
    shapeText += ",";
  shapeText += ")";
  std::string dict = "{'descr': '" + npyDescr(dtype).str() +
                     "', 'fortran_order': False, 'shape': " + shapeText + ", }";
  // Pad so that magic + length + header is a multiple of 64, ending in \n.
  auto build = [&](unsigned major) {
    unsigned lenBytes = major == 1 ? 2 : 4;
    size_t unpadded = 8 + lenBytes + dict.size() + 1;
    size_t padding = (64 - unpadded % 64) % 64;
    std::string header = dict + std::string(padding, ' ') + "\n";
    std::string out("\x93NUMPY", 6);
    out.push_back(static_cast<char>(major));
    out.push_back(0);
    writeLE(out, header.size(), lenBytes);
    out += header;
    return out;
  };
  if (version == 2 || (version == 0 && dict.size() + 64 > 65535))
    return build(2);
  return build(1);
}

std::string ktflow::host::serializeNpy(const Tensor &tensor, unsigned version) {
  DType stored = npyStorageType(tensor.dtype);
  std::string out = npyHeader(tensor.dtype, tensor.shape, version);
  unsigned elemBytes = byteSize(stored);
  int64_t n = tensor.numElements();
  out.reserve(out.size() + n * elemBytes);
  for (int64_t i = 0; i < n; ++i) {
    uint64_t bits;
    if (isFloat(tensor.dtype))
      bits = floatToBits(tensor.floats[i], stored);
    else
      bits = static_cast<uint64_t>(tensor.ints[i]);
    writeLE(out, bits, elemBytes);
  }
  return out;
}

llvm::Error ktflow::host::writeNpyFile(StringRef path, const Tensor &tensor,
                                       unsigned version) {
  return writeOutputFile(path, [&](llvm::raw_ostream &os) {
    os << serializeNpy(tensor, version);
  });
}
