#!/usr/bin/env python3
"""Generates the guard layer's dispatch tables and per-command wrappers from vk.xml.

Everything that follows mechanically from the registry lives here, so the hand-written C++ only
contains behaviour: counting every device-level call, finding the objects a vkCmd* call references
(for the run-ahead checks), hashing the arguments of bind/dynamic-state commands (for redundant-bind
counters), and checking destroy/free calls against pending submissions.

Usage: gen_dispatch.py vk.xml hooked_commands.txt out.h out.cpp
"""

import re
import sys
import xml.etree.ElementTree as ET

INSTANCE_HANDLES = {"VkInstance", "VkPhysicalDevice"}
DEVICE_HANDLES = {"VkDevice", "VkQueue", "VkCommandBuffer"}
# Commands the loader-facing code in guard_layer.cpp implements itself.
NOT_WRAPPED = {"vkGetDeviceProcAddr"}
# vkCmdSet* commands that record actions rather than state: never "redundant".
NOT_STATE = ("Event", "Checkpoint", "Performance", "DebugMarker")
# Arguments that select which state slot a bind/set command writes, so that binding set 1 after set 0
# is not compared against set 0.
SLOT_PARAMS = {"pipelineBindPoint", "firstSet", "set", "firstBinding", "firstViewport", "firstScissor",
               "faceMask", "firstAttachment", "firstDiscardRectangle", "firstExclusiveScissor"}
MAX_STRUCT_DEPTH = 3


def declaration(elem):
    """The C declaration text of a <param> or <member>, without <comment> children."""
    parts = [elem.text or ""]
    for child in elem:
        if child.tag != "comment":
            parts.append(child.text or "")
        parts.append(child.tail or "")
    return " ".join("".join(parts).split())


class Param:
    def __init__(self, elem):
        self.decl = declaration(elem)
        self.type = elem.find("type").text
        self.name = elem.find("name").text
        name_tail = elem.find("name").tail or ""
        array = re.match(r"\s*\[([^\]]+)\]", name_tail)
        self.static_array = array.group(1) if array else None
        self.pointers = self.decl.rsplit(self.name, 1)[0].count("*")
        self.const = self.decl.startswith("const")
        self.len = elem.get("len")
        self.noautovalidity = elem.get("noautovalidity") == "true"
        self.optional = elem.get("optional", "").startswith("true")


class Registry:
    def __init__(self, path):
        root = ET.parse(path).getroot()
        self.handles = {}  # name -> (dispatchable, objtypeenum)
        self.handle_alias = {}
        self.structs = {}  # name -> [Param]
        self.struct_alias = {}
        self.commands = {}  # name -> (return type, [Param])
        self.command_alias = {}
        for t in root.iter("type"):
            category = t.get("category")
            if category == "handle":
                if t.get("alias"):
                    self.handle_alias[t.get("name")] = t.get("alias")
                else:
                    macro = t.find("type").text
                    self.handles[t.find("name").text] = (macro == "VK_DEFINE_HANDLE", t.get("objtypeenum"))
            elif category == "struct":
                if t.get("alias"):
                    self.struct_alias[t.get("name")] = t.get("alias")
                else:
                    self.structs[t.get("name")] = [Param(m) for m in t.findall("member")
                                                   if self._for_vulkan(m)]
        for c in root.find("commands").findall("command"):
            if not self._for_vulkan(c):
                continue
            if c.get("alias"):
                self.command_alias[c.get("name")] = c.get("alias")
                continue
            proto = c.find("proto")
            params = [Param(p) for p in c.findall("param") if self._for_vulkan(p)]
            self.commands[proto.find("name").text] = (proto.find("type").text, params)
        self.available = self._available_commands(root)

    @staticmethod
    def _for_vulkan(elem):
        api = elem.get("api")
        return api is None or "vulkan" in api.split(",")

    def _available_commands(self, root):
        """Commands of Vulkan core versions and of non-platform, non-provisional extensions: exactly
        those that vulkan_core.h declares without any VK_USE_PLATFORM_* define."""
        names = set()
        blocks = [f for f in root.findall("feature") if self._for_vulkan(f)]
        for ext in root.find("extensions").findall("extension"):
            if "vulkan" in ext.get("supported", "").split(",") and not ext.get("platform"):
                blocks.append(ext)
        for block in blocks:
            for req in block.findall("require"):
                if not self._for_vulkan(req):
                    continue
                for cmd in req.findall("command"):
                    names.add(cmd.get("name"))
        return names

    def signature(self, name):
        target = self.command_alias.get(name, name)
        while target in self.command_alias:
            target = self.command_alias[target]
        return self.commands[target]

    def canonical(self, name):
        """The name whose dispatch-table entry a wrapper calls: an alias calls its promoted core
        command when that is available, so hooks only deal with one spelling."""
        target = self.command_alias.get(name)
        return target if target in self.available else name

    def handle(self, type_name):
        return self.handles.get(self.handle_alias.get(type_name, type_name))

    def struct(self, type_name):
        return self.structs.get(self.struct_alias.get(type_name, type_name))


