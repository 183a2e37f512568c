// Facts only the validation AST still has: uniform initialisers and which IO variables had explicit
// locations.
//
// Uniform initialisers: the Vulkan-relaxed parse drops them ("Ignoring initializer for uniform"), but the
// validation parse (GL rules) folds each into a constant attached to the uniform's symbol. Every form GL
// allows is covered, because GL requires the initialiser to be a constant expression and glslang folds all of
// those: scalars, vectors, matrices (column-major), arrays of them, structs and arrays of structs, of float,
// int, uint, bool (written as 0/1) and double types. Members/elements that are not active (absent from
// reflection) are skipped.
#include <cstring>
#include <set>

#include "shader/internal.h"

namespace caldera::shader::internal {
namespace {

const glslang::TIntermAggregate* LinkerObjects(const glslang::TIntermediate& intermediate) {
  const glslang::TIntermAggregate* root =
      intermediate.getTreeRoot() ? intermediate.getTreeRoot()->getAsAggregate() : nullptr;
  if (!root) return nullptr;
  for (const TIntermNode* node : root->getSequence()) {
    const glslang::TIntermAggregate* agg = node->getAsAggregate();
    if (agg && agg->getOp() == glslang::EOpLinkerObjects) return agg;
  }
  return nullptr;
}

void WriteScalar(const glslang::TConstUnion& c, glslang::TBasicType type, size_t offset,
                 std::vector<uint8_t>& block) {
  uint8_t bytes[8] = {};
  size_t size = 4;
  switch (type) {
    case glslang::EbtFloat: {
      const float f = static_cast<float>(c.getDConst());
      std::memcpy(bytes, &f, 4);
      break;
    }
    case glslang::EbtDouble: {
      const double d = c.getDConst();
      std::memcpy(bytes, &d, 8);
      size = 8;
      break;
    }
    case glslang::EbtInt: {
      const int32_t i = c.getIConst();
      std::memcpy(bytes, &i, 4);
      break;
    }
    case glslang::EbtUint: {
      const uint32_t u = c.getUConst();
      std::memcpy(bytes, &u, 4);
      break;
    }
    case glslang::EbtBool: {
      const uint32_t b = c.getBConst() ? 1u : 0u;
      std::memcpy(bytes, &b, 4);
      break;
    }
    default:
      return;  // no other basic type can be a default-block member
  }
  if (offset + size <= block.size()) std::memcpy(block.data() + offset, bytes, size);
}

// Writes one non-array, non-struct value (scalar, vector or matrix) and advances `index` past its components.
void WriteLeaf(const glslang::TType& type, const glslang::TConstUnionArray& values, int& index,
               int64_t offset, int32_t matrix_stride, std::vector<uint8_t>& block) {
  const size_t comp_size = type.getBasicType() == glslang::EbtDouble ? 8 : 4;
  if (type.isMatrix()) {
    for (int c = 0; c < type.getMatrixCols(); ++c) {
      for (int r = 0; r < type.getMatrixRows(); ++r) {
        if (index < values.size() && offset >= 0)
          WriteScalar(values[index], type.getBasicType(), offset + c * matrix_stride + r * comp_size, block);
        ++index;
      }
    }
    return;
  }
  const int comps = type.getVectorSize() > 0 ? type.getVectorSize() : 1;
  for (int i = 0; i < comps; ++i) {
    if (index < values.size() && offset >= 0)
      WriteScalar(values[index], type.getBasicType(), offset + i * comp_size, block);
    ++index;
  }
}

int ComponentCount(const glslang::TType& type) {
  return type.computeNumComponents();
}

void WriteValue(const glslang::TType& type, const std::string& name, const glslang::TConstUnionArray& values,
                int& index, const std::map<std::string, UniformPlacement>& placement,
                std::vector<uint8_t>& block) {
  if (type.isArray()) {
    const glslang::TType elem(type, 0);
    const int n = type.getOuterArraySize();
    if (elem.isStruct() || elem.isArray()) {
      for (int i = 0; i < n; ++i)
        WriteValue(elem, name + "[" + std::to_string(i) + "]", values, index, placement, block);
      return;
    }
    auto it = placement.find(name + "[0]");
    if (it == placement.end()) it = placement.find(name);
    for (int i = 0; i < n; ++i) {
      if (it != placement.end() && i < it->second.array_size) {
        WriteLeaf(elem, values, index, it->second.offset + static_cast<int64_t>(i) * it->second.array_stride,
                  it->second.matrix_stride, block);
      } else {
        index += ComponentCount(elem);
      }
    }
    return;
  }
  if (type.isStruct()) {
    for (const glslang::TTypeLoc& member : *type.getStruct()) {
      WriteValue(*member.type, name + "." + member.type->getFieldName().c_str(), values, index, placement,
                 block);
    }
    return;
  }
  auto it = placement.find(name);
  if (it == placement.end()) {
    index += ComponentCount(type);
    return;
  }
  WriteLeaf(type, values, index, it->second.offset, it->second.matrix_stride, block);
}

}  // namespace

std::vector<UniformInitializer> CollectUniformInitializers(const glslang::TIntermediate& intermediate) {
  std::vector<UniformInitializer> out;
  const glslang::TIntermAggregate* objects = LinkerObjects(intermediate);
  if (!objects) return out;
  for (const TIntermNode* node : objects->getSequence()) {
    const glslang::TIntermSymbol* sym = node->getAsSymbolNode();
    if (!sym || sym->getQualifier().storage != glslang::EvqUniform || sym->getConstArray().empty()) continue;
    if (sym->getBasicType() == glslang::EbtBlock) continue;
    out.push_back({sym->getName().c_str(), &sym->getType(), sym->getConstArray()});
  }
  return out;
}

void ApplyUniformInitializers(const std::vector<UniformInitializer>& inits,
                              const std::map<std::string, UniformPlacement>& placement,
                              std::vector<uint8_t>& block) {
  for (const UniformInitializer& init : inits) {
    int index = 0;
    WriteValue(*init.type, init.name, init.values, index, placement, block);
  }
}

std::vector<DeclaredIo> CollectDeclaredIo(const glslang::TIntermediate& intermediate,
                                          glslang::TStorageQualifier storage) {
  std::vector<DeclaredIo> out;
  const glslang::TIntermAggregate* objects = LinkerObjects(intermediate);
  if (!objects) return out;
  for (const TIntermNode* node : objects->getSequence()) {
    const glslang::TIntermSymbol* sym = node->getAsSymbolNode();
    if (!sym || sym->getQualifier().storage != storage || sym->getQualifier().builtIn != glslang::EbvNone)
      continue;
    const std::string name = sym->getName().c_str();
    if (name.compare(0, 3, "gl_") == 0 || name.compare(0, 6, "anon@") == 0) continue;
    DeclaredIo io;
    io.name = name;
    io.explicit_location = sym->getQualifier().hasLocation();
    if (io.explicit_location) io.location = static_cast<int>(sym->getQualifier().layoutLocation);
    if (sym->getQualifier().hasIndex()) io.index = static_cast<int>(sym->getQualifier().layoutIndex);
    io.location_count =
        glslang::TIntermediate::computeTypeLocationSize(sym->getType(), intermediate.getStage());
    out.push_back(std::move(io));
  }
  return out;
}

namespace {

// Collects names of uniforms the stage's code reads; the linker-object list (every declaration) is skipped.
class UniformUseTraverser : public glslang::TIntermTraverser {
 public:
  explicit UniformUseTraverser(std::set<std::string>& names) : names_(names) {}
  bool visitAggregate(glslang::TVisit, glslang::TIntermAggregate* node) override {
    return node->getOp() != glslang::EOpLinkerObjects;
  }
  void visitSymbol(glslang::TIntermSymbol* node) override {
    if (node->getQualifier().storage == glslang::EvqUniform) names_.insert(node->getName().c_str());
  }

