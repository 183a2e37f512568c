// Varyings between stages: GL matches a stage's inputs to the previous stage's outputs by name (interface
// blocks by block name), whatever order or subset each stage declares. glslang's IO mapping numbers each
// stage's interface on its own, in declaration order, so the locations are chosen again here, in the
// SPIR-V, and checked against GL's link rules on the validation ASTs.
#include <glslang/SPIRV/spirv.hpp>
#include <memory>
#include <set>

#include "shader/internal.h"
#include "shader/spirv_editor.h"
#include "shader/spirv_patch.h"

namespace caldera::shader::internal {
namespace {

// What GL matches a variable by: the block name for interface blocks, else the variable name.
std::string MatchKey(const SpirvVariable& v) {
  return v.block ? "block:" + v.type_name : v.name;
}

struct Slot {
  int location = 0;
  int count = 1;
};

// The user variables of one storage class, explicit locations first (they are never moved).
struct Interface {
  struct Var {
    uint32_t id;
    std::string key;
    int count;
    const DeclaredIo* declared;
    bool block;
  };
  std::vector<Var> vars;
};

Interface Collect(const SpirvModule& module, uint32_t storage, bool arrayed,
                  const std::vector<DeclaredIo>& io) {
  Interface out;
  for (const SpirvVariable& v : module.Variables()) {
    if (v.storage_class != storage || v.builtin) continue;
    if (v.name.empty() && !v.block) continue;
    const int count = static_cast<int>(arrayed ? v.element_location_count : v.location_count);
    out.vars.push_back({v.id, MatchKey(v), std::max(1, count), FindDeclaredIo(io, v.name), v.block});
  }
  return out;
}

// Collects the names of `storage` variables the stage's code references (declarations alone do not count).
class IoUseTraverser : public glslang::TIntermTraverser {
 public:
  IoUseTraverser(glslang::TStorageQualifier storage, std::set<std::string>& names)
      : storage_(storage), names_(names) {}
  bool visitAggregate(glslang::TVisit, glslang::TIntermAggregate* node) override {
    return node->getOp() != glslang::EOpLinkerObjects;
  }
  void visitSymbol(glslang::TIntermSymbol* node) override {
    if (node->getQualifier().storage == storage_) names_.insert(node->getName().c_str());
  }