def simple_len(length, prefix):
    """C expression for a len attribute, or None when it is not a plain count."""
    if not length:
        return None
    first = length.split(",")[0]
    if re.fullmatch(r"[A-Za-z_]\w*", first):
        return prefix + first
    if re.fullmatch(r"[A-Za-z_]\w*->[A-Za-z_]\w*", first) and not prefix:
        return first
    return None


class UseEmitter:
    """Emits C++ that appends every non-dispatchable handle (and secondary command buffer) reachable
    from a vkCmd* call's arguments to a guard::UseList, descending through const pointers to structs
    whose len the registry spells out. pNext chains and noautovalidity pointers are not followed:
    they may legally hold garbage."""

    def __init__(self, registry):
        self.registry = registry
        self.memo = {}

    def struct_has_handles(self, type_name, depth=0):
        if depth > MAX_STRUCT_DEPTH:
            return False
        key = (type_name, depth)
        if key not in self.memo:
            self.memo[key] = False
            members = self.registry.struct(type_name) or []
            self.memo[key] = any(self.reaches_handle(m, depth + 1) for m in members)
        return self.memo[key]

    def reaches_handle(self, p, depth):
        if p.name == "pNext" or p.static_array:
            return False
        if p.pointers and (p.noautovalidity or not p.const or p.pointers > 1):
            return False
        if self.is_tracked_handle(p.type):
            return not p.pointers or simple_len(p.len, "x.") is not None
        if self.registry.struct(p.type) is not None:
            if p.pointers and simple_len(p.len, "x.") is None and p.len:
                return False
            return self.struct_has_handles(p.type, depth)
        return False

    def is_tracked_handle(self, type_name):
        info = self.registry.handle(type_name)
        if not info:
            return False
        dispatchable, _ = info
        return not dispatchable or type_name == "VkCommandBuffer"

    def emit(self, p, access, prefix, depth, out, indent):
        """access: C expression for the member/param; prefix: how sibling members are spelled."""
        pad = "  " * indent
        if not self.reaches_handle(p, depth):
            return
        objtype = self.registry.handle(p.type)[1] if self.is_tracked_handle(p.type) else None
        length = simple_len(p.len, prefix) if p.pointers else None
        if objtype and not p.pointers:
            out.append(f"{pad}cmd_uses.Add({access}, {objtype});")
            return
        if objtype:
            out.append(f"{pad}for (uint32_t i{depth} = 0; {access} && i{depth} < uint32_t({length}); ++i{depth})")
            out.append(f"{pad}  cmd_uses.Add({access}[i{depth}], {objtype});")
            return
        members = [m for m in self.registry.struct(p.type) if self.reaches_handle(m, depth + 1)]
        var = f"s{depth}"
        if not p.pointers:
            out.append(f"{pad}{{")
            out.append(f"{pad}  const auto& {var} = {access};")
        elif length:
            out.append(f"{pad}for (uint32_t i{depth} = 0; {access} && i{depth} < uint32_t({length}); ++i{depth}) {{")
            out.append(f"{pad}  const auto& {var} = {access}[i{depth}];")
        else:
            out.append(f"{pad}if ({access}) {{")
            out.append(f"{pad}  const auto& {var} = *{access};")
        for m in members:
            self.emit(m, f"{var}.{m.name}", f"{var}.", depth + 1, out, indent + 1)
        out.append(f"{pad}}}")