 private:
  std::set<std::string>& names_;
};

}  // namespace

void CollectLayoutBindings(const glslang::TIntermediate& intermediate, std::map<std::string, int>& out) {
  const glslang::TIntermAggregate* objects = LinkerObjects(intermediate);
  if (!objects) return;
  for (const TIntermNode* node : objects->getSequence()) {
    const glslang::TIntermSymbol* sym = node->getAsSymbolNode();
    if (!sym || sym->getQualifier().storage != glslang::EvqUniform) continue;
    if (sym->getQualifier().hasLocation() && sym->getBasicType() != glslang::EbtBlock)
      out[std::string("loc:") + sym->getName().c_str()] =
          static_cast<int>(sym->getQualifier().layoutLocation);
    if (!sym->getQualifier().hasBinding()) continue;
    const int binding = static_cast<int>(sym->getQualifier().layoutBinding);
    if (sym->getBasicType() == glslang::EbtBlock)
      out[std::string("block:") + sym->getType().getTypeName().c_str()] = binding;
    else
      out[sym->getName().c_str()] = binding;
  }
}

std::set<std::string> CollectExternalSamplers(const glslang::TIntermediate& intermediate) {
  std::set<std::string> names;
  const glslang::TIntermAggregate* objects = LinkerObjects(intermediate);
  if (!objects) return names;
  for (const TIntermNode* node : objects->getSequence()) {
    const glslang::TIntermSymbol* sym = node->getAsSymbolNode();
    if (sym && sym->getQualifier().storage == glslang::EvqUniform &&
        sym->getBasicType() == glslang::EbtSampler && sym->getType().getSampler().isExternal())
      names.insert(sym->getName().c_str());
  }
  return names;
}

std::set<std::string> CollectReferencedUniforms(const glslang::TIntermediate& intermediate) {
  std::set<std::string> names;
  if (intermediate.getTreeRoot()) {
    UniformUseTraverser traverser(names);
    intermediate.getTreeRoot()->traverse(&traverser);
  }
  return names;
}

}  // namespace caldera::shader::internal