 private:
  glslang::TStorageQualifier storage_;
  std::set<std::string>& names_;
};

std::set<std::string> ReferencedIo(const glslang::TIntermediate& im, glslang::TStorageQualifier storage) {
  std::set<std::string> names;
  IoUseTraverser t(storage, names);
  if (im.getTreeRoot()) im.getTreeRoot()->traverse(&t);
  return names;
}

std::vector<const glslang::TIntermSymbol*> DeclaredSymbols(const glslang::TIntermediate& im,
                                                           glslang::TStorageQualifier storage) {
  std::vector<const glslang::TIntermSymbol*> out;
  const glslang::TIntermAggregate* root = im.getTreeRoot() ? im.getTreeRoot()->getAsAggregate() : nullptr;
  if (!root) return out;
  for (const TIntermNode* node : root->getSequence()) {
    const glslang::TIntermAggregate* agg = node->getAsAggregate();
    if (!agg || agg->getOp() != glslang::EOpLinkerObjects) continue;
    for (const TIntermNode* object : agg->getSequence()) {
      const glslang::TIntermSymbol* sym = object->getAsSymbolNode();
      if (sym && sym->getQualifier().storage == storage && sym->getQualifier().builtIn == glslang::EbvNone)
        out.push_back(sym);
    }
  }
  return out;
}

const char* StageName(EShLanguage stage) {
  return stage == EShLangVertex ? "vertex" : stage == EShLangGeometry ? "geometry" : "fragment";
}

// Inputs no output of the previous stage feeds become private variables: GL leaves their values undefined,
// and Vulkan requires every input location to be written by the previous stage. The variable moves to the
// end of the declarations (its new pointer type may be declared there), its access chains take private
// pointer types, and it leaves the entry point's interface and loses its interface decorations.
bool DemoteInputs(std::vector<uint32_t>& words, const std::set<uint32_t>& ids) {
  SpirvEditor editor;
  if (ids.empty() || !editor.Open(words)) return ids.empty();
  std::set<uint32_t> pointers = ids;  // the variables and every access chain into them
  std::vector<Inst> moved;
  auto& insts = editor.insts();
  for (size_t i = 0; i < insts.size();) {
    Inst& inst = insts[i];
    const uint32_t op = inst[0] & 0xffff;
    if (op == spv::OpVariable && inst.size() >= 4 && ids.count(inst[2])) {
      auto shape = editor.PointerShape(inst[1]);
      if (!shape) return false;
      moved.push_back(Make(spv::OpVariable, {editor.Pointer(spv::StorageClassPrivate, shape->second), inst[2],
                                             spv::StorageClassPrivate}));
      insts.erase(insts.begin() + static_cast<std::ptrdiff_t>(i));
      continue;
    }
    if (op == spv::OpDecorate && inst.size() >= 3 && ids.count(inst[1])) {
      insts.erase(insts.begin() + static_cast<std::ptrdiff_t>(i));
      continue;
    }
    if (op == spv::OpEntryPoint) {
      size_t at = 3;  // past the name: the first word holding a nul byte ends it
      while (at < inst.size()) {
        const uint32_t w = inst[at++];
        if (!(w & 0xffu) || !(w & 0xff00u) || !(w & 0xff0000u) || !(w & 0xff000000u)) break;
      }
      Inst kept(inst.begin(), inst.begin() + static_cast<std::ptrdiff_t>(at));
      for (; at < inst.size(); ++at)
        if (!ids.count(inst[at])) kept.push_back(inst[at]);
      kept[0] = (static_cast<uint32_t>(kept.size()) << 16) | op;
      inst = std::move(kept);
    }
    if ((op == spv::OpAccessChain || op == spv::OpInBoundsAccessChain) && inst.size() >= 4 &&
        pointers.count(inst[3])) {
      auto shape = editor.PointerShape(inst[1]);
      if (!shape) return false;
      inst[1] = editor.Pointer(spv::StorageClassPrivate, shape->second);
      pointers.insert(inst[2]);
    }
    ++i;
  }
  for (Inst& v : moved) {
    const uint32_t id = v[2];
    editor.Declare(id, std::move(v));
  }
  return editor.Assemble(&words);
}

}  // namespace

std::string CheckVaryingInterface(const glslang::TIntermediate& producer,
                                  const glslang::TIntermediate& consumer) {
  std::string log;
  const bool arrayed = consumer.getStage() == EShLangGeometry;
  const auto outputs = DeclaredSymbols(producer, glslang::EvqVaryingOut);
  const std::set<std::string> written = ReferencedIo(producer, glslang::EvqVaryingOut);
  const std::set<std::string> read = ReferencedIo(consumer, glslang::EvqVaryingIn);
  // GLSL 1.10/1.20 (and ESSL 1.00) also reject a varying the fragment shader reads but the vertex shader
  // never writes; later versions leave its value undefined.
  const bool legacy =
      consumer.getProfile() == EEsProfile ? consumer.getVersion() < 300 : consumer.getVersion() < 130;
  for (const glslang::TIntermSymbol* in : DeclaredSymbols(consumer, glslang::EvqVaryingIn)) {
    const std::string name = in->getName().c_str();
    const bool block = in->getBasicType() == glslang::EbtBlock;
    if (name.compare(0, 5, "anon@") == 0 && !block) continue;
    const glslang::TIntermSymbol* out = nullptr;
    for (const glslang::TIntermSymbol* o : outputs) {
      const bool same = block ? o->getBasicType() == glslang::EbtBlock &&
                                    o->getType().getTypeName() == in->getType().getTypeName()
                              : o->getName() == in->getName();
      if (same) out = o;
    }
    const std::string what = std::string(StageName(consumer.getStage())) + " shader input `" +
                             (block ? in->getType().getTypeName().c_str() : name.c_str()) + "'";
    if (!out) {
      if (read.count(name) && !block && !in->getQualifier().hasLocation())
        log += "ERROR: Linking: " + what + " has no matching output in the previous stage\n";
      continue;
    }
    // Geometry inputs are arrays over the primitive's vertices: their element type is the output's type.
    const bool per_vertex = arrayed && in->getType().isArray();
    std::unique_ptr<glslang::TType> element;
    if (per_vertex) element = std::make_unique<glslang::TType>(in->getType(), 0);
    const glslang::TType& in_type = per_vertex ? *element : in->getType();
    const glslang::TType& out_type = out->getType();
    if (!in_type.sameElementType(out_type) || !in_type.sameArrayness(out_type)) {
      log += "ERROR: Linking: " + what + " is declared as " +
             in_type.getCompleteString(true, false, false).c_str() + " but the " +
             StageName(producer.getStage()) + " shader output as " +
             out_type.getCompleteString(true, false, false).c_str() + "\n";
    } else if (legacy && !block && read.count(name) && !written.count(name)) {
      log += "ERROR: Linking: " + what + " is read but the " + StageName(producer.getStage()) +
             " shader never writes it\n";
    }
  }
  return log;
}

std::string MatchVaryingLocations(std::vector<VaryingStage>& chain) {
  std::map<std::string, Slot> previous;  // the previous stage's outputs by match key
  LocationSet previous_taken;
  for (size_t s = 0; s < chain.size(); ++s) {
    SpirvModule& module = *chain[s].module;
    if (s > 0) {
      Interface in = Collect(module, spv::StorageClassInput, chain[s].arrayed_inputs, chain[s].inputs);
      LocationSet taken;
      std::vector<int> location(in.vars.size(), -1);
      for (size_t i = 0; i < in.vars.size(); ++i) {
        const auto& v = in.vars[i];
        if (v.declared && v.declared->explicit_location)
          location[i] = v.declared->location;
        else if (auto p = previous.find(v.key); p != previous.end())
          location[i] = p->second.location;
        if (location[i] >= 0) taken.Mark(location[i], v.count);
      }
      // No output of that name (GL: its value is undefined): a location no output of the previous stage uses,
      // and unless it is a block, a private variable instead of an input.
      std::set<uint32_t> unfed;
      for (size_t i = 0; i < in.vars.size(); ++i) {
        if (location[i] < 0) location[i] = taken.Allocate(in.vars[i].count, &previous_taken);
        module.SetDecoration(in.vars[i].id, spv::DecorationLocation, static_cast<uint32_t>(location[i]));
        if (previous_taken.Free(location[i], in.vars[i].count) && !in.vars[i].block)
          unfed.insert(in.vars[i].id);
      }
      if (!unfed.empty()) {
        std::vector<uint32_t> words = module.take();
        if (!DemoteInputs(words, unfed)) return "ERROR: internal: could not remove an unfed shader input\n";
        module = SpirvModule(std::move(words));
      }
    }
    if (s + 1 == chain.size()) break;  // fragment outputs are assigned with the draw-buffer rules
    Interface out = Collect(module, spv::StorageClassOutput, false, chain[s].outputs);
    previous.clear();
    previous_taken = LocationSet();
    std::vector<int> location(out.vars.size(), -1);
    for (size_t i = 0; i < out.vars.size(); ++i) {
      const auto& v = out.vars[i];
      if (v.declared && v.declared->explicit_location) {
        location[i] = v.declared->location;
        previous_taken.Mark(location[i], v.count);
      }
    }
    for (size_t i = 0; i < out.vars.size(); ++i) {
      const auto& v = out.vars[i];
      if (location[i] < 0) location[i] = previous_taken.Allocate(v.count);
      module.SetDecoration(v.id, spv::DecorationLocation, static_cast<uint32_t>(location[i]));
      previous[v.key] = {location[i], v.count};
    }
  }
  return {};
}

}  // namespace caldera::shader::internal
