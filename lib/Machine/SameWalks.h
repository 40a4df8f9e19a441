//===- SameWalks.h - Programs whose walks are one another's, renamed -*- C++
//-*-===//
//
// The lanes of a kernel run one program each, alike but for their own
// FIFOs, sync channels and scratchpads and the immediates that place
// their grid points (addresses). Where two programs differ in nothing
// else the walk reads (the sizes, trip counts and index bounds, the
// units', links' and memories' rates, the routes' costs), the walk of
// one is the walk of the other with its resources renamed: the
// whole-kernel estimate (Estimate.cpp) walks one and copies it.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_MACHINE_SAMEWALKS_H
#define KTFLOW_LIB_MACHINE_SAMEWALKS_H

#include "ProgramWalker.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ktflow::machine::detail {
/// One-to-one renamings of the FIFOs, sync channels, memories and units a
/// walked program names onto another program's.
struct Renaming {
  struct OneToOne {
    llvm::DenseMap<uint32_t, uint32_t> to, from;
    /// Adds x -> y; false where x or y is already paired otherwise.
    bool bind(uint32_t x, uint32_t y);
    uint32_t operator()(uint32_t x) const { return to.lookup(x); }
  };
  OneToOne fifos, syncs, memories, units;
};

/// The registers the value `in` writes is computed from, if it writes one
/// (a loop's: its start and step).
llvm::SmallVector<uint32_t, 3> scalarSources(const Inst &in);
/// Whether `in` writes a scalar register (its `a`).
bool writesScalar(const Inst &in);
/// The scalar registers an instruction's cost reads: the operands that
/// size a transfer, count a loop's trips or bound an index.
llvm::SmallVector<uint32_t, 3> costOperands(const Inst &in);

/// Where each scalar register of a program is defined and which loops are
/// around each instruction: what Constants reads of the instructions but
/// their immediates, the same for programs that differ only there.
struct ConstantsShape {
  explicit ConstantsShape(const UnitProgram &program);
  /// Per register, its last definition and whether it is the only one.
  std::vector<size_t> definedAt;
  std::vector<bool> single;
  /// Per instruction, the loop_end of the innermost loop around it
  /// (SIZE_MAX outside loops).
  std::vector<size_t> loopEnds;
};

/// Each place a program names a FIFO, sync channel or memory (a resource
/// renaming pairs with another program's), in program order: renaming
/// compares the rest of each instruction at once and pairs these names
/// through per-program indices (SameWalks::renaming binding each name in a
/// hash map was a quarter of swiglu_ffn_64x1024x4096's estimate on
/// spyre_like, with the field-by-field comparison of each instruction).
struct ResourcesNamed {
  enum Kind : uint8_t { Fifo, Sync, Memory, kNumKinds };
  struct Place {
    uint32_t pc;
    /// The instruction's field (Inst::a, Inst::b, ...: kNameFields).
    uint8_t field;
    Kind kind;
    /// Which of the program's resources of its kind, numbered as first
    /// named.
    uint32_t index;
  };
  std::vector<Place> places;
  /// Per kind, the program's resources in the order first named.
  std::vector<uint32_t> resources[kNumKinds];
  /// Per memory (as numbered), whether a transfer reads it (its route to
  /// the unit is compared) and whether one writes it (the route from the
  /// unit).
  std::vector<std::pair<bool, bool>> memoryReadWritten;
  /// Per instruction, the fields it names resources at: bit f for
  /// kNameFields[f]. Renaming compares the rest of the instruction's bits
  /// (masking these out of its words was cheaper than comparing a copy
  /// with the walked program's names written in).
  std::vector<uint8_t> fieldsNamed;

  ResourcesNamed() = default;
  explicit ResourcesNamed(const UnitProgram &program);
  /// The places `in` names resources at (field, kind, whether a memory is
  /// read), the order renaming pairs them in.
  static llvm::SmallVector<std::tuple<uint8_t, Kind, bool>, 2>
  placesOf(const Inst &in);
  /// The fields an instruction names resources at, by index.
  static constexpr uint32_t Inst::*kNameFields[] = {&Inst::a, &Inst::b,
                                                    &Inst::c};
};