def is_state_command(name, params):
    if params[0].type != "VkCommandBuffer":
        return False
    if not (name.startswith("vkCmdSet") or name.startswith("vkCmdBind")):
        return False
    return not any(word in name for word in NOT_STATE)


def struct_has_pointers(registry, type_name):
    members = registry.struct(type_name) or []
    return any(m.pointers and m.name != "pNext" for m in members)


def emit_state_hash(registry, params, out):
    """Hash every argument of a bind/set command; returns False when an argument cannot be hashed by
    value (a struct holding pointers), in which case the command is not tracked for redundancy."""
    lines = []
    for p in params[1:]:
        if p.static_array:
            lines.append(f"  bind_state.AddBytes({p.name}, sizeof({p.type}) * {p.static_array});")
        elif p.pointers == 0:
            target = "bind_state.AddSlot" if p.name in SLOT_PARAMS else "bind_state.Add"
            lines.append(f"  {target}({p.name});")
        elif p.pointers == 1 and p.const and p.type != "void":
            if registry.struct(p.type) is not None and struct_has_pointers(registry, p.type):
                return False
            length = simple_len(p.len, "") if p.len else "1"
            if length is None:
                return False
            lines.append(f"  bind_state.AddBytes({p.name}, sizeof({p.type}) * size_t({length}));")
        else:
            return False
    out.extend(lines)
    return True


def destroyed_param(name, params):
    """For vkDestroy*/vkFree* on a device: the argument naming what is destroyed (the last handle)."""
    if params[0].type != "VkDevice" or not (name.startswith("vkDestroy") or name.startswith("vkFree")):
        return None
    candidates = [p for p in params[1:] if p.type.startswith("Vk") and p.type != "VkAllocationCallbacks"]
    return candidates[-1] if candidates else None


def created_count(name, params, registry):
    """For vkCreate*/vkAllocate* on a device: C expression for how many objects a success made."""
    if params[0].type != "VkDevice" or not (name.startswith("vkCreate") or name.startswith("vkAllocate")):
        return None
    out = params[-1]
    if out.const or out.pointers != 1 or not registry.handle(out.type):
        return None
    if out.len:
        return simple_len(out.len, "")
    return "1"


