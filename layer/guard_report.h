// Findings (violations and validation hazards), per-frame counters, and the report written from them.
#pragma once

#include <vulkan/vulkan_core.h>

#include <cstdint>
#include <string>

#include "guard_dispatch.h"

namespace guard {

enum class Category : uint8_t {
  kDestroyedWhilePending,     // destroy/free of an object a pending submission uses
  kResetWhilePending,         // command buffer/pool or descriptor pool reset while pending
  kMappedMemoryInUse,         // unmap/flush (or free while mapped) of memory a pending submission uses
  kWaitUnsubmittedFence,      // vkWaitForFences on a fence nothing will ever signal
  kQueryWithoutAvailability,  // vkGetQueryPoolResults on results not known to be available
  kRunaheadExceeded,          // more pending submissions + presents than CALDERA_GUARD_MAX_RUNAHEAD
  kSyncHazard,                // SYNC-* message from the validation layer
  kValidationError,           // any other error-severity validation message
  kCount,
};

const char* CategoryName(Category category);

// Records a finding and prints it to stderr at once: the application may not survive it.
void ReportViolation(Category category, const char* call, uint64_t object, VkObjectType object_type,
                     const std::string& detail);
// Validation-layer messages are also counted by their message id.
void CountValidationMessage(const char* message_id);

// Counters the generated wrappers do not cover by themselves.
void CountRedundantBind();
void CountObjectsDestroyed(uint64_t count);
void NoteRunaheadDepth(uint64_t depth);

// Frame boundaries: a present always ends a frame; until the first present, every
// CALDERA_GUARD_FRAME_SUBMITS submits do.
void NoteSubmitForFrames();
void NotePresentForFrames();

// What the report says about sync validation.
void SetSyncvalStatus(const char* status);

// Writes CALDERA_GUARD_REPORT (when set) and the one-line stderr summary.
void WriteReport(const char* reason);
// Registers the at-exit report and the CALDERA_GUARD_FAIL exit code, once per process.
void InstallExitHandler();

}  // namespace guard