/// The scalar registers of a program that hold one value wherever they
/// are read: those with one definition that runs before every read (a
/// set_imm, or an alu, mov_s or select_s of such registers), and the
/// register of a loop of at most one trip whose bounds and step are such,
/// inside the loop (the walk forgets it past the loop's end).
///
/// A register's value is found when first asked for (at(), counts()), from
/// those of its definition's sources: the estimate asks about a few loops
/// of each program (SameWalks::renaming, deviceMemoriesMoved), and stepping
/// every definition of every program compared was a tenth of
/// swiglu_ffn_64x1024x4096's estimate on spyre_like. The values are those
/// of stepping every definition in program order. They are kept in one
/// slot per register, not a hash map of the registers found: its lookups
/// (three or four per definition evaluated) were a fifth of
/// softmax_4096x1024's estimate on spyre_like.
class Constants {
public:
  /// The values of the definitions before `end`.
  explicit Constants(const UnitProgram &program, size_t end = SIZE_MAX);
  /// The same, for a program whose shape is `shape` (a program of the same
  /// instructions but for immediates; the program itself, found before).
  Constants(const UnitProgram &program,
            std::shared_ptr<const ConstantsShape> shape, size_t end = SIZE_MAX);
  /// Whether `reg` holds its value at instruction `pc`: its definition
  /// comes first, and every loop around it is around `pc` too.
  bool at(uint32_t reg, size_t pc) {
    if (!definedBefore(reg, pc))
      return false;
    return found(reg) != NotConstant &&
           pc <= shape->loopEnds[shape->definedAt[reg]] &&
           pc <= slots[reg].scopeEnd;
  }
  /// Whether a loop's bounds and step hold their values at it.
  bool counts(size_t pc) {
    const Inst &in = (*insts)[pc];
    return at(in.b, pc) && at(in.c, pc) && at(in.d, pc);
  }
  /// The trips of a loop that counts().
  double tripsAt(size_t pc) const {
    const Inst &in = (*insts)[pc];
    return ProgramWalker::tripsOf(valueOf(in.b), valueOf(in.c), valueOf(in.d));
  }
  const std::shared_ptr<const ConstantsShape> &getShape() const {
    return shape;
  }

private:
  /// What is known of a register: not asked yet, not a constant, or a
  /// constant whose value is unknown (an alu that fails) or `Slot::value`.
  enum State : uint8_t { Unfound, NotConstant, Unknown, Known };
  /// A register's value and, for a loop's, the loop's end (up to which it
  /// holds it): set where its state is found, left uninitialised before
  /// (a program's registers are thousands, its loops asked about a few).
  struct Slot {
    int64_t value;
    size_t scopeEnd;
  };
  /// Whether `reg` has one definition, before `pc` and `end`.
  bool definedBefore(uint32_t reg, size_t pc) const {
    return reg < shape->single.size() && shape->single[reg] &&
           shape->definedAt[reg] < pc && shape->definedAt[reg] < end;
  }
  /// `reg`'s state, found first where it is not.
  State found(uint32_t reg) {
    return states[reg] != Unfound ? State(states[reg]) : find(reg);
  }
  State find(uint32_t reg);
  /// The value of a constant register, found.
  KnownScalar valueOf(uint32_t reg) const {
    return states[reg] == Known ? KnownScalar(slots[reg].value) : std::nullopt;
  }
  /// Finds `reg`'s value from those of its definition's sources, found.
  void evaluate(uint32_t reg);
  void set(uint32_t reg, State state, KnownScalar value = std::nullopt,
           size_t scopeEnd = SIZE_MAX) {
    states[reg] = value ? Known : state;
    slots[reg] = {value.value_or(0), scopeEnd};
  }

  const std::vector<Inst> *insts;
  std::shared_ptr<const ConstantsShape> shape;
  size_t end;
  /// Per register, its State and its Slot.
  std::vector<uint8_t> states;
  std::unique_ptr<Slot[]> slots;
};