def generate(registry, hooked):
    device_cmds, instance_cmds = [], []
    for name in sorted(registry.available):
        _, params = registry.signature(name)
        first = params[0].type if params else None
        if name in NOT_WRAPPED:
            continue
        if first in DEVICE_HANDLES:
            device_cmds.append(name)
        elif first in INSTANCE_HANDLES:
            instance_cmds.append(name)
    uses = UseEmitter(registry)
    header, source = [], []

    header.append("// Generated by layer/gen_dispatch.py from vk.xml. Do not edit.")
    header.append("#pragma once\n#include <vulkan/vulkan_core.h>\n\n#include <cstddef>\n#include <cstdint>\n")
    header.append("namespace guard {\n")
    header.append("// One counter slot per device-level command, in registry order.")
    header.append("enum class CommandId : uint16_t {")
    for name in device_cmds:
        header.append(f"  {name},")
    header.append("};")
    header.append(f"inline constexpr size_t kCommandCount = {len(device_cmds)};")
    header.append("extern const char* const kCommandNames[kCommandCount];\n")
    for kind, cmds in (("Instance", instance_cmds), ("Device", device_cmds)):
        header.append(f"struct {kind}Dispatch {{")
        for name in cmds:
            header.append(f"  PFN_{name} {name[2:]} = nullptr;")
        header.append("};")
    header.append("\n// VK_OBJECT_TYPE_BUFFER -> \"VkBuffer\", for reports.")
    header.append("const char* ObjectTypeName(VkObjectType type);")
    header.append("\nvoid FillInstanceDispatch(InstanceDispatch& table, PFN_vkGetInstanceProcAddr gipa, VkInstance instance);")
    header.append("void FillDeviceDispatch(DeviceDispatch& table, PFN_vkGetDeviceProcAddr gdpa, VkDevice device);")
    header.append("// The layer's wrapper for a device-level command, or nullptr when it has none.")
    header.append("PFN_vkVoidFunction FindDeviceWrapper(const char* name);\n")
    header.append("struct DeviceState;\n")
    header.append("// Hand-written behaviour (guard_hooks_*.cpp); each calls down the chain itself.")
    header.append("namespace hooks {")
    for name in sorted(hooked):
        ret, params = registry.signature(name)
        args = ", ".join(p.decl for p in params)
        header.append(f"{ret} {name}(DeviceState& layer_device, {args});")
    header.append("}  // namespace hooks\n}  // namespace guard")

    source.append("// Generated by layer/gen_dispatch.py from vk.xml. Do not edit.")
    source.append('#include "guard_dispatch.h"\n\n#include <cstring>\n#include <string_view>\n#include <unordered_map>\n#include <vector>\n')
    source.append('#include "guard_state.h"\n')
    source.append("namespace guard {\n")
    source.append("const char* const kCommandNames[kCommandCount] = {")
    for name in device_cmds:
        source.append(f'    "{name}",')
    source.append("};\n")
    for kind, cmds, getter, handle in (("Instance", instance_cmds, "PFN_vkGetInstanceProcAddr gipa", "VkInstance instance"),
                                       ("Device", device_cmds, "PFN_vkGetDeviceProcAddr gdpa", "VkDevice device")):
        call = "gipa(instance" if kind == "Instance" else "gdpa(device"
        source.append(f"void Fill{kind}Dispatch({kind}Dispatch& table, {getter}, {handle}) {{")
        for name in cmds:
            source.append(f'  table.{name[2:]} = reinterpret_cast<PFN_{name}>({call}, "{name}"));')
        # A promoted command and its extension alias are the same entry point; either may be null
        # depending on what the application enabled, so each falls back to the other.
        for name in cmds:
            target = registry.command_alias.get(name)
            if target in cmds:
                source.append(f"  if (!table.{target[2:]}) table.{target[2:]} = table.{name[2:]};")
                source.append(f"  if (!table.{name[2:]}) table.{name[2:]} = table.{target[2:]};")
        source.append("}\n")

    source.append("const char* ObjectTypeName(VkObjectType type) {")
    source.append("  switch (type) {")
    for handle_name, (_, objtype) in sorted(registry.handles.items()):
        source.append(f'    case {objtype}: return "{handle_name}";')
    source.append('    default: return "unknown";')
    source.append("  }")
    source.append("}\n")
    source.append("namespace {\n")
    for name in device_cmds:
        ret, params = registry.signature(name)
        canon = registry.canonical(name)
        args_decl = ", ".join(p.decl for p in params)
        args = ", ".join(p.name for p in params)
        first = params[0].name
        source.append(f"VKAPI_ATTR {ret} VKAPI_CALL Wrap_{name}({args_decl}) {{")
        source.append(f"  CountCall(CommandId::{name});")
        source.append(f"  DeviceState& layer_device = DeviceStateFor({first});")
        hook = canon if canon in hooked else (name if name in hooked else None)

        def call_down(arguments):
            return f"hooks::{hook}(layer_device, {arguments})" if hook else f"layer_device.dispatch.{canon[2:]}({arguments})"

        forward = call_down(args)
        returns = ret != "void"

        destroyed = destroyed_param(name, params)
        if destroyed is not None:
            length = simple_len(destroyed.len, "") if destroyed.pointers else None
            objtype = registry.handle(destroyed.type)
            if objtype and (not destroyed.pointers or length):
                # A local list, not the thread's scratch one: the hook called below may record uses itself.
                source.append("  UseList destroyed_objects;")
                if destroyed.pointers:
                    source.append(f"  for (uint32_t i = 0; {destroyed.name} && i < uint32_t({length}); ++i)")
                    source.append(f"    destroyed_objects.Add({destroyed.name}[i], {objtype[1]});")
                else:
                    source.append(f"  destroyed_objects.Add({destroyed.name}, {objtype[1]});")
                source.append(f"  if (ShouldDeferDestroy(layer_device, CommandId::{name}, destroyed_objects)) {{")
                capture_args = args
                if destroyed.pointers:
                    source.append(f"    std::vector<{destroyed.type}> kept({destroyed.name}, {destroyed.name} + {length});")
                    capture_args = ", ".join("kept.data()" if p is destroyed else p.name for p in params)
                    deferred = call_down(capture_args)
                    source.append(f"    DeferDestroy(layer_device, destroyed_objects, [=, &layer_device, kept = std::move(kept)]() mutable {{ {deferred}; }});")
                else:
                    source.append(f"    DeferDestroy(layer_device, destroyed_objects, [=, &layer_device]() {{ {forward}; }});")
                source.append("    return VK_SUCCESS;" if returns else "    return;")
                source.append("  }")
                if returns:
                    source.append(f"  {ret} call_result = {forward};")
                else:
                    source.append(f"  {forward};")
                source.append("  ForgetObjects(layer_device, destroyed_objects);")
                source.append("  return call_result;" if returns else "  return;")
                source.append("}\n")
                continue

        created = created_count(name, params, registry)
        if created is not None and ret == "VkResult":
            source.append(f"  VkResult call_result = {forward};")
            source.append(f"  if (call_result >= VK_SUCCESS) CountObjectsCreated(uint64_t({created}));")
            source.append("  return call_result;")
            source.append("}\n")
            continue

        if params[0].type == "VkCommandBuffer":
            body = []
            for p in params[1:]:
                uses.emit(p, p.name, "", 0, body, 1)
            state = []
            tracked_state = is_state_command(name, params) and emit_state_hash(registry, params, state)
            if body:
                source.append("  UseList& cmd_uses = ScratchUseList();")
                source.extend(body)
            if tracked_state:
                source.append(f"  StateKey bind_state(CommandId::{name});")
                source.extend(state)
            if body or tracked_state:
                uses_arg = "&cmd_uses" if body else "nullptr"
                state_arg = "&bind_state" if tracked_state else "nullptr"
                source.append(f"  NoteCommand(layer_device, {first}, {uses_arg}, {state_arg});")
        source.append(f"  return {forward};" if returns else f"  {forward};")
        source.append("}\n")
    source.append("}  // namespace\n")
    source.append("PFN_vkVoidFunction FindDeviceWrapper(const char* name) {")
    source.append("  static const std::unordered_map<std::string_view, PFN_vkVoidFunction> wrappers = {")
    for name in device_cmds:
        source.append(f'      {{"{name}", reinterpret_cast<PFN_vkVoidFunction>(&Wrap_{name})}},')
    source.append("  };")
    source.append("  auto it = wrappers.find(name);")
    source.append("  return it == wrappers.end() ? nullptr : it->second;")
    source.append("}\n\n}  // namespace guard")
    return "\n".join(header) + "\n", "\n".join(source) + "\n"


def main():
    vk_xml, hooks_file, out_h, out_cpp = sys.argv[1:5]
    registry = Registry(vk_xml)
    with open(hooks_file) as f:
        hooked = {line.split("#")[0].strip() for line in f} - {""}
    unknown = hooked - registry.available
    if unknown:
        sys.exit(f"hooked commands not in vk.xml: {sorted(unknown)}")
    header, source = generate(registry, hooked)
    with open(out_h, "w") as f:
        f.write(header)
    with open(out_cpp, "w") as f:
        f.write(source)


if __name__ == "__main__":
    main()
