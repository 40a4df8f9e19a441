//===- Bindings.cpp - Binding a kernel from command-line text -------------===//
//
// This file implements the text bindings of `ktflow interp` and the printing
// and writing of its outputs.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Interpreter/Bindings.h"

#include "ktflow/HostTensor/Npy.h"
#include "ktflow/Support/Assignment.h"

#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace ktflow;
using namespace ktflow::interp;

/// `error` prefixed by the option it is about: "--FLAG TEXT: message".
static Error about(StringRef flag, StringRef text, Error error) {
  return createStringError("--" + flag + " " + text + ": " +
                           toString(std::move(error)));
}

Error ktflow::interp::bindArguments(Interpreter &interpreter,
                                    ArrayRef<std::string> scalars,
                                    ArrayRef<std::string> inputs) {
  for (StringRef text : scalars) {
    Expected<Assignment> arg = parseAssignment(text, "arg");
    if (!arg)
      return arg.takeError();
    if (Error err = interpreter.setScalar(arg->name, arg->value))
      return about("arg", text, std::move(err));
  }
  for (StringRef text : inputs) {
    Expected<Assignment> input = parseAssignment(text, "input");
    if (!input)
      return input.takeError();
    Expected<host::InputSpec> spec = host::InputSpec::parse(input->value);
    if (!spec)
      return about("input", text, spec.takeError());
    if (Error err = interpreter.setInput(input->name, std::move(*spec)))
      return about("input", text, std::move(err));
  }
  return Error::success();
}

Expected<std::vector<OutputFile>>
ktflow::interp::parseOutputFiles(const Interpreter &interpreter,
                                 ArrayRef<std::string> outputs) {
  std::vector<OutputFile> files;
  for (StringRef text : outputs) {
    Expected<Assignment> output = parseAssignment(text, "output");
    if (!output)
      return output.takeError();
    if (!output->name.starts_with("@"))
      if (Expected<unsigned> position =
              interpreter.resolveArgument(output->name);
          !position)
        return about("output", text, position.takeError());
    files.push_back({output->name.str(), output->value.str()});
  }
  return files;
}

Error ktflow::interp::writeOutputFiles(const Interpreter &interpreter,
                                       ArrayRef<OutputFile> files) {
  for (const OutputFile &file : files) {
    Expected<host::Tensor> tensor = interpreter.getTensor(file.name);
    if (!tensor)
      return about("output", file.name, tensor.takeError());
    if (Error err = host::writeNpyFile(file.path, *tensor))
      return err;
  }
  return Error::success();
}

void ktflow::interp::printOutputs(raw_ostream &os,
                                  const Interpreter &interpreter) {
  for (const OutputTensor &out : interpreter.getOutputs())
    host::printTensorSummary(os, out.name, out.tensor);
  const InterpreterOptions &options = interpreter.getOptions();
  if (options.chargeIntermediates)
    os << "scratchpad: intermediates peak at "
       << interpreter.getStatistics().peakIntermediateBytes
       << " bytes on one tile, of " << options.scratchpadBytes << "\n";
}