/// What the walk reads of a walked program (each loop's trips, each
/// transfer's and index read's size, in the order sameCostOperands
/// compares them), once a comparison has gone through it all: the next
/// comparisons with the program replay it rather than step its scalars
/// again (a production kernel's lanes are each compared with one walked
/// lane: rope_163840x128 on mesh_device stepped its DMA engine's scalars
/// for each of its sixteen tiles, 70 % of its estimate).
struct ReadTrace {
  std::vector<int64_t> values;
  bool complete = false;
  /// Each loop the first comparison entered, in the order entered: where
  /// its values and those of the loops inside it end, and the walk's
  /// iterations and index reads counted by its end. A loop whose trips
  /// and body no differing immediate reaches is the same in the next
  /// comparisons: they skip to its end.
  struct Loop {
    size_t valuesEnd, loopsEnd;
    double iterationsWalked;
    int64_t indexReads;
  };
  std::vector<Loop> loops;
  /// The loops whose trips a replay decided at once, from the ranges of
  /// their scalars over all trips rather than trip by trip (TripRanges.h).
  size_t rangedLoops = 0;
  /// Per loop entered (as `loops`), whether the trips a replay decided at
  /// once (all but the last) recorded the first trip's values, looked at
  /// for trips of `width` values (SIZE_MAX: not yet): the replays compare
  /// the first trip alone where so.
  struct Alike {
    size_t width = SIZE_MAX;
    bool alike = false;
  };
  std::vector<Alike> tripsAlike;
  /// One instruction a comparison steps or compares, as it treats it: in
  /// program order, without the instructions it passes. The lockstep walk
  /// reads these rather than the two programs' instructions and the
  /// per-instruction flags (stepping a copied lane was 77 % of
  /// rope_163840x128's estimate on mesh_device).
  struct Step {
    enum Kind : uint8_t {
      /// Steps `to`'s scalar (`from`'s too where `stepsFrom`) into `x`:
      /// SetImm (of `imm`, the same in both, or SetImmOfTo of `to`'s own
      /// immediate), MovS and Alu (from `y` and `z`), SelectS (`y` ? `z`
      /// : `w`).
      SetImm,
      SetImmOfTo,
      MovS,
      Alu,
      SelectS,
      Loop,
      /// An index read, its bound compared or (PassIndex) passed.
      ReadIndex,
      PassIndex,
      /// Compares `count` values `from` reads (at `x`, `y`, `z` of both).
      Compare,
      /// Passes `count` values no differing immediate reaches.
      Pass,
      Halt,
    };
    Kind kind = Halt;
    bool stepsFrom = false;
    /// The values compared or passed; an Alu's operation.
    uint8_t count = 0;
    uint32_t x = kNoReg, y = kNoReg, z = kNoReg, w = kNoReg;
    uint32_t pc = 0;
    /// A loop's body is steps [this + 1, bodyEnd); the walk goes on there.
    uint32_t bodyEnd = 0;
    int64_t imm = 0;
  };
  /// A comparison's steps, and the scalar instructions it steps once
  /// before them: those whose registers hold one value wherever they are
  /// read (definedBeforeUse), from such registers.
  struct Compiled {
    std::vector<Step> code;
    std::vector<uint32_t> once;
  };
  /// What a set of differing immediates (the set_imm instructions whose
  /// immediates differ) reaches of what the walk reads, per instruction:
  /// whether its scalar may reach a read those immediates reach (so it is
  /// stepped), whether what it reads may differ (so it is compared), and
  /// for a loop whether its trips and body reach none of these (so it is
  /// skipped).
  struct Reach {
    std::vector<bool> stepped, compared, skipped;
    /// The steps of the replays with these differing immediates.
    Compiled compiled;
    /// Per loop walked trip by trip (by its instruction), how often its
    /// trips were decided at once from their ranges (TripRanges.h) less how
    /// often that failed: tried while above kRangedGivenUp (a body that
    /// cannot be, INT8_MIN). Empty until a loop is tried.
    std::vector<int8_t> rangedBalance;
    static constexpr int8_t kRangedGivenUp = -4;
  };
  std::map<std::vector<size_t>, Reach> reaches;
  /// Per instruction of the walked program, the trips of its loop if its
  /// bounds are constants (-1 otherwise): the same for every comparison
  /// with it, found by the first (not allocated and found again for each
  /// lane compared).
  std::vector<double> countedTrips;
  /// Per scalar register, whether its one definition runs before every
  /// instruction that names it in the same trip of the loop around it.
  std::vector<bool> definedBeforeUse;
};

/// What the set_imm instructions `differing` of `program` reach of what the
/// walk reads (ReadTrace::Reach; `counted` the loops whose bounds are
/// constants), found once per walked program and set of them
/// (LockstepReach.cpp).
ReadTrace::Reach reachOf(const UnitProgram &program,
                         llvm::ArrayRef<size_t> counted,
                         llvm::ArrayRef<size_t> differing);
/// Per scalar register of `program`, whether it has one definition that
/// runs before every instruction naming it, in the same trip of the loop
/// around it (ReadTrace::definedBeforeUse).
std::vector<bool> definedBeforeEveryUse(const UnitProgram &program);

/// Whether `from` and `to`, the same instructions but for the immediates
/// of the set_imm instructions `differing` (those whose scalars may be
/// read), give what the walk reads (each loop's trips, each transfer's
/// and index read's size) the same values wherever the walk reads them:
/// their scalars that may reach it (`read`, per instruction) stepped
/// together as the walk steps them. `counted` are the loops whose bounds
/// are constants and `trips` theirs, the same in both.
bool sameCostOperands(const UnitProgram &from, const UnitProgram &to,
                      const std::vector<bool> &read,
                      llvm::ArrayRef<size_t> counted,
                      llvm::ArrayRef<double> trips,
                      llvm::ArrayRef<size_t> differing, ReadTrace &fromReads);

/// The programs already walked whose walks the others may copy.
class SameWalks {
public:
  /// Walks of fewer iterations than this cost less than finding a program
  /// the same: they are not copied.
  static constexpr double kWorthCopying = 16;
  /// At most this many walks of the same instructions are tried for a
  /// program (the last copied first): where the lanes' walks differ (the
  /// rows of each core's DMA engine), trying each walked one cost more than
  /// the copies saved (rmsnorm_256x4096 on spyre_like).
  static constexpr unsigned kMostTried = 4;

  SameWalks(const Machine &machine, const Executable &exe, RouteCosts &routes)
      : machine(machine), exe(exe), routes(routes) {}

  /// A walked program (the index of its walker) whose walk, renamed, is
  /// that of `program`, and the renaming.
  std::optional<std::pair<size_t, Renaming>> find(const UnitProgram &program);

  /// Records `program`, walked by `walker` (walker `index`), as one to
  /// copy if its walk was long.
  void add(const UnitProgram &program, const ProgramWalker &walker,
           size_t index);

private:
  struct Walked {
    const UnitProgram *program = nullptr;
    size_t walker = 0;
    /// The loops whose bounds and step are constants (SameWalks.cpp), and
    /// their trips.
    std::vector<size_t> counted;
    std::vector<double> trips;
    /// Per instruction, whether the scalar it writes may reach what the
    /// walk reads (sizes, trip counts, index bounds).
    std::vector<bool> read;
    /// Its scalars' definitions and loops (those of the programs copying
    /// it: Constants).
    std::shared_ptr<const ConstantsShape> shape;
    /// Where the program names its FIFOs, sync channels and memories.
    ResourcesNamed named;
    /// Whether the five above are found (once another program of its
    /// instructions is looked for).
    bool analysed = false;
    ReadTrace reads;
  };
  static void analyse(Walked &walked);
  /// The renaming of `from`'s resources onto `to`'s if `to` walks as
  /// `from` does; `constants` are `to`'s, found when first needed.
  std::optional<Renaming> renaming(Walked &from, const UnitProgram &to,
                                   std::optional<Constants> &constants) const;
  /// Programs that may walk alike: of units of one kind, as long.
  std::pair<std::string, size_t> bucketOf(const UnitProgram &program) const {
    return {machine.units[program.unit].kind, program.insts.size()};
  }

  const Machine &machine;
  const Executable &exe;
  RouteCosts &routes;
  std::vector<Walked> walked;
  std::map<std::pair<std::string, size_t>, std::vector<size_t>> buckets;
};
} // namespace ktflow::machine::detail

#endif // KTFLOW_LIB_MACHINE_SAMEWALKS_H
